import { type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { RpcSerialization, RpcServer } from "@effect/rpc"
import { Effect, Layer, Option, Redacted, Schema, type Scope, Stream } from "effect"
import { createHash, timingSafeEqual } from "node:crypto"
import { createServer } from "node:http"
import {
  MaxQueuedRenders,
  MaxRenderedPdfBytes,
  MaxRenderRequestBytes,
  MaxUnauthenticatedPerMinute,
  RenderBackendPath,
  RenderBackendRefused,
  RenderChunkBytes,
  type RenderedPart,
  RenderRpcs
} from "../domain/RenderBackend.ts"
import { isLoopback } from "../services/AppConfig.ts"
import * as RateLimiter from "../services/RateLimiter.ts"
import { Renderer } from "../services/Renderer.ts"

/**
 * A rendering backend (`ecds render-backend`): the `RenderRpcs` group over `@effect/rpc`'s HTTP
 * protocol, in front of whatever `Renderer` layer it is given (in process for the CLI). It keeps and
 * logs nothing of what it renders.
 */
export interface RenderBackendOptions {
  readonly port: number
  readonly host: string
  /** `RENDER_BACKEND_SECRET`; none is accepted only on a loopback address. */
  readonly secret: Option.Option<Redacted.Redacted>
  readonly maxRequestBytes?: number
  readonly maxPdfBytes?: number
  /** Renders admitted beyond the running ones before `busy` (default `MaxQueuedRenders`). */
  readonly maxQueued?: number
  /** Wrong or missing credentials per client address per minute before 429 (default `MaxUnauthenticatedPerMinute`). */
  readonly maxUnauthenticatedPerMinute?: number
}

/** Refused start: a backend reachable from other machines must authenticate its callers. */
export class RenderBackendUnprotected extends Schema.TaggedError<RenderBackendUnprotected>()(
  "RenderBackendUnprotected",
  { message: Schema.String }
) {}

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest()

/** Compares digests, so neither the secret's length nor its prefix shows in the timing. */
const bearerCheck = (secret: Redacted.Redacted) => {
  const expected = digest(Redacted.value(secret))
  return (authorization: string | undefined) => {
    const presented = authorization?.startsWith("Bearer ") ? authorization.slice(7) : ""
    return timingSafeEqual(digest(presented), expected)
  }
}

const refuse = (status: number, headers: Record<string, string> = {}) =>
  HttpServerResponse.empty({
    status,
    // the body is never read: closing the connection spares draining it
    headers: { ...(status === 401 ? { "www-authenticate": "Bearer" } : {}), ...headers, connection: "close" }
  })

/**
 * Answered before the body is read: an unknown route, a missing or wrong credential, a body without
 * a declared length or over the cap cost the backend nothing. Node enforces the declared length.
 */
const gate = (
  rpc: HttpApp.Default<never, Scope.Scope>,
  options: {
    readonly secret: Option.Option<Redacted.Redacted>
    readonly maxRequestBytes: number
    readonly failures: RateLimiter.RateLimiterShape
  }
): HttpApp.Default<never, Scope.Scope> => {
  const authorized = Option.match(options.secret, {
    onNone: () => () => true,
    onSome: bearerCheck
  })
  // each wrong or missing credential counts against its address; past the budget the answer is 429
  // with the wait. A caller with the right secret is never refused for another's failures behind the
  // same address (the secret is too long to guess; the limit bounds the noise, not the odds).
  const unauthorized = (request: HttpServerRequest.HttpServerRequest) =>
    options.failures.consume(Option.getOrElse(request.remoteAddress, () => "unknown")).pipe(
      Effect.map((decision) =>
        decision.allowed ? refuse(401) : refuse(429, { "retry-after": String(decision.resetSeconds) })
      ),
      // the counters live in this process's memory; a full table answers 401 as before
      Effect.orElseSucceed(() => refuse(401))
    )
  return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    if (request.method !== "POST" || request.url.split("?")[0] !== RenderBackendPath) {
      return Effect.succeed(HttpServerResponse.empty({ status: 404 }))
    }
    if (!authorized(request.headers.authorization)) return unauthorized(request)
    const length = request.headers["content-length"]
    if (length === undefined) return Effect.succeed(refuse(411))
    if (!/^\d{1,10}$/.test(length) || Number(length) > options.maxRequestBytes) return Effect.succeed(refuse(413))
    return rpc
  })
}

const parts = (bytes: Uint8Array, warnings: ReadonlyArray<string>): ReadonlyArray<RenderedPart> => {
  const result: Array<RenderedPart> = [{ _tag: "RenderedHead", bytes: bytes.length, warnings }]
  for (let offset = 0; offset < bytes.length; offset += RenderChunkBytes) {
    result.push({ _tag: "RenderedBytes", data: bytes.subarray(offset, offset + RenderChunkBytes) })
  }
  return result
}

/**
 * The renderer runs two at a time; `admitted` bounds the renders running and waiting for it, so a
 * burst beyond that is refused with `busy` at once rather than queued in memory without end.
 */
const handlers = (maxPdfBytes: number, admitted: number) =>
  RenderRpcs.toLayer(Effect.gen(function*() {
    const renderer = yield* Renderer
    const admission = yield* Effect.makeSemaphore(admitted)
    return RenderRpcs.of({
      Render: ({ draft, slug, values, warnings }) =>
        renderer.render({ slug, draft, payload: { values, warnings } }).pipe(
          Effect.mapError(() => new RenderBackendRefused({ reason: "render-failed" })),
          admission.withPermitsIfAvailable(1),
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(new RenderBackendRefused({ reason: "busy" })),
            onSome: Effect.succeed
          })),
          Effect.filterOrFail(
            (rendered) => rendered.bytes.length <= maxPdfBytes,
            () => new RenderBackendRefused({ reason: "document-too-large" })
          ),
          Effect.map((rendered) => Stream.fromIterable(parts(rendered.bytes, rendered.warningMessages))),
          Stream.unwrap
        )
    })
  }))

/** Listens until the scope closes; closing cuts renders in flight (their callers are not charged). */
export const serve = (options: RenderBackendOptions) =>
  Effect.gen(function*() {
    if (Option.isNone(options.secret) && !isLoopback(options.host)) {
      return yield* new RenderBackendUnprotected({
        message: `set RENDER_BACKEND_SECRET to listen on ${options.host}; without one only a loopback address ` +
          "(127.0.0.1, ::1, localhost) is allowed"
      })
    }
    // the renderer's own two plus the queue
    const admitted = 2 + (options.maxQueued ?? MaxQueuedRenders)
    const rpc = yield* RpcServer.toHttpApp(RenderRpcs, { disableTracing: true }).pipe(
      Effect.provide(
        Layer.merge(handlers(options.maxPdfBytes ?? MaxRenderedPdfBytes, admitted), RpcSerialization.layerMsgPack)
      )
    )
    const failures = yield* RateLimiter.makeInMemory({
      limit: options.maxUnauthenticatedPerMinute ?? MaxUnauthenticatedPerMinute,
      windowSeconds: 60,
      maxClients: 10_000
    })
    const node = createServer()
    const server = yield* NodeHttpServer.make(() => node, { port: options.port, host: options.host })
    yield* Effect.addFinalizer(() => Effect.sync(() => node.closeAllConnections()))
    yield* server.serve(
      gate(rpc, {
        secret: options.secret,
        maxRequestBytes: options.maxRequestBytes ?? MaxRenderRequestBytes,
        failures
      })
    )
    const address = server.address
    const port = address._tag === "TcpAddress" ? address.port : options.port
    return { url: `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}` }
  })
