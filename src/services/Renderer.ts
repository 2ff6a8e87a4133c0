import type { HttpClient } from "@effect/platform"
import { Context, Effect, Layer, Option } from "effect"
import { type DocumentSlug, RenderBackendUnavailable } from "../domain/Documents.ts"
import type { ValidPayload } from "../domain/documents/Contract.ts"
import { contracts } from "../domain/documents/index.ts"
import { BackendProtocol } from "../render/Backend.ts"
import { renderDocument } from "../render/Document.ts"
import { AppConfig } from "./AppConfig.ts"
import * as Upstream from "./Upstream.ts"

export interface RenderRequest {
  readonly slug: DocumentSlug
  readonly payload: ValidPayload
  readonly draft: boolean
}

export interface RenderedPdf {
  readonly bytes: Uint8Array
  /** How many non-fatal payload issues the render met (`X-Render-Warnings`). */
  readonly warnings: number
  /** Those issues, named without their values; a remote backend reports the count only. */
  readonly warningMessages: ReadonlyArray<string>
}

/**
 * Turns a validated payload into a PDF. The in-process layer lays documents out here; the remote
 * layer sends them to a rendering backend (`RENDER_BACKEND_URL`, see `src/render/Backend.ts`) and
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

export const makeRemote = (baseUrl: string) =>
  Effect.map(
    Upstream.make({ name: "render-backend", baseUrl, timeout: "30 seconds", retries: 0 }),
    (client): RendererShape => ({
      render: ({ draft, payload, slug }) =>
        client.post(BackendProtocol.path(slug, draft), payload, { headers: { accept: "application/pdf" } }).pipe(
          Effect.filterOrFail(
            (response) => response.headers["content-type"]?.startsWith("application/pdf") === true,
            () => new Upstream.UpstreamError({ upstream: "render-backend", reason: "decode", detail: "not a PDF" })
          ),
          Effect.map((response) => ({
            bytes: response.body,
            warnings: Number(response.headers[BackendProtocol.warningsHeader] ?? 0) || 0,
            warningMessages: []
          })),
          Effect.mapError((error) =>
            new RenderBackendUnavailable({ detail: `The rendering backend did not answer: ${error.detail}.` })
          )
        )
    })
  )

/** In process, unless `RENDER_BACKEND_URL` names a rendering backend. */
export const layer: Layer.Layer<Renderer, never, AppConfig | HttpClient.HttpClient> = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Option.match(config.renderBackendUrl, {
      onNone: () => layerInProcess,
      onSome: (url) => Layer.effect(Renderer, makeRemote(url))
    }))
)
