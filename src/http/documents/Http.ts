import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Data, Deferred, Effect, Exit, Fiber, Option } from "effect"
import {
  type CreditsRequired,
  DocumentLinkNotFound,
  isDocumentSlug,
  MaxPayloadBytes,
  PayloadTooLarge,
  type RenderBackendUnavailable
} from "../../domain/Documents.ts"
import { contractDocuments } from "../../domain/documents/index.ts"
import { InvalidRequest, NotFound, type StoreUnavailable } from "../../domain/Problem.ts"
import { DocumentFiles } from "../../services/DocumentFiles.ts"
import * as DocumentRendering from "../../services/DocumentRendering.ts"
import { Renderer } from "../../services/Renderer.ts"
import { Api } from "../Api.ts"
import { readJson } from "../Body.ts"
import { responseDelivered } from "../Delivery.ts"
import { problemResponse } from "../middleware/Problems.ts"
import { DocumentPayer } from "./Api.ts"

/** The headers a PDF is delivered with, over `POST /pdf/{slug}` and a download link alike. */
const pdfResponse = (bytes: Uint8Array, fileName: string, warnings: number, cacheControl: string) =>
  HttpServerResponse.uint8Array(bytes, {
    contentType: "application/pdf",
    headers: {
      "content-disposition": `attachment; filename="${fileName}"`,
      "x-render-warnings": String(warnings),
      "cache-control": cacheControl
    }
  })

/** The client went away before the document's last byte reached the socket: the render is not paid for. */
class NotDelivered extends Data.TaggedError("NotDelivered") {}

/**
 * Renders a document that is paid for only once it is delivered. The paid work (render, hand the
 * document to the response, wait for its last byte to reach the socket) outlives this handler, so
 * it runs on its own fiber: the handler returns the response as soon as the document exists, and
 * the credit commits when the transport reports delivery, or is given back when the client left
 * first. A client leaving during the render interrupts the work, which gives the credit back too.
 */
const renderDelivered = (
  render: ReturnType<typeof DocumentRendering.make>,
  order: DocumentRendering.RenderOrder
) =>
  Effect.gen(function*() {
    const handedOver = yield* Deferred.make<
      DocumentRendering.RenderedDocument,
      InvalidRequest | CreditsRequired | RenderBackendUnavailable | StoreUnavailable
    >()
    const paid = render(order, (document) =>
      Effect.zipRight(
        Deferred.succeed(handedOver, document),
        Effect.flatMap(responseDelivered, (delivered) => (delivered ? Effect.void : Effect.fail(new NotDelivered())))
      ))
    const work = yield* paid.pipe(
      Effect.catchTag("NotDelivered", () => Effect.void),
      Effect.onExit((exit) => (Exit.isFailure(exit) ? Deferred.failCause(handedOver, exit.cause) : Effect.void)),
      Effect.forkDaemon
    )
    return yield* Deferred.await(handedOver).pipe(Effect.onInterrupt(() => Fiber.interrupt(work)))
  })

/** A known document type, or the 404 of a path that names none. */
const documentSlug = (slug: string) =>
  isDocumentSlug(slug)
    ? Effect.succeed(slug)
    : Effect.fail(new NotFound({ detail: `No document type named ${JSON.stringify(slug)}.` }))

export const DocumentsHttpLive = HttpApiBuilder.group(Api, "documents", (handlers) =>
  Effect.gen(function*() {
    const render = DocumentRendering.make(yield* Renderer, yield* DocumentRendering.planInfo)
    return handlers
      .handle("contract", ({ path }) => Effect.map(documentSlug(path.slug), (slug) => contractDocuments[slug]))
      .handleRaw("render", ({ path, request, urlParams }) =>
        Effect.gen(function*() {
          const slug = yield* documentSlug(path.slug)
          const payer = yield* DocumentPayer
          const draft = urlParams.draft === "1" || urlParams.draft === "true"
          const body = yield* readJson(request, MaxPayloadBytes).pipe(
            Effect.catchTags({
              BodyTooLarge: ({ limitBytes }) =>
                new PayloadTooLarge({ detail: `The payload exceeds ${limitBytes} bytes.`, limitBytes }),
              MalformedBody: ({ reason }) =>
                new InvalidRequest({
                  detail: `The body ${reason}.`,
                  invalidParams: [{ name: "body", in: "body", reason }]
                })
            })
          )
          const allowIncomplete = urlParams.allow_incomplete === "1" || urlParams.allow_incomplete === "true"
          const document = yield* renderDelivered(render, { slug, body, draft, allowIncomplete, payer })
          return pdfResponse(document.bytes, document.fileName, document.warnings.count, "no-store")
        }).pipe(
          // the rest of an oversized body is not worth reading: the connection closes after the answer
          Effect.catchTag("PayloadTooLarge", (error) => Effect.succeed(problemResponse(error, { connection: "close" })))
        ))
  }))

const notFound = new DocumentLinkNotFound({ detail: "This document link expired or does not exist." })

export const DocumentFilesHttpLive = HttpApiBuilder.group(
  Api,
  "documentFiles",
  (handlers) =>
    Effect.map(DocumentFiles, (files) =>
      handlers.handleRaw("download", ({ path }) =>
        Effect.flatMap(
          files.get(path.id),
          Option.match({
            onNone: () => Effect.fail(notFound),
            onSome: (stored) =>
              Effect.succeed(pdfResponse(stored.bytes, stored.fileName, stored.warnings, "private, no-store"))
          })
        )))
)
