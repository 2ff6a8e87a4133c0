import {
  Cookies,
  Headers,
  HttpIncomingMessage,
  type HttpMethod,
  HttpServerError,
  HttpServerRequest,
  UrlParams
} from "@effect/platform"
import { NodeMultipart, NodeStream } from "@effect/platform-node"
import { Effect, Exit, Inspectable, Layer, Option, Stream } from "effect"
import type { IncomingMessage } from "node:http"
import { BodyTooLarge, type MalformedBody } from "../../domain/JsonBody.ts"
import { BodyReader, portableBodyReader, unreadable } from "../Body.ts"

const decoder = new TextDecoder()

type BodyExit = Exit.Exit<Uint8Array, BodyTooLarge | MalformedBody>

/** A body read, or the readers waiting for it. */
type BodyState = BodyExit | Array<(exit: BodyExit) => void>

/**
 * `HttpServerRequest` over a Node `IncomingMessage`, kept lean for the hot path: headers are
 * converted once, and the body is read at most once, bounded by `HttpIncomingMessage.MaxBodySize`.
 */
export class NodeRequest extends Inspectable.Class implements HttpServerRequest.HttpServerRequest {
  readonly [HttpServerRequest.TypeId]: HttpServerRequest.TypeId = HttpServerRequest.TypeId
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId
  readonly method: HttpMethod.HttpMethod
  readonly originalUrl: string
  private cachedHeaders: Headers.Headers | undefined
  private body: BodyState | undefined

  constructor(
    readonly source: IncomingMessage,
    readonly url: string = source.url ?? "/",
    private readonly headersOverride?: Headers.Headers,
    private readonly remoteAddressOverride?: string
  ) {
    super()
    this.method = (source.method ?? "GET").toUpperCase() as HttpMethod.HttpMethod
    this.originalUrl = source.url ?? "/"
  }

  get headers(): Headers.Headers {
    return this.headersOverride ?? (this.cachedHeaders ??= Headers.fromInput(this.source.headers as any))
  }

  get remoteAddress(): Option.Option<string> {
    return Option.fromNullable(this.remoteAddressOverride ?? this.source.socket?.remoteAddress)
  }

  get cookies() {
    return Cookies.parseHeader(this.headers.cookie ?? "")
  }

  private fail =
    (reason: "Transport" | "Decode", description: string) => (cause: unknown): HttpServerError.RequestError =>
      new HttpServerError.RequestError({ request: this, reason, description, cause })

  /** A copy of the body in its own buffer (a Node Buffer's `slice` is a view into a shared pool). */
  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpServerError.RequestError> {
    return Effect.map(this.bytes, (bytes) => new Uint8Array(bytes).buffer)
  }

  /**
   * The body, read once and bounded by the `MaxBodySize` in effect (see `read`). Not
   * `Effect.cached`, whose `runSync` to build the cache costs a fiber on every request with a body.
   */
  get bytes(): Effect.Effect<Uint8Array, HttpServerError.RequestError> {
    return Effect.flatMap(HttpIncomingMessage.MaxBodySize, (maxBytes) =>
      Effect.mapError(
        this.bytesWithin(Option.isSome(maxBytes) ? Number(maxBytes.value) : Infinity),
        this.fail("Transport", "the body could not be read")
      ))
  }

  /**
   * The body within `limit` bytes, for callers that pass the limit themselves (`src/http/Body.ts`):
   * without the platform's `MaxBodySize` reference, whose `withMaxBodySize` copies the request's
   * whole context on every read.
   */
  bytesWithin(limit: number): Effect.Effect<Uint8Array, BodyTooLarge | MalformedBody> {
    return Effect.async((resume) => {
      // read first by a reader with a larger bound: this reader's own bound still holds
      const settle = (exit: BodyExit) =>
        resume(
          Exit.isSuccess(exit) && exit.value.byteLength > limit
            ? Exit.fail(new BodyTooLarge({ limitBytes: limit }))
            : exit
        )
      const state = this.read(limit)
      if (!Array.isArray(state)) return settle(state)
      state.push(settle)
      return Effect.sync(() => {
        // gone already when the read settled: -1 would make `splice` drop another reader
        const at = state.indexOf(settle)
        if (at >= 0) state.splice(at, 1)
      })
    })
  }

