import { HttpLayerRouter, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import type { ServeError } from "@effect/platform/HttpServerError"
import { Effect, Layer } from "effect"
import { createServer, type Server } from "node:http"
import * as NodeHandler from "../http/node/NodeHandler.ts"
import { NodeBodyReader } from "../http/node/NodeRequest.ts"
import { AppConfig } from "../services/AppConfig.ts"

/**
 * How long a shutdown waits for requests still in flight (a PDF streaming to a slow reader, a
 * client that stopped reading) before their connections are cut. Without it `server.close`
 * waits for every such connection, up to the keep-alive timeout or forever.
 */
const shutdownGraceMillis = 10_000

/**
 * NodeHttpServer's server, whose close first drops idle keep-alive connections and cuts the
 * busy ones after the grace period. The finalizer is added after the server's own, so it runs
 * first and arms the timer before `server.close` starts waiting.
 */
const gracefulServer = (evaluate: () => Server, options: { readonly port: number; readonly host: string }) =>
  Layer.mergeAll(
    Layer.scoped(
      HttpServer.HttpServer,
      Effect.gen(function*() {
        const server = evaluate()
        const httpServer = yield* NodeHttpServer.make(() => server, options)
        yield* Effect.addFinalizer(() =>
          Effect.sync(() => {
            server.closeIdleConnections()
            const timer = setTimeout(() => server.closeAllConnections(), shutdownGraceMillis)
            timer.unref()
            server.once("close", () => clearTimeout(timer))
          })
        )
        return httpServer
      })
    ),
    NodeHttpServer.layerContext
  )

/**
 * A request, headers and body, must arrive within `requestMillis` (`REQUEST_TIMEOUT_SECONDS`), else
 * Node answers 408 and closes the connection: with its five-minute default, bodies trickled byte by
 * byte held connections and their buffers that long. Node checks the deadlines on a timer, every 30 s
 * by default; it runs at least four times per deadline here, so a connection goes soon after its own.
 * Headers keep Node's own 60 s deadline when the request's is longer (Node wants it no longer).
 */
const timeouts = (requestMillis: number) => ({
  keepAliveTimeout: 65_000,
  requestTimeout: requestMillis,
  headersTimeout: Math.min(60_000, requestMillis),
  connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.floor(requestMillis / 4)))
})

/**
 * Serves an HttpLayerRouter app on Node: `@effect/platform-node` owns the server's lifecycle
 * (listen, address log, graceful close), the lean NodeHandler dispatches each request.
 */
export const serve = <E, R>(
  appLayer: Layer.Layer<never, E, R>
): Layer.Layer<never, E | ServeError, Exclude<R, HttpLayerRouter.HttpRouter> | AppConfig> =>
  Layer.unwrapScoped(Effect.gen(function*() {
    const router = yield* HttpLayerRouter.HttpRouter
    const config = yield* AppConfig
    const handler = yield* NodeHandler.make(router.asHttpEffect())
    return gracefulServer(() => createServer(timeouts(config.requestTimeoutSeconds * 1000), handler), {
      port: config.port,
      host: config.host
    }).pipe(HttpServer.withLogAddress)
  })).pipe(Layer.provideMerge(appLayer), Layer.provide(HttpLayerRouter.layer), Layer.provide(NodeBodyReader))
