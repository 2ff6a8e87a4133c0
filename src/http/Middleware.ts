import type { HttpServerError } from "@effect/platform"
import { HttpLayerRouter, HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { anonymous, CurrentPrincipal, type Principal, UnverifiedCredential } from "../domain/Principal.ts"
import type { StoreUnavailable } from "../domain/Problem.ts"
import { ServiceVersion } from "../domain/Service.ts"
import { AccessLog } from "../services/AccessLog.ts"
import { AccessPolicy } from "../services/AccessPolicy.ts"
import { AppConfig } from "../services/AppConfig.ts"
import { Auth, type AuthShape } from "../services/Auth.ts"
import { DataGeneration } from "../services/DataGeneration.ts"
import { RateLimiter } from "../services/RateLimiter.ts"
import { conditional, withHeaders } from "./middleware/Caching.ts"
import { finishError, withProblems } from "./middleware/Problems.ts"
import { AnonymousQuota, quotaFor, withRateLimit } from "./middleware/RateLimit.ts"
import { pathOf, requestIdFrom, type RequestInfo, routedPath } from "./middleware/RequestInfo.ts"
import * as ResponseCache from "./middleware/ResponseCache.ts"
import { RouteCatalog } from "./RouteCatalog.ts"

/** `Authorization: Bearer …` (Basic is a client's own credential on `/oauth/token`, counted there). */
const bearerScheme = /^bearer\s/i

/**
 * The caller of a request: what the deployment's Auth makes of its `Authorization` header (or its absence),
 * with the store outage that kept a credential from being checked. A resolver that dies leaves the caller
 * anonymous; nothing about the credential is logged.
 */
const resolvePrincipal = (
  auth: AuthShape,
  authorization: string | undefined
): Effect.Effect<{ readonly principal: Principal; readonly unverified?: StoreUnavailable }> =>
  auth.authenticate(authorization).pipe(
    Effect.map((principal) => ({ principal })),
    Effect.catchTag("StoreUnavailable", (unverified) => Effect.succeed({ principal: anonymous, unverified })),
    Effect.catchAllCause(() => Effect.as(Effect.logWarning("credential check failed"), { principal: anonymous }))
  )

/**
 * The cross-cutting behaviour of every response, errors included, as one global middleware whose
 * stages run in a fixed order: request id → principal (resolved once, provided to everything
 * after as `CurrentPrincipal`) → access policy → rate limit → response cache → route (in a request
 * scope; handlers log with the request id) → problem documents → headers and validators →
 * conditional GET → access log. Written with plain combinators: this runs on every request, and a
 * cache hit touches only the first and last stages. The access policy runs before the cache, so a
 * denied request never sees a cached body; the cache itself never keys a request that carries
 * credentials.
 */
export const AppMiddleware = HttpLayerRouter.middleware<{
  handles: HttpServerError.RouteNotFound
  provides: CurrentPrincipal
}>()(
  Effect.gen(function*() {
    const config = yield* AppConfig
    const catalog = yield* RouteCatalog
    const limiter = yield* RateLimiter
    const accessLog = yield* AccessLog
    const policy = yield* AccessPolicy
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
          routedPath: routedPath(request.url),
          route,
          allow,
          request,
          responseHeaders: { "api-version": ServiceVersion, "x-request-id": id, "x-content-type-options": "nosniff" }
        }
        const authorization = request.headers["authorization"]
        const admit = ({ principal, unverified }: { principal: Principal; unverified?: StoreUnavailable }) => {
          const denied = policy.check(info.routedPath, principal, authorization !== undefined)
          if (denied !== undefined) {
            return Effect.succeed(withHeaders(finishError(denied.error, info, baseUrl, denied.headers), info))
          }
          const key = cache.keyOf(info)
          const builtAt = cache.generation()
          const quota = quotaFor(info, limiter, { trustProxy: config.trustProxy, principal })
          const withPrincipal = app.pipe(
            Effect.provideService(CurrentPrincipal, principal),
            Effect.provideService(AnonymousQuota, quota)
          )
          const routed = unverified === undefined
            ? withPrincipal
            : Effect.provideService(withPrincipal, UnverifiedCredential, unverified)
          const handled = withProblems(Effect.scoped(Effect.annotateLogs(routed, "requestId", id)), info, baseUrl).pipe(
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
          return withRateLimit(cachedOrHandled, info, limiter, {
            trustProxy: config.trustProxy,
            principal,
            // a bearer that could not be checked (store outage) was not refused
            refusedBearer: unverified === undefined && bearerScheme.test(authorization ?? ""),
            onLimited: (problem, headers) => {
              Object.assign(info.responseHeaders, headers)
              return withHeaders(finishError(problem, info, baseUrl), info)
            }
          })
        }
        // every request asks the deployment's Auth, with or without a header: a deployment (or a
        // test double) may give callers without credentials a principal of its own
        const admitted = Effect.flatMap(resolvePrincipal(auth, authorization), admit)
        return Effect.map(admitted, (validated) => {
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
