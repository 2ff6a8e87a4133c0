import { RateLimiterStore } from "@effect/experimental/RateLimiter"
import * as Redis from "@effect/experimental/RateLimiter/Redis"
import { Cause, Effect, Exit, Layer, Scope } from "effect"

/** What the store's constructor takes: ioredis options and a key prefix. */
type StoreOptions = Parameters<typeof Redis.make>[0]

/**
 * ioredis options for `REDIS_URL` (`redis://[user:password@]host[:port][/db]`, `rediss://` for TLS).
 * Tuned to fail open fast: a command waits at most 500 ms (also while disconnected), is given up
 * after one failed reconnection, and reconnection backs off to 5 s. Auto-pipelining sends the
 * counters of requests arriving in the same event-loop turn in one write (one round trip for a
 * burst instead of one each; `npm run bench -- rate-limit`).
 */
export const redisOptions = (url: string): StoreOptions => {
  const parsed = new URL(url)
  const database = parsed.pathname.replace(/^\//, "")
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: parsed.port === "" ? 6379 : Number(parsed.port),
    ...(parsed.username === "" ? {} : { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password === "" ? {} : { password: decodeURIComponent(parsed.password) }),
    ...(/^\d+$/.test(database) ? { db: Number(database) } : {}),
    ...(parsed.protocol === "rediss:" ? { tls: { servername: parsed.hostname } } : {}),
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
    connectTimeout: 2_000,
    retryStrategy: (attempt: number) => Math.min(attempt * 200, 5_000)
  }
}

/**
 * `@effect/experimental`'s Redis store for the rate limiter, with a shutdown that cannot leak the
 * connection: its own `quit` is queued (and then refused) while Redis is away, which would leave
 * the client reconnecting forever. So reconnection stops once the layer closes, and the store's
 * release runs in a scope of its own whose refusal is logged, not raised.
 */
export const layer = (options: { readonly url: string; readonly prefix: string }): Layer.Layer<RateLimiterStore> =>
  Layer.scoped(
    RateLimiterStore,
    Effect.gen(function*() {
      let closing = false
      const base = redisOptions(options.url)
      const inner = yield* Scope.make()
      yield* Effect.addFinalizer(() =>
        Effect.suspend(() => {
          closing = true
          return Scope.close(inner, Exit.void)
        }).pipe(
          Effect.timeout("3 seconds"),
          Effect.catchAllCause((cause) =>
            Effect.logDebug("Redis connection closed without a clean QUIT", Cause.pretty(cause).split("\n")[0])
          )
        )
      )
      return yield* Redis.make({
        ...base,
        retryStrategy: (attempt: number) => closing ? null : Math.min(attempt * 200, 5_000),
        prefix: options.prefix
      }).pipe(Scope.extend(inner))
    })
  )
