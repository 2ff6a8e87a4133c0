import type { HttpServerError } from "@effect/platform"
import { HttpLayerRouter, HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { ServiceVersion } from "../domain/Service.ts"
import { AccessLog } from "../services/AccessLog.ts"
import { AppConfig } from "../services/AppConfig.ts"
import { Auth } from "../services/Auth.ts"
import { DataGeneration } from "../services/DataGeneration.ts"
import { RateLimiter } from "../services/RateLimiter.ts"
import { conditional, withHeaders } from "./middleware/Caching.ts"
import { finishError, withProblems } from "./middleware/Problems.ts"
import { withRateLimit } from "./middleware/RateLimit.ts"
import { pathOf, requestIdFrom, type RequestInfo } from "./middleware/RequestInfo.ts"
import * as ResponseCache from "./middleware/ResponseCache.ts"
import { RouteCatalog } from "./RouteCatalog.ts"

/**
 * The cross-cutting behaviour of every response, errors included, as one global middleware whose
 * stages run in a fixed order: request id → rate limit → response cache → route (in a request
 * scope; handlers log with the request id) → problem documents → headers and validators →
 * conditional GET → access log. Written with plain combinators: this runs on every request, and a
 * cache hit touches only the first and last stages.
 */
export const AppMiddleware = HttpLayerRouter.middleware<{ handles: HttpServerError.RouteNotFound }>()(
  Effect.gen(function*() {
    const config = yield* AppConfig
    const catalog = yield* RouteCatalog
    const limiter = yield* RateLimiter
    const accessLog = yield* AccessLog
    const cache = ResponseCache.make(yield* DataGeneration)
    const baseUrl = config.publicBaseUrl
    const auth = yield* Auth
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
        const key = cache.keyOf(info)
        const builtAt = cache.generation()
        const handled = withProblems(Effect.scoped(Effect.annotateLogs(app, "requestId", id)), info, baseUrl).pipe(
          Effect.map((response) => {
            const validated = withHeaders(response, info)
            if (key !== undefined) cache.store(key, validated, builtAt)
            return validated
          })
        )
        const cachedOrHandled = key === undefined ? handled : Effect.suspend(() => {
          const hit = cache.lookup(key, info)
          return hit === undefined ? handled : Effect.succeed(hit)
        })
        const limited = withRateLimit(cachedOrHandled, info, limiter, {
          trustProxy: config.trustProxy,
          auth,
          onLimited: (problem, headers) => {
            Object.assign(info.responseHeaders, headers)
            return withHeaders(finishError(problem, info, baseUrl), info)
          }
        })
        return Effect.map(limited, (validated) => {
          const response = conditional(validated, info)
          accessLog.record({
            requestId: id,
            method: info.method,
            route: route?.path ?? "(unmatched)",
            status: response.status,
            durationMs: Math.round((performance.now() - startedAt) * 1000) / 1000
          })
          return response
        })
      })
  }),
  { global: true }
)
