import * as Shared from "@effect/experimental/RateLimiter"
import { RateLimiterStore, RateLimitExceeded, RateLimitStoreError } from "@effect/experimental/RateLimiter"
import { afterAll, afterEach, assert, describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, TestClock } from "effect"
import { AppRoutes } from "../src/http/App.ts"
import { forRuntime } from "../src/layers/Main.ts"
import { PublicServices } from "../src/layers/Public.ts"
import * as OAuthLimits from "../src/services/OAuthLimits.ts"
import { withBreaker } from "../src/services/ratelimit/Breaker.ts"
import { makeInMemory, RateLimiter, RateLimiterError } from "../src/services/RateLimiter.ts"
import { captureLogs } from "./support/LogCapture.ts"
import { type RunningServer, startServer, testConfig } from "./support/TestServer.ts"
import { testStore } from "./support/TestStore.ts"

const withLimiter = (limiter: Layer.Layer<RateLimiter>) =>
  forRuntime(AppRoutes.pipe(Layer.provide(limiter), Layer.provide(PublicServices)), "node test", testStore)

describe("RateLimiter", () => {
  it.effect("allows `limit` requests per window, then denies until the window resets", () =>
    Effect.gen(function*() {
      const limiter = yield* makeInMemory({ limit: 2, windowSeconds: 60 })
      // each request extends the counter's life by window / limit: 30 s here
      assert.deepStrictEqual(yield* limiter.consume("a"), { allowed: true, limit: 2, remaining: 1, resetSeconds: 30 })
      assert.deepStrictEqual(yield* limiter.consume("a"), { allowed: true, limit: 2, remaining: 0, resetSeconds: 60 })
      yield* TestClock.adjust("59 seconds")
      const denied = yield* limiter.consume("a")
      assert.deepStrictEqual(denied, { allowed: false, limit: 2, remaining: 0, resetSeconds: 1 })
      assert.isTrue((yield* limiter.consume("b")).allowed, "other clients have their own budget")
      yield* TestClock.adjust("1 second")
      assert.deepStrictEqual(yield* limiter.consume("a"), { allowed: true, limit: 2, remaining: 1, resetSeconds: 30 })
    }))

  it.effect("asks a counter store that just failed again only after a pause (a Redis outage adds no wait per request)", () =>
    Effect.gen(function*() {
      let asked = 0
      let failing = true
      const count = { key: "a", tokens: 1, refillRate: Duration.millis(500), limit: 120 }
      const store = withBreaker({
        fixedWindow: () =>
          Effect.suspend(() => {
            asked++
            return failing
              ? Effect.fail(new RateLimitStoreError({ message: "Redis unreachable" }))
              : Effect.succeed([1, 500] as const)
          }),
        tokenBucket: () => Effect.die("not used")
      }, 2_000)
      const tries = Effect.either(store.fixedWindow(count))
      expect((yield* tries)._tag).toBe("Left")
      expect((yield* tries)._tag).toBe("Left")
      expect(asked).toBe(1)
      yield* TestClock.adjust("1999 millis")
      yield* tries
      expect(asked).toBe(1)
      yield* TestClock.adjust("1 millis")
      failing = false
      assert.deepStrictEqual(yield* store.fixedWindow(count), [1, 500])
      expect(asked).toBe(2)
    }))

  it.effect("during a counter store outage, warns once per pause of the breaker, not once per request", () =>
    Effect.gen(function*() {
      const unreachable = withBreaker({
        fixedWindow: () => Effect.fail(new RateLimitStoreError({ message: "Redis unreachable" })),
        tokenBucket: () => Effect.die("not used")
      }, 2_000)
      const { lines, logger } = captureLogs()
      const limits = yield* OAuthLimits.make({ ...testConfig().oauthLimits!, requestsPerMinute: 60 }).pipe(
        Effect.provide(Shared.layer),
        Effect.provideService(RateLimiterStore, unreachable)
      )
      const letThrough = Effect.forEach([1, 2, 3, 4, 5], () => limits.request("198.51.100.1")).pipe(
        Effect.provide(logger)
      )
      expect(yield* letThrough).toEqual([undefined, undefined, undefined, undefined, undefined])
      expect(lines.filter((line) => line.includes("unavailable"))).toEqual([
        "OAuth rate limiter unavailable; request let through Redis unreachable"
      ])
      // once the pause is over the store is asked again, and its failure is worth a warning again
      yield* TestClock.adjust("2 seconds")
      yield* letThrough
      expect(lines.filter((line) => line.includes("unavailable"))).toHaveLength(2)
    }))

  it.effect("keeps asking a counter store that answers a budget is exceeded", () =>
    Effect.gen(function*() {
      let asked = 0
      const store = withBreaker({
        fixedWindow: () =>
          Effect.suspend(() => {
            asked++
            return Effect.fail(
              new RateLimitExceeded({ retryAfter: Duration.seconds(1), key: "a", limit: 1, remaining: 0 })
            )
          }),
        tokenBucket: () => Effect.die("not used")
      }, 2_000)
      const count = { key: "a", tokens: 1, refillRate: Duration.millis(500), limit: 1 }
      for (let i = 0; i < 3; i++) yield* Effect.either(store.fixedWindow(count))
      expect(asked).toBe(3)
    }))

  it.effect("never allows more than `limit` in any window to a client that keeps asking", () =>
    Effect.gen(function*() {
      const limiter = yield* makeInMemory({ limit: 12, windowSeconds: 6 })
      let allowed = 0
      // one request every 100 ms for three windows
      for (let i = 0; i < 180; i++) {
        if ((yield* limiter.consume("steady")).allowed) allowed++
        yield* TestClock.adjust("100 millis")
      }
      assert.isAtMost(allowed, 3 * 12)
      assert.isAtLeast(allowed, 3 * 12 - 2)
    }))

  it.effect("refuses new clients past its table size, so callers let them through", () =>
    Effect.gen(function*() {
      const limiter = yield* makeInMemory({ limit: 5, windowSeconds: 60, maxClients: 2 })
      yield* limiter.consume("a")
      yield* limiter.consume("b")
      const error = yield* Effect.flip(limiter.consume("c"))
      assert.instanceOf(error, RateLimiterError)
    }))
})

