import { HttpClient, HttpClientError, HttpClientRequest } from "@effect/platform"
import type { RpcClientError } from "@effect/rpc"
import { RpcClient, RpcSerialization } from "@effect/rpc"
import { Context, Effect, Layer, Option, type Redacted, Stream } from "effect"
import { type DocumentSlug, RenderBackendUnavailable } from "../domain/Documents.ts"
import type { ValidPayload } from "../domain/documents/Contract.ts"
import { contracts } from "../domain/documents/index.ts"
import {
  MaxRenderedPdfBytes,
  RenderBackendPath,
  type RenderBackendRefused,
  type RenderedPart,
  RenderRpcs
} from "../domain/RenderBackend.ts"
import { renderDocument } from "../render/Document.ts"
import { AppConfig } from "./AppConfig.ts"

export interface RenderRequest {
  readonly slug: DocumentSlug
  readonly payload: ValidPayload
  readonly draft: boolean
}

export interface RenderedPdf {
  readonly bytes: Uint8Array
  /** How many non-fatal payload issues the render met (`X-Render-Warnings`). */
  readonly warnings: number
  /** Those issues, named without their values. */
  readonly warningMessages: ReadonlyArray<string>
}

/**
 * Turns a validated payload into a PDF. The in-process layer lays documents out here; the remote
 * layer sends them to a rendering backend (`RENDER_BACKEND_URL`, see `src/layers/RenderBackend.ts`) and
 * fails with `RenderBackendUnavailable` (502) when it cannot answer. Payloads are held in memory
 * for the render only.
 */
export interface RendererShape {
  readonly render: (request: RenderRequest) => Effect.Effect<RenderedPdf, RenderBackendUnavailable>
}

export class Renderer extends Context.Tag("app/Renderer")<Renderer, RendererShape>() {}

/** Renders run on the event loop; a bound keeps a burst from holding many documents in memory at once. */
export const makeInProcess = (options: { readonly concurrency: number }) =>
  Effect.map(Effect.makeSemaphore(options.concurrency), (semaphore): RendererShape => ({
    render: ({ draft, payload, slug }) =>
      semaphore.withPermits(1)(
        Effect.promise(async () => {
          const rendered = await renderDocument(contracts[slug], payload, { draft, now: new Date() })
          return { bytes: rendered.bytes, warnings: rendered.warnings.length, warningMessages: rendered.warnings }
        })
      )
  }))

export const layerInProcess: Layer.Layer<Renderer> = Layer.effect(Renderer, makeInProcess({ concurrency: 2 }))

export interface RemoteOptions {
  /** The backend's base URL (`RENDER_BACKEND_URL`); the group is served at `RenderBackendPath` below it. */
  readonly url: string
  /** `RENDER_BACKEND_SECRET`, sent as a bearer token. */
  readonly secret: Option.Option<Redacted.Redacted>
  /** The largest PDF accepted; a backend announcing or sending more is cut off. */
  readonly maxPdfBytes?: number
}

const unavailable = (detail: string) =>
  new RenderBackendUnavailable({ detail: `The rendering backend did not render the document: ${detail}.` })

/** The HTTP gate answers before the RPC protocol does: its statuses are the backend's refusals. */
const describeClientError = (error: RpcClientError.RpcClientError): string => {
  const status = HttpClientError.isHttpClientError(error.cause) && error.cause._tag === "ResponseError"
    ? error.cause.response.status
    : undefined
  if (status === 401) return "it refused this instance's credential (check RENDER_BACKEND_SECRET)"
  if (status === 413) return "the request exceeded its size limit"
  if (status === 429) {
    return "it is refusing this address after repeated wrong credentials (check RENDER_BACKEND_SECRET)"
  }
  return status === undefined ? "it did not answer" : `it answered HTTP ${status}`
}

const describeRefusal = (error: RenderBackendRefused): string =>
  ({
    unauthenticated: "it refused this instance's credential (check RENDER_BACKEND_SECRET)",
    "request-too-large": "the request exceeded its size limit",
    "document-too-large": "the PDF exceeded the size limit",
    "render-failed": "its renderer failed",
    busy: "it is busy (its render queue is full); retry shortly"
  })[error.reason]

