import { Effect, Schema } from "effect"
import { NotEntitled } from "../../domain/Access.ts"
import {
  ApiKeyRequired,
  CreditsRequired,
  DocumentContract,
  DocumentLink,
  documentLinkPath,
  DocumentSlug,
  DocumentSlugs,
  freeDocumentSlugs,
  MaxPayloadBytes,
  PayloadTooLarge,
  type PlanInfo
} from "../../domain/Documents.ts"
import { contractDocuments, contracts } from "../../domain/documents/index.ts"
import { publishedProblem } from "../../domain/Problem.ts"
import { AppConfig } from "../../services/AppConfig.ts"
import { DocumentFiles } from "../../services/DocumentFiles.ts"
import { DocumentPayers, type NoPayer } from "../../services/DocumentPayers.ts"
import * as DocumentRendering from "../../services/DocumentRendering.ts"
import { Renderer } from "../../services/Renderer.ts"
import { Entitlement } from "../../services/ServiceJwt.ts"
import * as Tool from "../Tool.ts"

const toolSlug = (slug: DocumentSlug) => slug.replaceAll("-", "_")

const contractOf = (slug: DocumentSlug) => Effect.succeed(contractDocuments[slug])

const DocumentArgument = DocumentSlug.annotations({ description: "Document type" })

const Payload = (contractTool: string) =>
  Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
    jsonSchema: {
      type: "object",
      description: `Template variables as ${contractTool} describes them (max 1 MB JSON); unknown keys are warnings`
    }
  })

const Draft = Schema.optional(Schema.Boolean.annotations({
  description: "true: watermarked draft, free, not for reliance (default false)"
}))
const AllowIncomplete = Schema.optional(Schema.Boolean.annotations({
  description: "true: a final even with judgement sections empty (else a draft marked Incomplete)"
}))

const priceNote = `A final document costs a credit (${[...freeDocumentSlugs].join(", ")}: free), a draft nothing.`

/** REST twin: `GET /pdf/{slug}/contract`, one tool for every document type. */
const getPdfContract = Tool.make({
  name: "get_pdf_contract",
  title: "Document payload contract",
  description: "A compliance PDF's payload contract: keys with placeholders, required and HTML keys, enumerations, " +
    "notes. Read it before create_pdf.",
  version: "1.0.0",
  enterprise: true,
  annotations: Tool.readOnly("Document payload contract"),
  input: Schema.Struct({ document: DocumentArgument }),
  output: Tool.structured(DocumentContract),
  run: ({ document }) => contractOf(document)
})

/**
 * SPEC's per-type name `get_<slug>_pdf_contract`: callable, not listed (seven near-identical
 * entries cost agents thousands of characters in every `tools/list`; `get_pdf_contract` lists once).
 */
const contractAlias = (slug: DocumentSlug) => {
  const contract = contracts[slug]
  return Tool.make({
    name: `get_${toolSlug(slug)}_pdf_contract`,
    title: `${contract.title}: payload contract`,
    description: `get_pdf_contract for document \`${slug}\`: ${contract.description}`,
    version: "1.0.0",
    enterprise: true,
    listed: false,
    annotations: Tool.readOnly(`${contract.title}: payload contract`),
    input: Schema.Struct({}),
    output: Tool.structured(DocumentContract),
    run: () => contractOf(slug)
  })
}

const encodedBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8")

/** The REST 402 body (with an absolute `type`), as the structured content of an error result. */
const purchaseInformation = (error: CreditsRequired | ApiKeyRequired, baseUrl: string) => {
  const problem = error._tag === "CreditsRequired"
    ? Schema.encodeSync(CreditsRequired)(error)
    : Schema.encodeSync(ApiKeyRequired)(error)
  return new Tool.StructuredFailure(
    `${error.title}: ${error.detail} Purchase information: ${error.plan.purchaseUrl}`,
    publishedProblem(problem, baseUrl)
  )
}

/** Callers who reach these tools can pay, except enclave services without the `pdf` entitlement. */
const noPayer = (error: NoPayer, plan: PlanInfo, baseUrl: string) =>
  error.reason === "not_entitled"
    ? new NotEntitled({
      detail: `Rendering documents needs the \`${Entitlement.pdf}\` entitlement in the service token.`,
      entitlement: Entitlement.pdf
    })
    : purchaseInformation(
      new ApiKeyRequired({ detail: "Rendering documents needs an API key or a signed-in account.", plan }),
      baseUrl
    )

const renderAnnotations = (title: string): Tool.ToolAnnotations => ({
  title,
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false
})

