import { RateLimiterStore } from "@effect/experimental/RateLimiter"
import { Clock, Context, Duration, Effect, Layer } from "effect"
import { type Contribution, contribution } from "../Readiness.ts"

/**
 * Where the anonymous rate limit keeps its counters, and the readiness checks that come with that
 * place: none for this process's memory, a `redis` check for Redis.
 */
export interface RateLimitCountersShape {
  readonly kind: "memory" | "redis"
  readonly readiness: ReadonlyArray<Contribution<never>>
}

export class RateLimitCounters extends Context.Tag("app/RateLimitCounters")<
  RateLimitCounters,
  RateLimitCountersShape
>() {}

/**
 * A real round trip through the counter store: one count on a key no client address can have,
 * expiring a millisecond later. Redis being down degrades the service (the limit fails open, so
 * requests are still answered) and never makes it unavailable.
 */
const redisCheck = (store: RateLimiterStore["Type"]) =>
  contribution(
    "redis",
    false,
    Effect.gen(function*() {
      const start = yield* Clock.currentTimeMillis
      const outcome = yield* store.fixedWindow({
        key: "readiness-probe",
        tokens: 1,
        refillRate: Duration.millis(1),
        limit: undefined
      }).pipe(
        Effect.timeout("1 second"),
        Effect.as("ok" as const),
        Effect.orElseSucceed(() => "unreachable" as const)
      )
      const details = {
        role: "anonymous rate-limit counters",
        latency_millis: (yield* Clock.currentTimeMillis) - start
      }
      return outcome === "ok"
        ? { status: "ok" as const, summary: "Redis answers: the anonymous limit is shared by every instance", details }
        : {
          status: "degraded" as const,
          summary: "Redis cannot be reached: anonymous requests are let through uncounted (fail-open) until it is back",
          details
        }
    })
  )

export const layerMemory: Layer.Layer<RateLimitCounters> = Layer.succeed(RateLimitCounters, {
  kind: "memory",
  readiness: []
})

export const layerRedis: Layer.Layer<RateLimitCounters, never, RateLimiterStore> = Layer.effect(
  RateLimitCounters,
  Effect.map(RateLimiterStore, (store) => ({ kind: "redis" as const, readiness: [redisCheck(store)] }))
)
