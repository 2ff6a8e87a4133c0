import { HttpIncomingMessage, type HttpServerRequest } from "@effect/platform"
import { Chunk, Context, Effect, Either, Option, Stream } from "effect"
import { BodyTooLarge, MalformedBody, MaxJsonDepth, parseJson } from "../domain/JsonBody.ts"

const utf8 = new TextDecoder("utf-8", { fatal: true })

export const unreadable = new MalformedBody({ reason: "could not be read" })

/** Reads a request body of at most `limit` bytes; a declared `Content-Length` is checked before. */
export interface BodyReaderShape {
  readonly read: (
    request: HttpServerRequest.HttpServerRequest,
    limit: number
  ) => Effect.Effect<Uint8Array, BodyTooLarge | MalformedBody>
}

/**
 * Through the platform's request interface, so on every runtime. A body with a `Content-Length`
 * within the limit is read in one piece (the HTTP parser delivers no more than it declares); a body
 * without one (chunked) is counted chunk by chunk and cut off as soon as it passes the limit. The
 * unread rest stays on the connection (the Node request discards it rather than resetting the
 * socket), so the answer still reaches the client.
 */
export const portableBodyReader: BodyReaderShape = {
  read: (request, limit) => {
    if (Number.isFinite(Number(request.headers["content-length"]))) {
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
}

/**
 * The body reader of the runtime serving the request: the portable one unless the runtime's server
 * layer provides its own (Node's reads its requests without the platform's per-read overhead).
 */
export class BodyReader extends Context.Reference<BodyReader>()("app/http/BodyReader", {
  defaultValue: (): BodyReaderShape => portableBodyReader
}) {}

/**
 * The request body, never more than `limit` bytes read, on every runtime: a larger `Content-Length`
 * is refused before reading, a larger body without one as soon as it passes the limit. Surfaces
 * close the connection after a 413 (the unread rest may still be on it).
 */
export const readBytes = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
): Effect.Effect<Uint8Array, BodyTooLarge | MalformedBody> => {
  const declared = Number(request.headers["content-length"])
  if (Number.isFinite(declared) && declared > limit) return Effect.fail(new BodyTooLarge({ limitBytes: limit }))
  return Effect.flatMap(BodyReader, (reader) => reader.read(request, limit))
}

/** The body as UTF-8 text, bounded as `readBytes`. */
export const readText = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
): Effect.Effect<string, BodyTooLarge | MalformedBody> => Effect.flatMap(readBytes(request, limit), decodeUtf8)

const notUtf8 = new MalformedBody({ reason: "is not valid UTF-8" })

// an Either is an Effect: no fiber step of its own
const decodeUtf8 = (bytes: Uint8Array): Either.Either<string, MalformedBody> => {
  try {
    return Either.right(utf8.decode(bytes))
  } catch {
    return Either.left(notUtf8)
  }
}

/** The body as JSON: bounded in bytes as `readBytes` and in nesting as `parseJson`. */
export const readJson = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number,
  maxDepth: number = MaxJsonDepth
): Effect.Effect<unknown, BodyTooLarge | MalformedBody> =>
  Effect.flatMap(readText(request, limit), (text) => parseJson(text, maxDepth))
