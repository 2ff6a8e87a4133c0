import * as Shared from "@effect/experimental/RateLimiter"
import { Context, Effect, Layer } from "effect"
import { AppConfig, type OAuthLimitsConfig } from "./AppConfig.ts"
import { logLetThrough } from "./ratelimit/Breaker.ts"
import * as MemoryStore from "./ratelimit/MemoryStore.ts"
import { make as makeBudget, type RateLimitDecision, type RateLimiterShape } from "./RateLimiter.ts"

/** A refusal: how long until the budget that refused has room again. */
export interface OAuthLimited {
  readonly retryAfterSeconds: number
  /** What ran out, for the answer's description (never the address). */
  readonly what: string
}

export interface OAuthLimitsShape {
  /** One request to `/oauth/authorize`, `/oauth/token`, `/oauth/register` or `/oauth/revoke` by `address`. */
  readonly request: (address: string) => Effect.Effect<OAuthLimited | undefined>
  /** One dynamic client registration by `address`: its own hourly budget, then everyone's. */
  readonly registration: (address: string) => Effect.Effect<OAuthLimited | undefined>
}

/**
 * The request budgets of the OAuth authorization server, per client address and (for registration)
 * in total, over `@effect/experimental`'s rate limiter and whichever counter store is provided:
 * this process's memory, or Redis shared by every instance. Like the anonymous limit they fail
 * open: a store that cannot be reached lets the request through (and says so in the log), since
 * what they protect has limits of its own that do not depend on it (the sign-in throttle and the
 * cap on registered clients live in the SQL store).
 */
export class OAuthLimits extends Context.Tag("app/OAuthLimits")<OAuthLimits, OAuthLimitsShape>() {}

const check = (budget: RateLimiterShape, key: string, what: string) =>
  budget.consume(key).pipe(
    Effect.map((decision: RateLimitDecision) =>
      decision.allowed ? undefined : { retryAfterSeconds: decision.resetSeconds, what }
    ),
    Effect.catchAll((error) =>
      Effect.as(logLetThrough("OAuth rate limiter unavailable; request let through", error.reason), undefined)
    )
  )

export const make = (limits: OAuthLimitsConfig) =>
  Effect.gen(function*() {
    const requests = yield* makeBudget({ limit: limits.requestsPerMinute, windowSeconds: 60 })
    const perAddress = yield* makeBudget({ limit: limits.registrationsPerHourPerAddress, windowSeconds: 3600 })
    const total = yield* makeBudget({ limit: limits.registrationsPerHour, windowSeconds: 3600 })
    // keys of their own beside the anonymous limit's (which are bare addresses) in a shared store
    return OAuthLimits.of({
      request: (address) => check(requests, `oauth:${address}`, "OAuth requests from this address"),
      registration: (address) =>
        Effect.flatMap(
          check(perAddress, `oauth-register:${address}`, "client registrations from this address"),
          (limited) =>
            limited !== undefined ? Effect.succeed(limited) : check(total, "oauth-register:*", "client registrations")
        )
    })
  })

/** The configured OAuth budgets over the counter store provided (memory or Redis). */
export const layerShared: Layer.Layer<OAuthLimits, never, AppConfig | Shared.RateLimiterStore> = Layer.effect(
  OAuthLimits,
  Effect.flatMap(AppConfig, (config) => make(config.oauthLimits))
).pipe(Layer.provide(Shared.layer))

/** The configured OAuth budgets, counted in this process's memory. */
export const layer: Layer.Layer<OAuthLimits, never, AppConfig> = layerShared.pipe(Layer.provide(MemoryStore.layer()))

/** No limits (tests of other behaviour). */
export const layerUnlimited: Layer.Layer<OAuthLimits> = Layer.succeed(OAuthLimits, {
  request: () => Effect.succeed(undefined),
  registration: () => Effect.succeed(undefined)
})
