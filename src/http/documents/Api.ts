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
  DocumentLinkId,
  DocumentLinkNotFound,
  DocumentSlugParameter,
  PayloadTooLarge,
  RenderBackendUnavailable
} from "../../domain/Documents.ts"
import { contractDocuments, contracts } from "../../domain/documents/index.ts"
import { InvalidRequest, NotFound, StoreUnavailable } from "../../domain/Problem.ts"
import type { Payer } from "../../services/DocumentPayers.ts"
import { CachePolicy, Enterprise, IndexGroup } from "../Annotations.ts"

/** The payer of a `/pdf/*` request, as the security middleware resolved it (see `DocumentPayers`). */
export class DocumentPayer extends Context.Tag("app/http/DocumentPayer")<DocumentPayer, Payer>() {}

/**
 * `/pdf/*` needs a caller who can pay: on the public deployment an API key (402 when it is missing
 * or unknown, 403 when it was deactivated, 503 when the account store cannot check it). Each deployment's layer provides the implementation.
 */
export class DocumentsAuth extends HttpApiMiddleware.Tag<DocumentsAuth>()("app/http/DocumentsAuth", {
  provides: DocumentPayer,
  failure: Schema.Union(ApiKeyRequired, ApiKeyInactive, StoreUnavailable),
  security: { apiKey: HttpApiSecurity.bearer }
}) {}

const SlugPath = Schema.Struct({ slug: DocumentSlugParameter })

/** Any of the document payloads; the endpoint validates against the one its slug names. */
const RenderPayload = Schema.Union(...Object.values(contracts).map((contract) => contract.schema))

export class DocumentsGroup extends HttpApiGroup.make("documents")
  .add(
    HttpApiEndpoint.get("contract", "/pdf/:slug/contract")
      .setPath(SlugPath)
      .addSuccess(DocumentContract.annotations({ examples: [contractDocuments.classification] }))
      .addError(NotFound)
      .annotate(OpenApi.Summary, "payload contract of a document type: keys, required keys, enums, notes")
  )
  .add(
    HttpApiEndpoint.post("render", "/pdf/:slug")
      .setPath(SlugPath)
      .setUrlParams(Schema.Struct({
        draft: Schema.optional(Schema.Literal("1", "0", "true", "false")).annotations({
          description: "`1`: a watermarked draft, free and not for reliance"
        }),
        allow_incomplete: Schema.optional(Schema.Literal("1", "0", "true", "false")).annotations({
          description: "`1`: render a final even when judgement sections (the contract's `judgement_sections`) are " +
            "empty; without it such a payload renders as a free draft marked Incomplete"
        })
      }))
      .setPayload(RenderPayload)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/pdf" }))
      .addError(InvalidRequest)
      .addError(NotFound)
      .addError(CreditsRequired)
      .addError(PayloadTooLarge)
      .addError(RenderBackendUnavailable)
      .addError(StoreUnavailable)
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

/**
 * Downloads of documents rendered over MCP. The link token is the credential (like a presigned
 * URL), so no bearer is needed on the public deployment; the enclave's access policy still guards
 * every `/pdf/*` path. Malformed ids are 400, unknown and expired ones the same 404.
 */
export class DocumentFilesGroup extends HttpApiGroup.make("documentFiles")
  .add(
    HttpApiEndpoint.get("download", "/pdf/files/:id")
      .setPath(Schema.Struct({ id: DocumentLinkId }))
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/pdf" }))
      .addError(DocumentLinkNotFound)
      .addError(StoreUnavailable)
      .annotate(
        OpenApi.Summary,
        "download a document rendered by an MCP create_*_pdf tool (the link is the credential; expires)"
      )
  )
  .annotate(IndexGroup, "documents")
  .annotate(Enterprise, true)
  .annotate(CachePolicy, "no-store")
  .annotate(OpenApi.Title, "Document downloads")
{}
