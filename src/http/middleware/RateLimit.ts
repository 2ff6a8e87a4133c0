import type { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Context, Effect, Option } from "effect"
import { hasUsableCredential, type Principal } from "../../domain/Principal.ts"
import { RateLimited } from "../../domain/Problem.ts"
import type { TrustProxy } from "../../services/AppConfig.ts"
import { logLetThrough } from "../../services/ratelimit/Breaker.ts"
import type { RateLimitDecision, RateLimiterShape } from "../../services/RateLimiter.ts"
import type { RequestInfo } from "./RequestInfo.ts"

/**
 * The anonymous budget of the request in flight, for handlers whose one request does the work of
 * many (a screening batch counts as its number of names): `charge(n)` counts `n` more requests
 * against the caller's budget, or fails with `RateLimited` (counting nothing) when they do not fit.
 * Free for callers the limit does not count (credentials, unlimited deployments, unknown address).
 */
export interface AnonymousQuotaShape {
  readonly charge: (requests: number) => Effect.Effect<void, RateLimited>
}

export class AnonymousQuota extends Context.Tag("app/http/AnonymousQuota")<AnonymousQuota, AnonymousQuotaShape>() {}

const unlimited: AnonymousQuotaShape = { charge: () => Effect.void }

/** The request's quota (see `AnonymousQuota`); its absence is a wiring defect, read as no extra charge. */
export const requestQuota = Effect.map(
  Effect.serviceOption(AnonymousQuota),
  Option.getOrElse(() => unlimited)
)

/** The peer address when the runtime adapter knows it but the request object does not (web handlers). */
export class ClientAddress extends Context.Tag("app/http/ClientAddress")<ClientAddress, string>() {}

/**
 * The client's address by the `TRUST_PROXY` rule (see `TrustProxy`), undefined when the headers do
 * not give one. Counted from the right: each trusted proxy appends the address it received from, so
 * entries left of the `n`th from the right are whatever the client sent and are never taken. With
 * fewer entries than proxies the request skipped the outer ones: the leftmost entry is the address
 * the first proxy it met saw, so it is still not the client's choice.
 */
const forwardedAddress = (
  headers: Readonly<Record<string, string | undefined>>,
  trustProxy: TrustProxy
): string | undefined => {
  if (trustProxy === "cloudflare") return headers["cf-connecting-ip"]?.trim() || undefined
  if (trustProxy === 0) return undefined
  const entries = (headers["x-forwarded-for"] ?? "").split(",").map((entry) => entry.trim())
  const address = entries[Math.max(0, entries.length - trustProxy)]
  return address === undefined || address.length === 0 ? undefined : address
}

/**
 * The client's address as the limits count it: the forwarded address `TRUST_PROXY` designates,
 * else the peer; undefined when neither is known.
 */
export const clientAddressOf = (request: HttpServerRequest.HttpServerRequest, trustProxy: TrustProxy) =>
  Effect.map(
    Effect.serviceOption(ClientAddress),
    (peer) =>
      forwardedAddress(request.headers, trustProxy) ??
        Option.getOrUndefined(peer) ??
        Option.getOrUndefined(request.remoteAddress)
  )

const clientKey = (info: RequestInfo, trustProxy: TrustProxy) => clientAddressOf(info.request, trustProxy)

const limitedPath = (path: string) =>
  path.startsWith("/api/") || path === "/skills" || path.startsWith("/skills/") || path === "/openapi.json"

const headersOf = (decision: RateLimitDecision, windowSeconds: number): Record<string, string> => ({
  "ratelimit-limit": String(decision.limit),
  "ratelimit-remaining": String(decision.remaining),
  "ratelimit-reset": String(decision.resetSeconds),
  "ratelimit-policy": `${decision.limit};w=${windowSeconds}`
})

export interface LimitOptions {
  readonly trustProxy: TrustProxy
  /** The request's principal: callers with a usable credential are not anonymous. */
  readonly principal: Principal
  /**
   * The request sent a bearer that was checked and refused (unknown, expired, revoked, inactive):
   * counted on every path, so keys and tokens cannot be guessed at `/mcp` or `/pdf/*` without limit.
   */
  readonly refusedBearer: boolean
  /** The response for an exhausted budget; `headers` are the rate-limit headers to send. */
  readonly onLimited: (problem: RateLimited, headers: Record<string, string>) => HttpServerResponse.HttpServerResponse
}

/** The quota `withRateLimit` counts from: what a handler charges beyond the request itself. */
export const quotaFor = (
  info: RequestInfo,
  limiter: RateLimiterShape,
  options: Pick<LimitOptions, "trustProxy" | "principal">
): AnonymousQuotaShape => {
  if (limiter.limit === 0 || !limitedPath(info.routedPath) || hasUsableCredential(options.principal)) return unlimited
  return {
    charge: (requests) =>
      requests <= 0 ? Effect.void : Effect.flatMap(clientKey(info, options.trustProxy), (key) => {
        if (key === undefined) return Effect.void
        return limiter.consume(key, requests).pipe(
          Effect.catchAll((error) => Effect.as(logLetThrough("rate limiter unavailable", error.reason), undefined)),
          Effect.flatMap((decision) => {
            if (decision === undefined) return Effect.void
            const headers = headersOf(decision, limiter.windowSeconds)
            Object.assign(info.responseHeaders, headers)
            if (decision.allowed) return Effect.void
            info.responseHeaders["retry-after"] = String(decision.resetSeconds)
            return Effect.fail(
              new RateLimited({
                detail: `This request counts as ${requests + 1} requests, more than the anonymous limit of ` +
                  `${decision.limit} per ${limiter.windowSeconds} s leaves; send fewer names, retry later, or use an ` +
                  "API key.",
                retryAfter: decision.resetSeconds
              })
            )
          })
        )
      })
  }
}

/**
 * The anonymous per-IP budget on `/api/*`, `/skills*` and `/openapi.json`, and on every path for a
 * request whose bearer was refused. A limiter failure or an unknown client address lets the request
 * through: the limit fails open. Callers with a usable credential are not anonymous and are not
 * counted (SPEC Authentication rule 4).
 */
export const withRateLimit = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
  info: RequestInfo,
  limiter: RateLimiterShape,
  options: LimitOptions
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R> => {
  if (limiter.limit === 0 || hasUsableCredential(options.principal)) return app
  if (!limitedPath(info.routedPath) && !options.refusedBearer) return app
  return limitAnonymous(app, info, limiter, options)
}

const limitAnonymous = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
  info: RequestInfo,
  limiter: RateLimiterShape,
  options: LimitOptions
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R> =>
  Effect.flatMap(clientKey(info, options.trustProxy), (key) => {
    if (key === undefined) return app
    return limiter.consume(key).pipe(
      Effect.catchAll((error) => Effect.as(logLetThrough("rate limiter unavailable", error.reason), undefined)),
      Effect.flatMap((decision) => {
        if (decision === undefined) return app
        const headers = headersOf(decision, limiter.windowSeconds)
        if (!decision.allowed) {
          return Effect.succeed(options.onLimited(
            new RateLimited({
              detail: `Anonymous limit of ${decision.limit} requests per ${limiter.windowSeconds} s reached.`,
              retryAfter: decision.resetSeconds
            }),
            { ...headers, "retry-after": String(decision.resetSeconds) }
          ))
        }
        Object.assign(info.responseHeaders, headers)
        return app
      })
    )
  })
