import { Rpc, RpcGroup } from "@effect/rpc"
import { Schema } from "effect"
import { DocumentSlugs, MaxPayloadBytes } from "./Documents.ts"
import { contracts } from "./documents/index.ts"

/**
 * The protocol between an instance (`RENDER_BACKEND_URL`) and a rendering backend
 * (`ecds render-backend`): one `@effect/rpc` group served over HTTP at `RenderBackendPath`, MessagePack
 * framed, so PDF chunks travel as binary. The request carries a payload the instance already
 * validated; its `values` are decoded again by the slug's own contract schema at the backend.
 */
export const RenderBackendPath = "/rpc"

/** Largest request body the backend reads: a maximal payload plus its warnings and framing. */
export const MaxRenderRequestBytes = 2 * MaxPayloadBytes

/** Largest PDF a backend sends and an instance accepts; documents are a few hundred KB. */
export const MaxRenderedPdfBytes = 32 * 1024 * 1024

/**
 * Renders a backend admits beyond the ones running (its renderer runs two at a time): a further
 * request is refused at once with `busy` instead of waiting without bound.
 */
export const MaxQueuedRenders = 16

/** Requests without the right credential a backend answers per client address per minute before 429. */
export const MaxUnauthenticatedPerMinute = 10

/** PDF bytes are streamed in parts of this size. */
export const RenderChunkBytes = 16 * 1024

const Warnings = Schema.Array(Schema.String.pipe(Schema.maxLength(400))).pipe(Schema.maxItems(1000)).annotations({
  description: "Non-fatal payload issues found by the instance, named without their values"
})

/** One render order per document type, each with that type's payload contract as `values`. */
export const RenderOrder = Schema.Union(
  ...DocumentSlugs.map((slug) =>
    Schema.Struct({
      slug: Schema.Literal(slug),
      draft: Schema.Boolean,
      warnings: Warnings,
      values: contracts[slug].schema
    })
  )
)
export type RenderOrder = typeof RenderOrder.Type

/** The first part of a render's answer: what the PDF will be. */
export const RenderedHead = Schema.TaggedStruct("RenderedHead", {
  bytes: Schema.Int.pipe(Schema.between(0, MaxRenderedPdfBytes)),
  warnings: Warnings
})

/** The following parts: the PDF's bytes, in order, `RenderChunkBytes` at most each. */
export const RenderedBytes = Schema.TaggedStruct("RenderedBytes", {
  data: Schema.Uint8ArrayFromSelf.pipe(Schema.filter((data) => data.length <= RenderChunkBytes))
})

export const RenderedPart = Schema.Union(RenderedHead, RenderedBytes)
export type RenderedPart = typeof RenderedPart.Type

/**
 * Why a backend did not render: the caller's credential was missing or wrong, the request or the
 * PDF exceeded its cap, the backend's own renderer failed, or it was `busy` (its running and queued
 * renders at their bound; nothing was rendered, retry shortly). The HTTP gate answers the first two
 * before reading the body; the instance maps every reason to 502 `render-backend-unavailable`.
 */
export class RenderBackendRefused extends Schema.TaggedError<RenderBackendRefused>()("RenderBackendRefused", {
  reason: Schema.Literal("unauthenticated", "request-too-large", "document-too-large", "render-failed", "busy")
}) {}

export class RenderRpcs extends RpcGroup.make(
  Rpc.make("Render", {
    payload: RenderOrder,
    success: RenderedPart,
    error: RenderBackendRefused,
    stream: true
  })
) {}