/** Collects the streamed PDF, holding the backend to the size it announced and to `maxPdfBytes`. */
const collect = (parts: Stream.Stream<RenderedPart, RenderBackendUnavailable>, maxPdfBytes: number) =>
  Effect.suspend(() => {
    let head: { readonly bytes: number; readonly warnings: ReadonlyArray<string> } | undefined
    const chunks: Array<Uint8Array> = []
    let received = 0
    return Stream.runForEach(parts, (part) => {
      if (part._tag === "RenderedHead") {
        if (head !== undefined) return Effect.fail(unavailable("it sent two answers"))
        if (part.bytes > maxPdfBytes) return Effect.fail(unavailable("the PDF exceeded the size limit"))
        head = part
        return Effect.void
      }
      received += part.data.length
      if (head === undefined || received > head.bytes) {
        return Effect.fail(unavailable("it sent more bytes than it announced"))
      }
      chunks.push(part.data)
      return Effect.void
    }).pipe(Effect.flatMap(() => {
      if (head === undefined || received !== head.bytes) return Effect.fail(unavailable("the PDF arrived incomplete"))
      const bytes = new Uint8Array(received)
      let offset = 0
      for (const chunk of chunks) {
        bytes.set(chunk, offset)
        offset += chunk.length
      }
      return Effect.succeed<RenderedPdf>({ bytes, warnings: head.warnings.length, warningMessages: head.warnings })
    }))
  })

/**
 * A client of a rendering backend (`src/layers/RenderBackend.ts`) over the `RenderRpcs` group. A
 * render that fails, is refused, times out or is cut off fails with `RenderBackendUnavailable`;
 * interrupting it closes the HTTP exchange, which interrupts the backend's work.
 */
export const makeRemote = (options: Pick<RemoteOptions, "maxPdfBytes">) =>
  Effect.map(RpcClient.make(RenderRpcs, { disableTracing: true }), (client): RendererShape => ({
    render: ({ draft, payload, slug }) =>
      client.Render({ slug, draft, values: payload.values, warnings: payload.warnings }).pipe(
        Stream.mapError((error) =>
          unavailable(error._tag === "RenderBackendRefused" ? describeRefusal(error) : describeClientError(error))
        ),
        (parts) => collect(parts, options.maxPdfBytes ?? MaxRenderedPdfBytes),
        Effect.scoped,
        Effect.timeoutFail({ duration: "30 seconds", onTimeout: () => unavailable("it took longer than 30 s") }),
        // a defect here is the backend's (a payload it could not decode, a broken stream)
        Effect.catchAllDefect(() => Effect.fail(unavailable("it failed")))
      )
  }))

/** The HTTP protocol of `@effect/rpc`, with the bearer credential and non-2xx answers as failures. */
const protocol = (options: RemoteOptions) =>
  Layer.effect(
    RpcClient.Protocol,
    Effect.flatMap(HttpClient.HttpClient, (client) =>
      RpcClient.makeProtocolHttp(
        client.pipe(
          HttpClient.mapRequest((request) => {
            const located = HttpClientRequest.prependUrl(request, options.url.replace(/\/+$/, "") + RenderBackendPath)
            return Option.match(options.secret, {
              onNone: () => located,
              onSome: (secret) => HttpClientRequest.bearerToken(located, secret)
            })
          }),
          HttpClient.filterStatusOk
        )
      ))
  ).pipe(Layer.provide(RpcSerialization.layerMsgPack))

export const layerRemote = (options: RemoteOptions): Layer.Layer<Renderer, never, HttpClient.HttpClient> =>
  Layer.scoped(Renderer, makeRemote(options)).pipe(Layer.provide(protocol(options)))

/** In process, unless `RENDER_BACKEND_URL` names a rendering backend. */
export const layer: Layer.Layer<Renderer, never, AppConfig | HttpClient.HttpClient> = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Option.match(config.renderBackendUrl, {
      onNone: () => layerInProcess,
      onSome: (url) => layerRemote({ url, secret: config.renderBackendSecret })
    }))
)
