import { HttpIncomingMessage, type HttpServerRequest } from "@effect/platform"
import { Chunk, Effect, Option, Stream } from "effect"
import { BodyTooLarge, MalformedBody, MaxJsonDepth, parseJson } from "../domain/JsonBody.ts"

const utf8 = new TextDecoder("utf-8", { fatal: true })

const unreadable = new MalformedBody({ reason: "could not be read" })

/**
 * The request body, never more than `limit` bytes read: a larger `Content-Length` is refused before
 * reading, and a body without one (chunked) is cut off as soon as it passes the limit, on every
 * runtime. The unread rest stays on the connection (the Node request discards it rather than
 * resetting the socket), so the answer still reaches the client; surfaces close the connection
 * after a 413. A body with a `Content-Length` within the limit is read in one piece (the HTTP
 * parser delivers no more than it declares); only chunked bodies are counted chunk by chunk.
 */
export const readBytes = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
): Effect.Effect<Uint8Array, BodyTooLarge | MalformedBody> => {
  const declared = Number(request.headers["content-length"])
  if (Number.isFinite(declared)) {
    if (declared > limit) return Effect.fail(new BodyTooLarge({ limitBytes: limit }))
    return request.arrayBuffer.pipe(
      HttpIncomingMessage.withMaxBodySize(Option.some(limit)),
      Effect.mapBoth({ onFailure: () => unreadable, onSuccess: (buffer) => new Uint8Array(buffer) })
    )
  }
  return request.stream.pipe(
    Stream.mapError(() => unreadable),
    Stream.runFoldEffect(
      { size: 0, chunks: Chunk.empty<Uint8Array>() },
      (read, chunk): Effect.Effect<{ size: number; chunks: Chunk.Chunk<Uint8Array> }, BodyTooLarge> => {
        const size = read.size + chunk.byteLength
        return size > limit
          ? Effect.fail(new BodyTooLarge({ limitBytes: limit }))
          : Effect.succeed({ size, chunks: Chunk.append(read.chunks, chunk) })
      }
    ),
    Effect.map(({ chunks, size }) => {
      const bytes = new Uint8Array(size)
      let offset = 0
      for (const chunk of chunks) {
        bytes.set(chunk, offset)
        offset += chunk.byteLength
      }
      return bytes
    })
  )
}

/** The body as UTF-8 text, bounded as `readBytes`. */
export const readText = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
): Effect.Effect<string, BodyTooLarge | MalformedBody> =>
  Effect.flatMap(readBytes(request, limit), (bytes) =>
    Effect.try({
      try: () => utf8.decode(bytes),
      catch: () => new MalformedBody({ reason: "is not valid UTF-8" })
    }))

/** The body as JSON: bounded in bytes as `readBytes` and in nesting as `parseJson`. */
export const readJson = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number,
  maxDepth: number = MaxJsonDepth
): Effect.Effect<unknown, BodyTooLarge | MalformedBody> =>
  Effect.flatMap(readText(request, limit), (text) => parseJson(text, maxDepth))