/** REST twin: `POST /pdf/{slug}`, delivered as a download link instead of bytes. */
const render = (
  slug: DocumentSlug,
  payload: Readonly<Record<string, unknown>>,
  draft: boolean,
  allowIncomplete: boolean
) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const plan = yield* DocumentRendering.planInfo
    const toPurchase = (error: CreditsRequired | ApiKeyRequired) => purchaseInformation(error, config.publicBaseUrl)
    if (encodedBytes(payload) > MaxPayloadBytes) {
      return yield* new PayloadTooLarge({
        detail: `The payload exceeds ${MaxPayloadBytes} bytes as JSON.`,
        limitBytes: MaxPayloadBytes
      })
    }
    const payers = yield* DocumentPayers
    const payer = yield* Effect.mapError(
      payers.payerOf(yield* Tool.Caller),
      (error) => noPayer(error, plan, config.publicBaseUrl)
    )
    const files = yield* DocumentFiles
    const renderer = DocumentRendering.make(yield* Renderer, plan)
    const { charge, delivered, document } = yield* renderer(
      { slug, body: payload, draft, allowIncomplete, payer },
      (rendered) => files.put({ fileName: rendered.fileName, bytes: rendered.bytes, warnings: rendered.warnings.count })
    ).pipe(
      Effect.catchTags({
        CreditsRequired: (error) => Effect.fail(toPurchase(error)),
        // named from the arguments, so create_pdf refuses a payload as create_<slug>_pdf's schema does
        InvalidRequest: ({ invalidParams }) =>
          new Tool.InvalidArguments({
            issues: invalidParams.map((issue) => ({ path: `payload.${issue.name}`, message: issue.reason }))
          })
      })
    )
    return {
      url: `${config.publicBaseUrl}${documentLinkPath(delivered.token)}`,
      expires_at: delivered.expiresAt.toISOString(),
      document: slug,
      file_name: document.fileName,
      content_type: "application/pdf" as const,
      bytes: document.bytes.byteLength,
      sha256: delivered.sha256,
      draft,
      warnings: document.warnings,
      metering: charge.metering,
      ...(charge.credits === undefined
        ? {}
        : { credits_charged: charge.credits.charged, credits_remaining: charge.credits.remaining })
    }
  })

const createPdf = Tool.make({
  name: "create_pdf",
  title: "Create a compliance PDF",
  description: "Renders a compliance PDF from a payload (see get_pdf_contract); answers an expiring download " +
    `link (url, sha256) that is the credential. ${priceNote} Unpaid: the error carries purchase information.`,
  version: "1.0.0",
  enterprise: true,
  annotations: renderAnnotations("Create a compliance PDF"),
  input: Schema.Struct({
    document: DocumentArgument,
    payload: Payload("get_pdf_contract"),
    draft: Draft,
    allow_incomplete: AllowIncomplete
  }),
  output: Tool.structured(DocumentLink),
  run: ({ allow_incomplete = false, document, draft = false, payload }) =>
    render(document, payload, draft, allow_incomplete)
})

/**
 * SPEC's per-type name `create_<slug>_pdf`: callable, not listed (see `contractAlias`). Its payload
 * is the type's own contract schema (the one REST validates with: other keys, at any depth, pass to
 * become render warnings), so a payload missing a required key or holding a bad value is refused
 * before anything is rendered or charged, and `/.well-known/mcp` publishes the schema.
 */
const createAlias = (slug: DocumentSlug) => {
  const contract = contracts[slug]
  const name = toolSlug(slug)
  return Tool.make({
    name: `create_${name}_pdf`,
    title: `Create a ${contract.title} (PDF)`,
    description: `create_pdf for document \`${slug}\`: ${contract.description}`,
    version: "1.0.0",
    enterprise: true,
    listed: false,
    annotations: renderAnnotations(`Create a ${contract.title} (PDF)`),
    input: Schema.Struct({
      payload: contract.schema,
      draft: Draft,
      allow_incomplete: AllowIncomplete
    }),
    output: Tool.structured(DocumentLink),
    run: ({ allow_incomplete = false, draft = false, payload }) => render(slug, payload, draft, allow_incomplete)
  })
}

/**
 * The enterprise document tools: the two listed ones taking the document type, then SPEC's
 * per-type names as unlisted aliases (for each type its contract, then its create tool).
 */
export const documentTools = [
  getPdfContract,
  createPdf,
  ...DocumentSlugs.flatMap((slug) => [contractAlias(slug), createAlias(slug)])
]
