import { RateLimiterStore, RateLimitStoreError } from "@effect/experimental/RateLimiter"
import { Duration, Effect, Layer } from "effect"

interface Counter {
  count: number
  expiresAt: number
}

interface Bucket {
  tokens: number
  lastRefill: number
}

/**
 * `@effect/experimental`'s rate-limiter store in this process's memory, with the same counting as
 * its own memory store and its Redis store, plus a bound: expired entries are swept as the table
 * grows, and past `maxClients` live entries a new key is refused with a store error, which the
 * anonymous limit treats as "allow" (fail open) — so a flood of addresses cannot grow memory
 * without end.
 */
export const make = (options: { readonly maxClients?: number | undefined } = {}) =>
  Effect.sync(() => {
    const maxClients = options.maxClients ?? 100_000
    const counters = new Map<string, Counter>()
    const buckets = new Map<string, Bucket>()
    // sweeps run when a table doubles, so their cost is spread over the keys added
    let nextSweep = 1024
    let nextBucketSweep = 1024
    const sweep = (now: number) => {
      for (const [key, counter] of counters) if (counter.expiresAt <= now) counters.delete(key)
      nextSweep = Math.max(1024, counters.size * 2)
    }
    // a full bucket is the state of a key never seen: forgetting full buckets loses nothing
    const sweepBuckets = (now: number, limit: number, refillMillis: number) => {
      for (const [key, held] of buckets) {
        if (held.tokens + Math.floor((now - held.lastRefill) / refillMillis) >= limit) buckets.delete(key)
      }
      nextBucketSweep = Math.max(1024, buckets.size * 2)
    }
    const full = (size: number) =>
      size >= maxClients ? new RateLimitStoreError({ message: "rate-limit table full" }) : undefined

    return RateLimiterStore.of({
      fixedWindow: (request) =>
        Effect.clockWith((clock) =>
          Effect.suspend(() => {
            const refillMillis = Duration.toMillis(request.refillRate)
            const now = clock.unsafeCurrentTimeMillis()
            let counter = counters.get(request.key)
            if (counter === undefined || counter.expiresAt <= now) {
              if (counter === undefined && counters.size >= nextSweep) sweep(now)
              const refused = counter === undefined ? full(counters.size) : undefined
              if (refused !== undefined) return Effect.fail(refused)
              counter = { count: 0, expiresAt: now }
              counters.set(request.key, counter)
            }
            if (request.limit !== undefined && counter.count + request.tokens > request.limit) {
              return Effect.succeed([counter.count + request.tokens, counter.expiresAt - now] as const)
            }
            counter.count += request.tokens
            counter.expiresAt += refillMillis * request.tokens
            return Effect.succeed([counter.count, counter.expiresAt - now] as const)
          })
        ),
      tokenBucket: (request) =>
        Effect.clockWith((clock) =>
          Effect.suspend(() => {
            const refillMillis = Duration.toMillis(request.refillRate)
            const now = clock.unsafeCurrentTimeMillis()
            let bucket = buckets.get(request.key)
            if (bucket === undefined) {
              if (buckets.size >= nextBucketSweep) sweepBuckets(now, request.limit, refillMillis)
              const refused = full(buckets.size)
              if (refused !== undefined) return Effect.fail(refused)
              bucket = { tokens: request.limit, lastRefill: now }
              buckets.set(request.key, bucket)
            } else {
              const refill = Math.floor((now - bucket.lastRefill) / refillMillis)
              if (refill > 0) {
                bucket.tokens = Math.min(request.limit, bucket.tokens + refill)
                bucket.lastRefill += refill * refillMillis
              }
            }
            const next = bucket.tokens - request.tokens
            if (request.allowOverflow || next >= 0) bucket.tokens = next
            return Effect.succeed(next)
          })
        )
    })
  })

export const layer = (options: { readonly maxClients?: number | undefined } = {}): Layer.Layer<RateLimiterStore> =>
  Layer.effect(RateLimiterStore, make(options))
