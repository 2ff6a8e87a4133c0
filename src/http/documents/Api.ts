import {
  HttpApiEndpoint,
  HttpApiGroup,
  HttpApiMiddleware,
  HttpApiSchema,
  HttpApiSecurity,
  OpenApi
} from "@effect/platform"
import { Context, Schema } from "effect"
import {
  ApiKeyInactive,
  ApiKeyRequired,
  CreditsRequired,
  DocumentContract,
  DocumentSlug,
  PayloadTooLarge,
  RenderBackendUnavailable
} from "../../domain/Documents.ts"
import type { ApiKeyPrincipal } from "../../domain/Principal.ts"
import { InvalidRequest } from "../../domain/Problem.ts"
import { contracts } from "../../render/contracts/index.ts"
import { CachePolicy, Enterprise, IndexGroup } from "../Annotations.ts"

/** The API key a document request is made with, once the security middleware accepted it. */
export class DocumentKey extends Context.Tag("app/http/DocumentKey")<DocumentKey, typeof ApiKeyPrincipal.Type>() {}

/** `/pdf/*` needs an API key: 402 when it is missing or unknown, 403 when it was deactivated. */
export class DocumentsAuth extends HttpApiMiddleware.Tag<DocumentsAuth>()("app/http/DocumentsAuth", {
  provides: DocumentKey,
  failure: Schema.Union(ApiKeyRequired, ApiKeyInactive),
  security: { apiKey: HttpApiSecurity.bearer }
}) {}

const SlugPath = Schema.Struct({ slug: DocumentSlug })

/** Any of the document payloads; the endpoint validates against the one its slug names. */
const RenderPayload = Schema.Union(...Object.values(contracts).map((contract) => contract.schema))

export class DocumentsGroup extends HttpApiGroup.make("documents")
  .add(
    HttpApiEndpoint.get("contract", "/pdf/:slug/contract")
      .setPath(SlugPath)
      .addSuccess(DocumentContract)
      .annotate(OpenApi.Summary, "payload contract of a document type: keys, required keys, enums, notes")
  )
  .add(
    HttpApiEndpoint.post("render", "/pdf/:slug")
      .setPath(SlugPath)
      .setUrlParams(Schema.Struct({
        draft: Schema.optional(Schema.Literal("1", "0", "true", "false")).annotations({
          description: "`1`: a watermarked draft, free and not for reliance"
        })
      }))
      .setPayload(RenderPayload)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/pdf" }))
      .addError(InvalidRequest)
      .addError(CreditsRequired)
      .addError(PayloadTooLarge)
      .addError(RenderBackendUnavailable)
      .annotate(
        OpenApi.Summary,
        "render a document as PDF (JSON payload ≤ 1 MB; ?draft=1 free watermarked preview; final: 1 credit)"
      )
  )
  .middleware(DocumentsAuth)
  .annotate(IndexGroup, "documents")
  .annotate(Enterprise, true)
  .annotate(CachePolicy, "no-store")
  .annotate(OpenApi.Title, "Documents")
{}
