import { Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import { Renderer } from "../../src/services/Renderer.ts"

/** `size` random bytes behind a PDF header: nothing between the renderer and the socket can shrink them. */
export const randomPdf = (size: number): Uint8Array => {
  const bytes = new Uint8Array(randomBytes(size))
  bytes.set(new TextEncoder().encode("%PDF-1.7\n"))
  return bytes
}

/** A renderer double taking `renderMs` for every document and answering `document`, for abort sweeps. */
export const slowRenderer = (renderMs: number, document: Uint8Array) =>
  Layer.succeed(Renderer, {
    render: () => Effect.as(Effect.sleep(`${renderMs} millis`), { bytes: document, warnings: 0, warningMessages: [] })
  })
