import { RateLimiterStore } from "@effect/experimental/RateLimiter"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import { Redis as RedisClient } from "ioredis"
import { randomBytes } from "node:crypto"
import * as MemoryStore from "../../src/services/ratelimit/MemoryStore.ts"
import * as RedisStore from "../../src/services/ratelimit/RedisStore.ts"

/** The Redis every development and CI machine runs. */
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379"
const prefix = `ecds-test:${randomBytes(6).toString("hex")}:`

afterAll(async () => {
  const client = new RedisClient(redisUrl)
  const keys = await client.keys(`${prefix}*`)
  if (keys.length > 0) await client.del(...keys)
  await client.quit()
})

const storeOf = (layer: Layer.Layer<RateLimiterStore>) =>
  Effect.map(Layer.build(layer), (context) => context.unsafeMap.get(RateLimiterStore.key) as RateLimiterStore["Type"])

/** The same takes on a store: what a fixed window and a token bucket answer, ttl rounded to the second. */
const takes = (store: RateLimiterStore["Type"], key: string) =>
  Effect.gen(function*() {
    const window = { key: `w:${key}`, tokens: 1, refillRate: Duration.millis(8_571), limit: 3 }
    const windows: Array<readonly [number, number]> = []
    for (let i = 0; i < 5; i++) {
      const [count, ttl] = yield* store.fixedWindow(window)
      windows.push([count, Math.round(ttl / 1000)])
    }
    const [unlimited] = yield* store.fixedWindow({ ...window, key: `u:${key}`, tokens: 4, limit: undefined })
    const bucket = { key: `b:${key}`, tokens: 2, limit: 5, refillRate: Duration.hours(1), allowOverflow: false }
    const buckets: Array<number> = []
    for (let i = 0; i < 4; i++) buckets.push(yield* store.tokenBucket(bucket))
    buckets.push(yield* store.tokenBucket({ ...bucket, allowOverflow: true }))
    buckets.push(yield* store.tokenBucket({ ...bucket, tokens: 0 }))
    return { windows, unlimited, buckets }
  })

describe("the rate limiter's Redis store", () => {
  it.scoped("answers as the in-memory store does, for fixed windows and token buckets", () =>
    Effect.gen(function*() {
      const key = randomBytes(4).toString("hex")
      const inRedis = yield* takes(yield* storeOf(RedisStore.layer({ url: redisUrl, prefix })), key)
      const inMemory = yield* takes(yield* storeOf(MemoryStore.layer()), key)
      expect(inRedis).toEqual(inMemory)
      // (whole-millisecond steps, as the budget in RateLimiter.ts rounds them) three of 8.571 s each taken, the fourth and fifth refused without moving the window
      expect(inRedis.windows).toEqual([[1, 9], [2, 17], [3, 26], [4, 26], [4, 26]])
      expect(inRedis.buckets).toEqual([3, 1, -1, -1, -1, -1])
    }), 60_000)
})
