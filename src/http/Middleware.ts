import type { HttpServerError } from "@effect/platform"
import { HttpLayerRouter, HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { ServiceVersion } from "../domain/Service.ts"
import { AppConfig } from "../services/AppConfig.ts"
import { Auth } from "../services/Auth.ts"
import { DataGeneration } from "../services/DataGeneration.ts"
import { RateLimiter } from "../services/RateLimiter.ts"
import { finalize } from "./middleware/Caching.ts"
import { withProblems } from "./middleware/Problems.ts"
import { withRateLimit } from "./middleware/RateLimit.ts"
import { pathOf, requestIdFrom, type RequestInfo } from "./middleware/RequestInfo.ts"
import * as ResponseCache from "./middleware/ResponseCache.ts"
import { RouteCatalog } from "./RouteCatalog.ts"

/**
 * The cross-cutting behaviour of every response, errors included, as one global middleware whose
 * stages run in a fixed order: request id → rate limit → response cache → route (handlers log with
 * the request id) → problem documents → headers and conditional GET → access log. Written with
 * plain combinators: this runs on every request.
 */
export const AppMiddleware = HttpLayerRouter.middleware<{ handles: HttpServerError.RouteNotFound }>()(
  Effect.gen(function*() {
    const config = yield* AppConfig
    const catalog = yield* RouteCatalog
    const limiter = yield* RateLimiter
    const cache = ResponseCache.make(yield* DataGeneration)
    const baseUrl = config.publicBaseUrl
    const limitOptions = { trustProxy: config.trustProxy, auth: yield* Auth }
    return (app): Effect.Effect<
      HttpServerResponse.HttpServerResponse,
      HttpLayerRouter.unhandled,
      HttpServerRequest.HttpServerRequest
    > =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        const startedAt = performance.now()
        const path = pathOf(request.url)
        const { allow, route } = catalog.match(request.method, path)
        const id = requestIdFrom(request.headers)
        const info: RequestInfo = {
          id,
          method: request.method,
          path,
          route,
          allow,
          request,
          responseHeaders: { "api-version": ServiceVersion, "x-request-id": id, "x-content-type-options": "nosniff" }
        }
        const handled = Effect.annotateLogs(app, "requestId", id)
        const routed = withProblems(
          withRateLimit(cache.wrap(handled, info), info, limiter, limitOptions),
          info,
          baseUrl
        )
        return Effect.flatMap(routed, (routedResponse) => {
          const response = finalize(routedResponse, info)
          return Effect.as(
            Effect.logInfo("request", {
              requestId: id,
              method: info.method,
              route: route?.path ?? "(unmatched)",
              status: response.status,
              durationMs: Math.round((performance.now() - startedAt) * 1000) / 1000
            }),
            response
          )
        })
      })
  }),
  { global: true }
)
