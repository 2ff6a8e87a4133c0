import { Schema } from "effect"
import { problem } from "./Problem.ts"

/** The document types the service renders, in the order the index and the contracts list them. */
export const DocumentSlugs = [
  "classification",
  "license-determination",
  "restricted-party-screening",
  "transaction-compliance-file",
  "emcp-manual",
  "tcp",
  "encryption-report"
] as const
export const DocumentSlug = Schema.Literal(...DocumentSlugs).annotations({
  description: "Document type: " + DocumentSlugs.join(", ")
})
export type DocumentSlug = typeof DocumentSlug.Type

/** Final renders of these document types consume no credit. */
export const freeDocumentSlugs: ReadonlySet<DocumentSlug> = new Set(["restricted-party-screening"])

/** Largest accepted render payload, in bytes (SPEC Limits). */
export const MaxPayloadBytes = 1024 * 1024

export const DocumentContract = Schema.Struct({
  template: Schema.String.annotations({ description: "The document type (slug)" }),
  version: Schema.String.annotations({ description: "Version of this payload contract" }),
  title: Schema.String.annotations({ description: "Human-readable name of the document" }),
  required: Schema.Array(Schema.String).annotations({ description: "Keys that must be present and non-blank" }),
  raw_html_fields: Schema.Array(Schema.String).annotations({
    description: "Keys accepting a small HTML subset (p, br, strong/b, em/i, u, ul/ol/li, a href, simple tables); " +
      "anything else is dropped and counted in X-Render-Warnings"
  }),
  enums: Schema.Record({
    key: Schema.String,
    value: Schema.Struct({ values: Schema.Array(Schema.String), fields: Schema.Array(Schema.String) })
  }).annotations({ description: "Enumerated value sets and the keys (or `TABLE[].COLUMN`) that take them" }),
  authoring_notes: Schema.Array(Schema.String),
  // described as a plain object: the generated schema would repeat the `/schemas/unknown` id
  fields: Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
    jsonSchema: {
      type: "object",
      description: "Every accepted key with a placeholder value; table keys hold an array with one placeholder row"
    }
  })
}).annotations({ identifier: "DocumentContract" })
export type DocumentContract = typeof DocumentContract.Type

/** What a caller needs to obtain a key or credits; operators configure it (README, Configuration). */
export const PlanInfo = Schema.Struct({
  name: Schema.String,
  pricing: Schema.String,
  purchaseUrl: Schema.String,
  contact: Schema.String
}).annotations({ identifier: "PlanInfo" })
export type PlanInfo = typeof PlanInfo.Type

const apiKeyRequired = problem({
  slug: "api-key-required",
  status: 402,
  title: "API key required",
  description: "Document rendering is an enterprise feature: send `Authorization: Bearer svc_live_…`. " +
    "`plan` says how to obtain a key."
})
export class ApiKeyRequired extends Schema.TaggedError<ApiKeyRequired>()("ApiKeyRequired", {
  ...apiKeyRequired.fields,
  plan: PlanInfo
}, apiKeyRequired.annotations) {}

const apiKeyInactive = problem({
  slug: "api-key-inactive",
  status: 403,
  title: "API key inactive",
  description: "The API key was deactivated. Use another key or contact your account administrator."
})
export class ApiKeyInactive extends Schema.TaggedError<ApiKeyInactive>()(
  "ApiKeyInactive",
  apiKeyInactive.fields,
  apiKeyInactive.annotations
) {}

const creditsRequired = problem({
  slug: "credits-required",
  status: 402,
  title: "Credits required",
  description: "A final document costs one prepaid credit and the key has none available, or its billing needs " +
    "attention (`reason`). Drafts (`?draft=1`) stay free; `plan` says how to buy credits."
})
export class CreditsRequired extends Schema.TaggedError<CreditsRequired>()("CreditsRequired", {
  ...creditsRequired.fields,
  reason: Schema.Literal("exhausted", "billing_issue"),
  balance: Schema.Int,
  plan: PlanInfo
}, creditsRequired.annotations) {}

const payloadTooLarge = problem({
  slug: "payload-too-large",
  status: 413,
  title: "Payload too large",
  description: "Render payloads are limited to 1 MB (1,048,576 bytes)."
})
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", {
  ...payloadTooLarge.fields,
  limitBytes: Schema.Int
}, payloadTooLarge.annotations) {}

const renderBackendUnavailable = problem({
  slug: "render-backend-unavailable",
  status: 502,
  title: "Rendering backend unavailable",
  description: "The configured remote rendering backend did not answer; no credit was consumed. Retry later."
})
export class RenderBackendUnavailable extends Schema.TaggedError<RenderBackendUnavailable>()(
  "RenderBackendUnavailable",
  renderBackendUnavailable.fields,
  renderBackendUnavailable.annotations
) {}
