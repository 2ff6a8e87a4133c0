import type { RateLimiterStore } from "@effect/experimental/RateLimiter"
import { Effect, Layer, Option, Redacted } from "effect"
import { AppConfig } from "../services/AppConfig.ts"
import * as OAuthLimits from "../services/OAuthLimits.ts"
import * as Breaker from "../services/ratelimit/Breaker.ts"
import * as Counters from "../services/ratelimit/Counters.ts"
import * as MemoryStore from "../services/ratelimit/MemoryStore.ts"
import * as RedisStore from "../services/ratelimit/RedisStore.ts"
import * as RateLimiter from "../services/RateLimiter.ts"

const over = (
  store: Layer.Layer<RateLimiterStore>,
  counters: Layer.Layer<Counters.RateLimitCounters, never, RateLimiterStore>
) => Layer.mergeAll(RateLimiter.layerShared, OAuthLimits.layerShared, counters).pipe(Layer.provide(store))

/**
 * The anonymous rate limit and the OAuth budgets where the configuration puts their counters, the
 * only place the two are told apart: Redis at `REDIS_URL` (shared by every instance, keys under
 * `REDIS_KEY_PREFIX`), else this process's memory.
 */
export const fromConfig: Layer.Layer<
  RateLimiter.RateLimiter | OAuthLimits.OAuthLimits | Counters.RateLimitCounters,
  never,
  AppConfig
> = Layer
  .unwrapEffect(Effect.map(AppConfig, (config) =>
    Option.match(config.redisUrl, {
      onNone: () => over(MemoryStore.layer(), Counters.layerMemory),
      onSome: (url) =>
        over(
          Breaker.layer(RedisStore.layer({ url: Redacted.value(url), prefix: config.redisKeyPrefix }), 2_000),
          Counters.layerRedis
        )
    })))
