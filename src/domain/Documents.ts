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

export const isDocumentSlug = Schema.is(DocumentSlug)

/**
 * The `{slug}` of `/pdf/{slug}`: any segment, documented as the enumeration. A slug outside it
 * names no resource, which is a 404 from the handler rather than a 400 from the path decoder.
 */
export const DocumentSlugParameter = Schema.String.annotations({
  description: "Document type: " + DocumentSlugs.join(", "),
  jsonSchema: { type: "string", enum: DocumentSlugs }
})

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
  judgement_sections: Schema.Array(Schema.String).annotations({
    description: "The sections of judgement: a document with any of them empty is marked Incomplete on its cover " +
      "and rendered as a draft unless the caller asks for a final with allow_incomplete"
  }),
  sections: Schema.Array(Schema.Struct({ title: Schema.String, keys: Schema.Array(Schema.String) })).annotations({
    description: "Where each key belongs: the document's sections in order (`Section › step or part`) with their " +
      "keys; each key's description in the payload schema says what to write"
  }),
  // described as a plain object: the generated schema would repeat the `/schemas/unknown` id
  fields: Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
    jsonSchema: {
      type: "object",
      description: "Every accepted key with a placeholder value; table keys hold an array with one placeholder row"
    }
  })
}).annotations({ identifier: "DocumentContract" })
export type DocumentContract = typeof DocumentContract.Type

/** What a caller needs to obtain a key or credits; operators configure it (docs/configuration.md). */
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

/** Where a stored render is downloaded (`GET /pdf/files/{id}`). */
export const documentLinkPath = (token: string): string => `/pdf/files/${token}`

/** A download link id: 32 random bytes, base64url (43 characters). The token is the credential. */
export const DocumentLinkId = Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]{43}$/)).annotations({
  description: "The download token of a rendered document (43 base64url characters)"
})

/** What a stored render says about itself on download: the same headers `POST /pdf/{slug}` sends. */
const RenderWarnings = Schema.Struct({
  count: Schema.Int.annotations({ description: "Non-fatal payload issues (`X-Render-Warnings`)" }),
  messages: Schema.Array(Schema.String).annotations({
    description: "The issues, named without their values"
  })
})

/** The answer of `create_<slug>_pdf`: a link to the stored PDF, never its bytes. */
export const DocumentLink = Schema.Struct({
  url: Schema.String.annotations({
    description: "Download link (GET, no bearer needed on the public deployment): the link is the credential, " +
      "share it only with whoever may read the document"
  }),
  expires_at: Schema.String.annotations({ description: "When the link stops working (ISO 8601, UTC)" }),
  document: DocumentSlug,
  file_name: Schema.String,
  content_type: Schema.Literal("application/pdf"),
  bytes: Schema.Int,
  sha256: Schema.String.annotations({ description: "SHA-256 of the PDF, hex: check the download against it" }),
  draft: Schema.Boolean.annotations({ description: "A watermarked draft, not for reliance" }),
  warnings: RenderWarnings,
  metering: Schema.Literal("credits", "plan", "free").annotations({
    description: "How the render was paid: one prepaid credit, the caller's plan, or free (drafts, the " +
      "restricted-party-screening certificate)"
  }),
  credits_charged: Schema.optional(Schema.Int.annotations({ description: "Credits this render consumed" })),
  credits_remaining: Schema.optional(Schema.Int.annotations({ description: "Prepaid credits left after it" }))
}).annotations({ identifier: "DocumentLink" })
export type DocumentLink = typeof DocumentLink.Type

const documentLinkNotFound = problem({
  slug: "document-link-not-found",
  status: 404,
  title: "Document link not found",
  description: "No rendered document is stored under this link: it expired or never existed. Render it again."
})
export class DocumentLinkNotFound extends Schema.TaggedError<DocumentLinkNotFound>()(
  "DocumentLinkNotFound",
  documentLinkNotFound.fields,
  documentLinkNotFound.annotations
) {}

const documentStorageFull = problem({
  slug: "document-storage-full",
  status: 503,
  title: "Document storage full",
  description: "Rendered documents awaiting download fill the storage; no credit was consumed. Retry later."
})
export class DocumentStorageFull extends Schema.TaggedError<DocumentStorageFull>()(
  "DocumentStorageFull",
  documentStorageFull.fields,
  documentStorageFull.annotations
) {}
