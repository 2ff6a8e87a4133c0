import { Context, Effect, Layer } from "effect"
import type { DocumentSlug, RenderBackendUnavailable } from "../domain/Documents.ts"
import type { ValidPayload } from "../render/contracts/Contract.ts"
import { contracts } from "../render/contracts/index.ts"
import { renderDocument, type RenderedDocument } from "../render/Document.ts"

export interface RenderRequest {
  readonly slug: DocumentSlug
  readonly payload: ValidPayload
  readonly draft: boolean
}

/**
 * Turns a validated payload into a PDF. The in-process layer lays documents out here; a layer
 * that delegates to a remote rendering backend fails with `RenderBackendUnavailable` (502) when
 * that backend cannot answer. Payloads are held in memory for the render only.
 */
export interface RendererShape {
  readonly render: (request: RenderRequest) => Effect.Effect<RenderedDocument, RenderBackendUnavailable>
}

export class Renderer extends Context.Tag("app/Renderer")<Renderer, RendererShape>() {}

/** Renders run on the event loop; a bound keeps a burst from holding many documents in memory at once. */
export const makeInProcess = (options: { readonly concurrency: number }) =>
  Effect.map(Effect.makeSemaphore(options.concurrency), (semaphore): RendererShape => ({
    render: ({ draft, payload, slug }) =>
      semaphore.withPermits(1)(
        Effect.promise(() => renderDocument(contracts[slug], payload, { draft, now: new Date() }))
      )
  }))

export const layerInProcess: Layer.Layer<Renderer> = Layer.effect(Renderer, makeInProcess({ concurrency: 2 }))
