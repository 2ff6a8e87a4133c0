import * as Shared from "@effect/experimental/RateLimiter"
import { Context, Data, Duration, Effect, Layer } from "effect"
import { AppConfig } from "./AppConfig.ts"
import * as MemoryStore from "./ratelimit/MemoryStore.ts"

export interface RateLimitDecision {
  readonly allowed: boolean
  readonly limit: number
  readonly remaining: number
  /** Seconds until the client's window resets. */
  readonly resetSeconds: number
}

export class RateLimiterError extends Data.TaggedError("RateLimiterError")<{ readonly reason: string }> {}

export interface RateLimiterShape {
  /** Requests allowed per window; 0 means the limit is off. */
  readonly limit: number
  readonly windowSeconds: number
  /** Counts `requests` (default 1) against the key's budget; refused requests are not counted. */
  readonly consume: (key: string, requests?: number) => Effect.Effect<RateLimitDecision, RateLimiterError>
}

/** The anonymous per-client budget. Callers treat a failure as "allow" (the limit fails open). */
export class RateLimiter extends Context.Tag("app/RateLimiter")<RateLimiter, RateLimiterShape>() {}

export interface LimitOptions {
  readonly limit: number
  readonly windowSeconds: number
}

const secondsOf = (duration: Duration.Duration) => Math.max(1, Math.ceil(Duration.toMillis(duration) / 1000))

/**
 * The budget over `@effect/experimental`'s `RateLimiter` ("fixed-window": `limit` requests, and the
 * counter's expiry grows by `window / limit` per request, so a client gets at most `limit` per
 * window; above 60,000 a minute the step is 1 ms and the window grows with the limit). The counters live in whichever `RateLimiterStore` is provided: this process's memory, or
 * Redis shared by every instance (whose store bounds its own wait). A failing store is an error,
 * never a denial.
 */
export const make = (options: LimitOptions) =>
  Effect.map(Shared.RateLimiter, (shared): RateLimiterShape => {
    // the Redis store keeps counters with whole-millisecond expiries (window / limit per request):
    // the window is rounded so that step is whole, e.g. 130 a minute counts over 60.06 s
    const step = Math.max(1, Math.round((options.windowSeconds * 1000) / Math.max(1, options.limit)))
    const window = Duration.millis(step * options.limit)
    return {
      limit: options.limit,
      windowSeconds: options.windowSeconds,
      consume: (key, requests = 1) =>
        options.limit === 0
          ? Effect.succeed({ allowed: true, limit: 0, remaining: 0, resetSeconds: options.windowSeconds })
          : shared.consume({
            algorithm: "fixed-window",
            onExceeded: "fail",
            window,
            limit: options.limit,
            key,
            tokens: requests
          }).pipe(
            Effect.map((result): RateLimitDecision => ({
              allowed: true,
              limit: options.limit,
              remaining: Math.max(0, result.remaining),
              resetSeconds: secondsOf(result.resetAfter)
            })),
            Effect.catchAll((error) =>
              error.reason === "Exceeded"
                ? Effect.succeed<RateLimitDecision>({
                  allowed: false,
                  limit: options.limit,
                  remaining: 0,
                  resetSeconds: secondsOf(error.retryAfter)
                })
                // the store's message only: its cause may name the key (a client address)
                : Effect.fail(new RateLimiterError({ reason: error.message }))
            )
          )
    }
  })

/** The budget with its counters in this process's memory, bounded to `maxClients` clients. */
export const makeInMemory = (options: LimitOptions & { readonly maxClients?: number }) =>
  make(options).pipe(
    Effect.provide(Shared.layer.pipe(Layer.provide(MemoryStore.layer({ maxClients: options.maxClients }))))
  )

/** `RATE_LIMIT_PER_MINUTE` per client over the counter store provided (memory or Redis). */
export const layerShared: Layer.Layer<RateLimiter, never, AppConfig | Shared.RateLimiterStore> = Layer.effect(
  RateLimiter,
  Effect.flatMap(AppConfig, (config) => make({ limit: config.rateLimitPerMinute, windowSeconds: 60 }))
).pipe(Layer.provide(Shared.layer))

/** `RATE_LIMIT_PER_MINUTE` per client, counted in this process's memory. */
export const layer: Layer.Layer<RateLimiter, never, AppConfig> = layerShared.pipe(
  Layer.provide(MemoryStore.layer())
)
