import { type RateLimiterError, RateLimiterStore, RateLimitStoreError } from "@effect/experimental/RateLimiter"
import { Clock, Effect, Layer } from "effect"

type Store = RateLimiterStore["Type"]

/** Why a call failed at once: the store itself failed moments ago and the breaker is open. */
const notAskedAgainYet = "the counter store failed moments ago; not asked again yet"

/**
 * Logs a request let through uncounted. The failure that opened the breaker is a warning; the calls
 * refused while it is open are not (at any load, an outage would otherwise write a warning for every
 * anonymous request): one warning per `openMillis` of an outage.
 */
export const logLetThrough = (what: string, reason: string) =>
  reason === notAskedAgainYet ? Effect.logDebug(what, reason) : Effect.logWarning(what, reason)

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
        ? Effect.fail(new RateLimitStoreError({ message: notAskedAgainYet }))
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
