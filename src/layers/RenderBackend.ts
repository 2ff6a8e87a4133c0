import { type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { RpcSerialization, RpcServer } from "@effect/rpc"
import { Effect, Layer, Option, Redacted, Schema, type Scope, Stream } from "effect"
import { createHash, timingSafeEqual } from "node:crypto"
import { createServer } from "node:http"
import {
  MaxRenderedPdfBytes,
  MaxRenderRequestBytes,
  RenderBackendPath,
  RenderBackendRefused,
  RenderChunkBytes,
  type RenderedPart,
  RenderRpcs
} from "../domain/RenderBackend.ts"
import { isLoopback } from "../services/AppConfig.ts"
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

const refuse = (status: number) =>
  HttpServerResponse.empty({
    status,
    // the body is never read: closing the connection spares draining it
    headers: status === 401 ? { "www-authenticate": "Bearer", connection: "close" } : { connection: "close" }
  })

/**
 * Answered before the body is read: an unknown route, a missing or wrong credential, a body without
 * a declared length or over the cap cost the backend nothing. Node enforces the declared length.
 */
const gate = (
  rpc: HttpApp.Default<never, Scope.Scope>,
  options: { readonly secret: Option.Option<Redacted.Redacted>; readonly maxRequestBytes: number }
): HttpApp.Default<never, Scope.Scope> => {
  const authorized = Option.match(options.secret, {
    onNone: () => () => true,
    onSome: bearerCheck
  })
  return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    if (request.method !== "POST" || request.url.split("?")[0] !== RenderBackendPath) {
      return Effect.succeed(HttpServerResponse.empty({ status: 404 }))
    }
    if (!authorized(request.headers.authorization)) return Effect.succeed(refuse(401))
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

const handlers = (maxPdfBytes: number) =>
  RenderRpcs.toLayer(Effect.map(Renderer, (renderer) =>
    RenderRpcs.of({
      Render: ({ draft, slug, values, warnings }) =>
        renderer.render({ slug, draft, payload: { values, warnings } }).pipe(
          Effect.mapError(() => new RenderBackendRefused({ reason: "render-failed" })),
          Effect.filterOrFail(
            (rendered) => rendered.bytes.length <= maxPdfBytes,
            () => new RenderBackendRefused({ reason: "document-too-large" })
          ),
          Effect.map((rendered) => Stream.fromIterable(parts(rendered.bytes, rendered.warningMessages))),
          Stream.unwrap
        )
    })))

/** Listens until the scope closes; closing cuts renders in flight (their callers are not charged). */
export const serve = (options: RenderBackendOptions) =>
  Effect.gen(function*() {
    if (Option.isNone(options.secret) && !isLoopback(options.host)) {
      return yield* new RenderBackendUnprotected({
        message: `set RENDER_BACKEND_SECRET to listen on ${options.host}; without one only a loopback address ` +
          "(127.0.0.1, ::1, localhost) is allowed"
      })
    }
    const rpc = yield* RpcServer.toHttpApp(RenderRpcs, { disableTracing: true }).pipe(
      Effect.provide(Layer.merge(handlers(options.maxPdfBytes ?? MaxRenderedPdfBytes), RpcSerialization.layerMsgPack))
    )
    const node = createServer()
    const server = yield* NodeHttpServer.make(() => node, { port: options.port, host: options.host })
    yield* Effect.addFinalizer(() => Effect.sync(() => node.closeAllConnections()))
    yield* server.serve(
      gate(rpc, { secret: options.secret, maxRequestBytes: options.maxRequestBytes ?? MaxRenderRequestBytes })
    )
    const address = server.address
    const port = address._tag === "TcpAddress" ? address.port : options.port
    return { url: `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}` }
  })
