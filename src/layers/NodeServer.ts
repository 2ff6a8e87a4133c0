import { HttpLayerRouter, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import type { ServeError } from "@effect/platform/HttpServerError"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import * as NodeHandler from "../http/node/NodeHandler.ts"
import { AppConfig } from "../services/AppConfig.ts"

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
    const handler = yield* NodeHandler.make(router.asHttpEffect() as any)
    return NodeHttpServer.layer(() => createServer({ keepAliveTimeout: 65_000 }, handler), {
      port: config.port,
      host: config.host
    }).pipe(HttpServer.withLogAddress)
  })).pipe(Layer.provideMerge(appLayer), Layer.provide(HttpLayerRouter.layer)) as any
