import * as Shared from "@effect/experimental/RateLimiter"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Option, Redacted } from "effect"
import { Redis as RedisClient } from "ioredis"
import { randomBytes } from "node:crypto"
import * as RedisStore from "../../src/services/ratelimit/RedisStore.ts"
import * as RateLimiter from "../../src/services/RateLimiter.ts"
import { freePort } from "../support/ports.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

/** The Redis every development and CI machine runs. */
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379"
const prefix = `ecds-test:${randomBytes(6).toString("hex")}:`

/** One instance's limiter over its own connection to Redis at `url`, keys under the shared prefix. */
const instanceOn = (url: string, limit = 120) =>
  Effect.flatMap(
    Layer.build(Shared.layer.pipe(Layer.provide(RedisStore.layer({ url, prefix })))),
    (context) => Effect.provide(RateLimiter.make({ limit, windowSeconds: 60 }), context)
  )

afterAll(async () => {
  const client = new RedisClient(redisUrl)
  const keys = await client.keys(`${prefix}*`)
  if (keys.length > 0) await client.del(...keys)
  await client.quit()
})

describe("anonymous rate limit on Redis", () => {
  it.scoped(
    "two instances share one budget per client: 130 requests over both, 120 allowed",
    () =>
      Effect.gen(function*() {
        const instances = [yield* instanceOn(redisUrl), yield* instanceOn(redisUrl)]
        const decisions = yield* Effect.forEach(
          Array.from({ length: 130 }, (_, i) => i),
          (i) => instances[i % 2]!.consume("198.51.100.7"),
          { concurrency: 8 }
        )
        expect(decisions.filter((decision) => decision.allowed)).toHaveLength(120)
        const denied = decisions.filter((decision) => !decision.allowed)
        expect(denied).toHaveLength(10)
        expect(denied[0]).toMatchObject({ limit: 120, remaining: 0 })
        expect(denied[0]!.resetSeconds).toBeGreaterThan(0)
        expect(denied[0]!.resetSeconds).toBeLessThanOrEqual(60)
        // another client has its own budget, on either instance
        expect((yield* instances[1]!.consume("198.51.100.8")).remaining).toBe(119)
      }),
    { timeout: 60_000 }
  )

  it.scoped(
    "a Redis that cannot be reached is an error (the caller lets the request through), never a wait",
    () =>
      Effect.gen(function*() {
        const closed = `redis://127.0.0.1:${yield* Effect.promise(freePort)}`
        const limiter = yield* instanceOn(closed)
        for (let i = 0; i < 3; i++) {
          const outcome = yield* Effect.exit(limiter.consume("198.51.100.9"))
          expect(Exit.isFailure(outcome)).toBe(true)
          const error = Option.getOrThrow(Exit.isFailure(outcome) ? Exit.causeOption(outcome) : Option.none())
          expect(JSON.stringify(error)).toContain("RateLimiterError")
          // the reason names the failure, never the client address
          expect(JSON.stringify(error)).not.toContain("198.51.100.9")
        }
      }),
    { timeout: 60_000 }
  )
})

describe("the public deployment with REDIS_URL", () => {
  let server: RunningServer | undefined
  afterAll(async () => server?.close())

  const readiness = async (running: RunningServer) => {
    const response = await running.get("/ready")
    const body = await response.json() as { status: string; checks: ReadonlyArray<{ name: string }> }
    return { status: response.status, body, redis: body.checks.find((check) => check.name === "redis") }
  }

  it("counts anonymous requests in Redis and reports it ready", async () => {
    server = await startServer({
      config: { redisUrl: Option.some(Redacted.make(redisUrl)), redisKeyPrefix: prefix, rateLimitPerMinute: 3 }
    })
    const statuses: Array<number> = []
    for (let i = 0; i < 4; i++) statuses.push((await server.get("/api/regulatory-status")).status)
    expect(statuses).toEqual([200, 200, 200, 429])
    const client = new RedisClient(redisUrl)
    try {
      expect(await client.keys(`${prefix}*`)).not.toHaveLength(0)
    } finally {
      await client.quit()
    }
    const ready = await readiness(server)
    expect(ready.redis).toMatchObject({ status: "ok", critical: false })
    await server.close()
    server = undefined
  }, 120_000)

  it("fails open when Redis is down: every request is answered, /ready says degraded (200)", async () => {
    const closed = `redis://127.0.0.1:${await freePort()}`
    server = await startServer({
      config: { redisUrl: Option.some(Redacted.make(closed)), redisKeyPrefix: prefix, rateLimitPerMinute: 2 }
    })
    for (let i = 0; i < 5; i++) {
      const response = await server.get("/api/regulatory-status")
      expect(response.status).toBe(200)
      // uncounted: no budget is announced
      expect(response.headers.get("ratelimit-limit")).toBeNull()
    }
    const ready = await readiness(server)
    expect(ready.redis).toMatchObject({ status: "degraded", critical: false })
    expect(JSON.stringify(ready.body)).not.toContain(closed)
    // the overall status is whatever the other checks say: Redis alone never makes it unavailable
    expect(ready.body.status).not.toBe("ok")
    await server.close()
    server = undefined
  }, 120_000)

  it("has no redis check without REDIS_URL", async () => {
    server = await startServer({ config: { rateLimitPerMinute: 0 } })
    const ready = await readiness(server)
    expect(ready.redis).toBeUndefined()
    expect(ready.body.checks.map((check) => check.name)).toContain("store")
    await server.close()
    server = undefined
  }, 120_000)
})
