import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { DocumentLinkNotFound, isDocumentSlug, MaxPayloadBytes, PayloadTooLarge } from "../../domain/Documents.ts"
import { contractDocuments } from "../../domain/documents/index.ts"
import { InvalidRequest, NotFound } from "../../domain/Problem.ts"
import { DocumentFiles } from "../../services/DocumentFiles.ts"
import * as DocumentRendering from "../../services/DocumentRendering.ts"
import { Renderer } from "../../services/Renderer.ts"
import { Api } from "../Api.ts"
import { readJson } from "../Body.ts"
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
          const { document } = yield* render({ slug, body, draft, payer }, () => Effect.void)
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
