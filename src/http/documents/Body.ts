import type { HttpServerRequest } from "@effect/platform"
import { Chunk, Effect, Stream } from "effect"
import { PayloadTooLarge } from "../../domain/Documents.ts"
import { InvalidRequest } from "../../domain/Problem.ts"

const utf8 = new TextDecoder("utf-8", { fatal: true })

const tooLarge = (limit: number) =>
  new PayloadTooLarge({ detail: `The payload exceeds ${limit} bytes.`, limitBytes: limit })

const unreadable = (reason: string) =>
  new InvalidRequest({ detail: `The body ${reason}.`, invalidParams: [{ name: "body", in: "body", reason }] })

/**
 * The request body as JSON, never more than `limit` bytes read: a larger `Content-Length` is
 * refused before reading, and a body without one (chunked) is cut off as soon as it passes the
 * limit, on every runtime. Parser messages are not repeated: they quote the body.
 */
export const readJsonBody = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
): Effect.Effect<unknown, PayloadTooLarge | InvalidRequest> => {
  const declared = Number(request.headers["content-length"])
  if (Number.isFinite(declared) && declared > limit) return Effect.fail(tooLarge(limit))
  return request.stream.pipe(
    Stream.mapError(() => unreadable("could not be read")),
    Stream.runFoldEffect(
      { size: 0, chunks: Chunk.empty<Uint8Array>() },
      (read, chunk): Effect.Effect<{ size: number; chunks: Chunk.Chunk<Uint8Array> }, PayloadTooLarge> => {
        const size = read.size + chunk.byteLength
        return size > limit
          ? Effect.fail(tooLarge(limit))
          : Effect.succeed({ size, chunks: Chunk.append(read.chunks, chunk) })
      }
    ),
    Effect.flatMap(({ chunks, size }) =>
      Effect.try({
        try: () => {
          const bytes = new Uint8Array(size)
          let offset = 0
          for (const chunk of chunks) {
            bytes.set(chunk, offset)
            offset += chunk.byteLength
          }
          return JSON.parse(utf8.decode(bytes)) as unknown
        },
        catch: () => unreadable("is not valid UTF-8 JSON")
      })
    )
  )
}