describe("anonymous rate limit over HTTP", () => {
  let server: RunningServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })
  afterAll(async () => server?.close())

  it("announces the budget, answers 429 with Retry-After when exhausted, and recovers", async () => {
    server = await startServer({
      app: withLimiter(Layer.effect(RateLimiter, makeInMemory({ limit: 3, windowSeconds: 1 })))
    })
    const statuses: Array<number> = []
    let last: Response | undefined
    for (let i = 0; i < 4; i++) {
      last = await server.get("/api/regulatory-status")
      statuses.push(last.status)
      if (i === 0) {
        expect(last.headers.get("ratelimit-limit")).toBe("3")
        expect(last.headers.get("ratelimit-policy")).toBe("3;w=1")
        expect(last.headers.get("ratelimit-remaining")).toBe("2")
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429])
    expect(last!.headers.get("retry-after")).toBe("1")
    expect(last!.headers.get("ratelimit-remaining")).toBe("0")
    const problem = await last!.json()
    expect(problem).toMatchObject({ status: 429, retryAfter: 1, title: "Rate limit exceeded" })
    expect((await server.get("/health")).status).toBe(200)

    await new Promise((resolve) => setTimeout(resolve, 1100))
    expect((await server.get("/api/regulatory-status")).status).toBe(200)
  })

  it("counts /skills*, /openapi.json and unknown /api paths, not the index or health", async () => {
    server = await startServer({ config: { rateLimitPerMinute: 2 } })
    expect((await server.get("/openapi.json")).status).toBe(200)
    expect((await server.get("/api/nothing-here")).status).toBe(404)
    expect((await server.get("/skills/x")).status).toBe(429)
    for (let i = 0; i < 3; i++) expect((await server.get("/")).status).toBe(200)
  })

  it("RATE_LIMIT_PER_MINUTE=0 turns the limit off", async () => {
    server = await startServer({ config: { rateLimitPerMinute: 0 } })
    const response = await server.get("/api/regulatory-status")
    expect(response.headers.get("ratelimit-limit")).toBeNull()
  })

  it("uses forwarding headers only behind a trusted proxy", async () => {
    server = await startServer({ config: { rateLimitPerMinute: 1 } })
    expect((await server.get("/openapi.json", { headers: { "x-forwarded-for": "203.0.113.1" } })).status).toBe(200)
    expect((await server.get("/openapi.json", { headers: { "x-forwarded-for": "203.0.113.2" } })).status).toBe(429)
    await server.close()

    server = await startServer({ config: { rateLimitPerMinute: 1, trustProxy: 1 } })
    expect((await server.get("/openapi.json", { headers: { "x-forwarded-for": "203.0.113.1" } })).status).toBe(200)
    expect((await server.get("/openapi.json", { headers: { "x-forwarded-for": "203.0.113.1" } })).status).toBe(429)
    expect((await server.get("/openapi.json", { headers: { "x-forwarded-for": "203.0.113.2" } })).status).toBe(200)
  })

  it("behind one appending proxy, an X-Forwarded-For entry or CF-Connecting-IP the client sent never becomes its address", async () => {
    server = await startServer({ config: { rateLimitPerMinute: 1, trustProxy: 1 } })
    // the proxy appends the address it received from (203.0.113.7) to whatever the client wrote
    const from = (written: string, extra: Record<string, string> = {}) =>
      server!.get("/openapi.json", { headers: { "x-forwarded-for": `${written}, 203.0.113.7`, ...extra } })
    expect((await from("198.51.100.1")).status).toBe(200)
    expect((await from("198.51.100.2")).status).toBe(429)
    expect((await from("198.51.100.3, 198.51.100.4")).status).toBe(429)
    expect((await from("198.51.100.5", { "cf-connecting-ip": "198.51.100.6" })).status).toBe(429)
  })

  it("counts TRUST_PROXY=2 proxies from the right, and reads CF-Connecting-IP only with TRUST_PROXY=cloudflare", async () => {
    server = await startServer({ config: { rateLimitPerMinute: 1, trustProxy: 2 } })
    // client → CDN (appends the client) → balancer (appends the CDN edge) → service
    const viaTwo = (written: string, client: string) =>
      server!.get("/openapi.json", { headers: { "x-forwarded-for": `${written}, ${client}, 192.0.2.10` } })
    expect((await viaTwo("198.51.100.1", "203.0.113.1")).status).toBe(200)
    expect((await viaTwo("198.51.100.2", "203.0.113.1")).status).toBe(429)
    expect((await viaTwo("198.51.100.2", "203.0.113.2")).status).toBe(200)
    await server.close()

    server = await startServer({ config: { rateLimitPerMinute: 1, trustProxy: "cloudflare" } })
    const viaCloudflare = (client: string, written: string) =>
      server!.get("/openapi.json", {
        headers: { "cf-connecting-ip": client, "x-forwarded-for": `${written}, ${client}` }
      })
    expect((await viaCloudflare("203.0.113.1", "198.51.100.1")).status).toBe(200)
    expect((await viaCloudflare("203.0.113.1", "198.51.100.2")).status).toBe(429)
    expect((await viaCloudflare("203.0.113.2", "198.51.100.2")).status).toBe(200)
  })

  it("a cached answer never carries the rate-limit state of the client whose request filled the cache", async () => {
    // counts the first request, then fails: the second is answered from the cache, uncounted
    let calls = 0
    const firstOnly = Layer.succeed(RateLimiter, {
      limit: 5,
      windowSeconds: 60,
      consume: () =>
        calls++ === 0
          ? Effect.succeed({ allowed: true, limit: 5, remaining: 4, resetSeconds: 12 })
          : Effect.fail(new RateLimiterError({ reason: "store unreachable" }))
    })
    server = await startServer({ app: withLimiter(firstOnly) })
    const counted = await server.get("/api/regulatory-status")
    expect(counted.headers.get("ratelimit-remaining")).toBe("4")
    const cached = await server.get("/api/regulatory-status")
    expect(cached.status).toBe(200)
    expect(calls).toBe(2)
    expect(cached.headers.get("ratelimit-limit")).toBeNull()
    expect(cached.headers.get("ratelimit-remaining")).toBeNull()
    expect(cached.headers.get("etag")).toBe(counted.headers.get("etag"))
  })

  it("fails open when the limiter fails", async () => {
    const broken = Layer.succeed(RateLimiter, {
      limit: 1,
      windowSeconds: 60,
      consume: () => Effect.fail(new RateLimiterError({ reason: "store unreachable" }))
    })
    server = await startServer({ app: withLimiter(broken) })
    for (let i = 0; i < 3; i++) {
      const response = await server.get("/api/regulatory-status")
      expect(response.status).toBe(200)
      expect(response.headers.get("ratelimit-limit")).toBeNull()
    }
  })
})
