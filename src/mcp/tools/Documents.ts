import { Effect, Schema } from "effect"
import { NotEntitled } from "../../domain/Access.ts"
import {
  ApiKeyRequired,
  CreditsRequired,
  DocumentContract,
  DocumentLink,
  documentLinkPath,
  type DocumentSlug,
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

/** REST twin: `GET /pdf/{slug}/contract`. */
const contractTool = (slug: DocumentSlug) => {
  const contract = contracts[slug]
  return Tool.make({
    name: `get_${toolSlug(slug)}_pdf_contract`,
    title: `${contract.title}: payload contract`,
    description: `The payload contract of the ${contract.title} (${contract.description}) — every accepted key ` +
      "with a placeholder value, the required keys, the keys taking a small HTML subset, the enumerated values " +
      `and authoring notes. Read it before calling create_${toolSlug(slug)}_pdf.`,
    version: "1.0.0",
    enterprise: true,
    annotations: Tool.readOnly(`${contract.title}: payload contract`),
    input: Schema.Struct({}),
    output: Tool.structured(DocumentContract),
    run: () => Effect.succeed(contractDocuments[slug])
  })
}

const CreateInput = (slug: DocumentSlug) =>
  Schema.Struct({
    payload: Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
      jsonSchema: {
        type: "object",
        description: `The template variables, as get_${toolSlug(slug)}_pdf_contract describes them (at most 1 MB ` +
          "as JSON); unknown keys are ignored and counted as warnings"
      }
    }),
    draft: Schema.optional(Schema.Boolean.annotations({
      description: "true: a watermarked draft, free and not for reliance (default false)"
    }))
  })

const encodedBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8")

/** The REST 402 body (with an absolute `type`), as the structured content of an error result. */
const purchaseInformation = (error: CreditsRequired | ApiKeyRequired, baseUrl: string) => {
  const problem = error._tag === "CreditsRequired"
    ? Schema.encodeSync(CreditsRequired)(error)
    : Schema.encodeSync(ApiKeyRequired)(error)
  return new Tool.StructuredFailure(`${error.title}: ${error.detail} Purchase information: ${error.plan.purchaseUrl}`, {
    ...publishedProblem(problem),
    type: `${baseUrl}${problem.type}`
  })
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

/** REST twin: `POST /pdf/{slug}`, delivered as a download link instead of bytes. */
const createTool = (slug: DocumentSlug) => {
  const contract = contracts[slug]
  const name = toolSlug(slug)
  const price = freeDocumentSlugs.has(slug)
    ? "Free, final or draft."
    : "A final document costs one prepaid credit (or is covered by a paid plan); drafts are free."
  return Tool.make({
    name: `create_${name}_pdf`,
    title: `Create a ${contract.title} (PDF)`,
    description: `Renders a ${contract.title} as PDF: ${contract.description} Pass the payload described by ` +
      `get_${name}_pdf_contract. The PDF is delivered as a download link (url, expires_at, sha256), never as ` +
      `bytes; the link is the credential and expires. ${price} When the caller cannot pay, the result is an ` +
      "error whose structured content carries purchase information.",
    version: "1.0.0",
    enterprise: true,
    annotations: {
      title: `Create a ${contract.title} (PDF)`,
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false
    },
    input: CreateInput(slug),
    output: Tool.structured(DocumentLink),
    run: ({ draft = false, payload }) =>
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
        const payer = yield* Effect.mapError(payers.payerOf(yield* Tool.Caller), (error) =>
          noPayer(error, plan, config.publicBaseUrl))
        const files = yield* DocumentFiles
        const render = DocumentRendering.make(yield* Renderer, plan)
        const { charge, delivered, document } = yield* render(
          { slug, body: payload, draft, payer },
          (rendered) =>
            files.put({ fileName: rendered.fileName, bytes: rendered.bytes, warnings: rendered.warnings.count })
        ).pipe(Effect.catchTag("CreditsRequired", (error) =>
          Effect.fail(toPurchase(error))))
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
  })
}

/** The enterprise document tools: for each document type its contract, then its create tool. */
export const documentTools = DocumentSlugs.flatMap((slug) => [contractTool(slug), createTool(slug)])
