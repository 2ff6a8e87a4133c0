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
import { Deferred, Effect, FiberId, Inspectable, Option, Stream } from "effect"
import type { IncomingMessage } from "node:http"

const decoder = new TextDecoder()

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
  private body: Deferred.Deferred<Uint8Array, HttpServerError.RequestError> | undefined

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
   * The body, read once and bounded by the `MaxBodySize` in effect: the first reader reads it into a
   * deferred every later reader awaits (interrupted, it interrupts them too). Not `Effect.cached`,
   * whose `runSync` to build the cache costs a fiber on every request with a body.
   */
  get bytes(): Effect.Effect<Uint8Array, HttpServerError.RequestError> {
    return Effect.suspend(() => {
      if (this.body !== undefined) return Deferred.await(this.body)
      const body = Deferred.unsafeMake<Uint8Array, HttpServerError.RequestError>(FiberId.none)
      this.body = body
      const read = Effect.flatMap(
        HttpIncomingMessage.MaxBodySize,
        (maxBytes) =>
          NodeStream.toUint8Array(() => this.source, {
            onFailure: this.fail("Transport", "the body could not be read"),
            maxBytes: Option.getOrUndefined(maxBytes)
          })
      )
      return Effect.zipRight(Effect.intoDeferred(read, body), Deferred.await(body))
    })
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
