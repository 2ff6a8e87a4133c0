import { type RateLimiterError, RateLimiterStore, RateLimitStoreError } from "@effect/experimental/RateLimiter"
import { Clock, Effect, Layer } from "effect"

type Store = RateLimiterStore["Type"]

/**
 * The counter store behind a breaker: once it failed (not a budget exceeded: the store itself), calls
 * fail at once for `openMillis`, then the next call asks it again. ioredis holds a command while
 * the connection is down until it times out, which added up to half a second to every anonymous
 * request during a Redis outage; with the breaker one request per `openMillis` pays that.
 */
export const withBreaker = (store: Store, openMillis: number): Store => {
  let openUntil = 0
  const guard = <A>(call: Effect.Effect<A, RateLimiterError>): Effect.Effect<A, RateLimiterError> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      now < openUntil
        ? Effect.fail(new RateLimitStoreError({ message: "the counter store failed moments ago; not asked again yet" }))
        : Effect.tapError(call, (error) =>
          error.reason === "StoreError"
            ? Effect.map(Clock.currentTimeMillis, (failedAt) => {
              openUntil = failedAt + openMillis
            })
            : Effect.void))
  return {
    fixedWindow: (options) => guard(store.fixedWindow(options)),
    tokenBucket: (options) => guard(store.tokenBucket(options))
  }
}

/** `withBreaker` over the store the given layer provides. */
export const layer = <E, R>(inner: Layer.Layer<RateLimiterStore, E, R>, openMillis: number) =>
  Layer.effect(RateLimiterStore, Effect.map(RateLimiterStore, (store) => withBreaker(store, openMillis))).pipe(
    Layer.provide(inner)
  )
