import * as Shared from "@effect/experimental/RateLimiter"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Redis as RedisClient } from "ioredis"
import { randomBytes } from "node:crypto"
import type { OAuthLimitsConfig } from "../../src/services/AppConfig.ts"
import * as OAuthLimits from "../../src/services/OAuthLimits.ts"
import * as RedisStore from "../../src/services/ratelimit/RedisStore.ts"
import { freePort } from "../support/ports.ts"

/** The Redis every development and CI machine runs. */
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379"
const prefix = `ecds-test:${randomBytes(6).toString("hex")}:`

const limits: OAuthLimitsConfig = {
  signInFreeAttempts: 10,
  signInAddressFreeAttempts: 30,
  signInFirstDelaySeconds: 1,
  signInMaxDelaySeconds: 900,
  signInWindowSeconds: 900,
  requestsPerMinute: 4,
  registrationsPerHourPerAddress: 3,
  registrationsPerHour: 5,
  maxClients: 5000,
  unusedClientHours: 24
}

/** One instance's OAuth budgets over its own connection to Redis at `url`, keys under the shared prefix. */
const instanceOn = (url: string, config: OAuthLimitsConfig = limits) =>
  Effect.flatMap(
    Layer.build(Shared.layer.pipe(Layer.provide(RedisStore.layer({ url, prefix })))),
    (context) => Effect.provide(OAuthLimits.make(config), context)
  )

afterAll(async () => {
  const client = new RedisClient(redisUrl)
  const keys = await client.keys(`${prefix}*`)
  if (keys.length > 0) await client.del(...keys)
  await client.quit()
})

const refusedBy = (outcome: OAuthLimits.OAuthLimited | undefined) => outcome?.what ?? "allowed"

describe("OAuth budgets on Redis", () => {
  it.scoped("two instances share the registration budgets, per address and in total", () =>
    Effect.gen(function*() {
      const instances = [yield* instanceOn(redisUrl), yield* instanceOn(redisUrl)]
      const outcomes = []
      for (let i = 0; i < 4; i++) outcomes.push(refusedBy(yield* instances[i % 2]!.registration("198.51.100.1")))
      expect(outcomes).toEqual(["allowed", "allowed", "allowed", "client registrations from this address"])
      // five an hour in total: two more from other addresses, then everyone is refused
      expect(refusedBy(yield* instances[0]!.registration("198.51.100.2"))).toBe("allowed")
      expect(refusedBy(yield* instances[1]!.registration("198.51.100.3"))).toBe("allowed")
      const full = yield* instances[0]!.registration("198.51.100.4")
      expect(full?.what).toBe("client registrations")
      expect(full?.retryAfterSeconds).toBeGreaterThan(0)
      expect(full?.retryAfterSeconds).toBeLessThanOrEqual(3600)
    }), { timeout: 30_000 })

  it.scoped("two instances share the per-address request budget", () =>
    Effect.gen(function*() {
      const instances = [yield* instanceOn(redisUrl), yield* instanceOn(redisUrl)]
      const outcomes = []
      for (let i = 0; i < 5; i++) outcomes.push(refusedBy(yield* instances[i % 2]!.request("203.0.113.7")))
      expect(outcomes).toEqual(["allowed", "allowed", "allowed", "allowed", "OAuth requests from this address"])
      expect(refusedBy(yield* instances[0]!.request("203.0.113.8"))).toBe("allowed")
    }), { timeout: 30_000 })

  it.scoped(
    "fail open when Redis cannot be reached: requests and registrations go through",
    () =>
      Effect.gen(function*() {
        const closed = `redis://127.0.0.1:${yield* Effect.promise(freePort)}`
        // budgets of one: the second call of each would be refused if it were counted
        const limiter = yield* instanceOn(closed, {
          ...limits,
          requestsPerMinute: 1,
          registrationsPerHourPerAddress: 1,
          registrationsPerHour: 1
        })
        for (let i = 0; i < 2; i++) {
          expect(yield* limiter.request("198.51.100.9")).toBeUndefined()
          expect(yield* limiter.registration("198.51.100.9")).toBeUndefined()
        }
      }),
    { timeout: 30_000 }
  )
})