  /**
   * Reads the message once, straight from its events, for every reader (the first one's `limit`
   * applies): a reader interrupted (the client left) leaves the others waiting for the message's own
   * end or close. Past `limit` the rest is discarded rather than the socket destroyed, so the answer
   * (a 413) still reaches the client. Plain callbacks, not a `Deferred`, whose making copies the
   * Effect prototype into every instance.
   */
  private read(limit: number): BodyState {
    if (this.body !== undefined) return this.body
    const waiting: Array<(exit: BodyExit) => void> = []
    this.body = waiting
    const source = this.source
    const chunks: Array<Buffer> = []
    let size = 0
    const settle = (exit: BodyExit) => {
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onAbort)
      source.off("close", onAbort)
      this.body = exit
      for (const resume of waiting.splice(0)) resume(exit)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength
      if (size <= limit) return void chunks.push(chunk)
      settle(Exit.fail(new BodyTooLarge({ limitBytes: limit })))
      source.resume()
    }
    const onEnd = () => settle(Exit.succeed(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)))
    const onAbort = () => settle(Exit.fail(unreadable))
    if (source.readableEnded) {
      settle(Exit.fail(unreadable))
    } else {
      source.on("data", onData)
      source.once("end", onEnd)
      source.once("error", onAbort)
      source.once("close", onAbort)
    }
    return this.body
  }

  get text(): Effect.Effect<string, HttpServerError.RequestError> {
    return Effect.map(this.bytes, (bytes) => decoder.decode(bytes))
  }

  get json(): Effect.Effect<unknown, HttpServerError.RequestError> {
    return Effect.flatMap(
      this.text,
      (text) =>
        Effect.try({ try: () => JSON.parse(text) as unknown, catch: this.fail("Decode", "the body is not JSON") })
    )
  }

  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpServerError.RequestError> {
    return Effect.flatMap(this.text, (text) =>
      Effect.try({
        try: () => UrlParams.fromInput(new URLSearchParams(text)),
        catch: this.fail("Decode", "the body is not form data")
      }))
  }

  /**
   * The body as it arrives. A reader that stops early (a size limit) must not destroy the socket,
   * or its answer never reaches the client: the rest of the body is discarded instead.
   */
  get stream(): Stream.Stream<Uint8Array, HttpServerError.RequestError> {
    return NodeStream.fromReadable(() => this.source, this.fail("Transport", "the body could not be read"), {
      closeOnDone: false
    }).pipe(Stream.ensuring(Effect.sync(() => {
      if (!this.source.readableEnded) this.source.resume()
    })))
  }

  get multipart() {
    return NodeMultipart.persisted(this.source, this.source.headers)
  }

  get multipartStream() {
    return NodeMultipart.stream(this.source, this.source.headers)
  }

  get upgrade(): Effect.Effect<never, HttpServerError.RequestError> {
    return Effect.fail(this.fail("Decode", "protocol upgrades are not served")(undefined))
  }

  modify(options: {
    readonly url?: string
    readonly headers?: Headers.Headers
    readonly remoteAddress?: string
  }): HttpServerRequest.HttpServerRequest {
    return new NodeRequest(
      this.source,
      options.url ?? this.url,
      options.headers ?? this.headersOverride,
      options.remoteAddress ?? this.remoteAddressOverride
    )
  }

  toJSON(): unknown {
    return { _id: "HttpServerRequest", method: this.method, url: this.originalUrl }
  }
}

/**
 * The Node server's body reader: its own requests are read straight from the message; any other
 * request (none reaches it today) as on every runtime.
 */
export const NodeBodyReader = Layer.succeed(BodyReader, {
  read: (request, limit) =>
    request instanceof NodeRequest ? request.bytesWithin(limit) : portableBodyReader.read(request, limit)
})
