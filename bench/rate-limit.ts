import * as Shared from "@effect/experimental/RateLimiter"
import { Effect, Layer, ManagedRuntime } from "effect"
import { Redis } from "ioredis"
import { randomBytes } from "node:crypto"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as MemoryStore from "../src/services/ratelimit/MemoryStore.ts"
import * as RedisStore from "../src/services/ratelimit/RedisStore.ts"
import * as RateLimiter from "../src/services/RateLimiter.ts"
import { compare } from "./lib/load.ts"
import { percentiles } from "./lib/percentiles.ts"
import { startService } from "./lib/processes.ts"

const redisUrl = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379"

const decisions = 2000

/**
 * The limiter alone, in this process: one `consume` per request over the memory store (today's
 * limiter) and over Redis, interleaved call by call so both see the same load; then 32 callers at
 * once (ioredis pipelines what they send together). Wall time per decision and CPU per decision.
 */
const limiterAlone = async (prefix: string) => {
  const runtime = (store: Layer.Layer<Shared.RateLimiterStore>) =>
    ManagedRuntime.make(
      Layer.effect(RateLimiter.RateLimiter, RateLimiter.make({ limit: 1_000_000, windowSeconds: 60 })).pipe(
        Layer.provide(Shared.layer),
        Layer.provide(store)
      )
    )
  const contenders = {
    memory: runtime(MemoryStore.layer()),
    redis: runtime(RedisStore.layer({ url: redisUrl, prefix }))
  }
  try {
    const consume = (name: keyof typeof contenders, key: string) =>
      contenders[name].runPromise(Effect.flatMap(RateLimiter.RateLimiter, (limiter) => limiter.consume(key)))
    for (let i = 0; i < 200; i++) for (const name of ["memory", "redis"] as const) await consume(name, `warm-${i % 50}`)
    const wall = { memory: [] as Array<number>, redis: [] as Array<number> }
    const cpu = { memory: 0, redis: 0 }
    for (let i = 0; i < decisions; i++) {
      for (const name of ["memory", "redis"] as const) {
        const cpuStarted = process.cpuUsage()
        const started = performance.now()
        const decision = await consume(name, `client-${i % 500}`)
        wall[name].push(performance.now() - started)
        const used = process.cpuUsage(cpuStarted)
        cpu[name] += used.user + used.system
        if (!decision.allowed) throw new Error("the bench budget was exceeded")
      }
    }
    const concurrent: Record<string, unknown> = {}
    for (const name of ["memory", "redis"] as const) {
      const started = performance.now()
      await Promise.all(Array.from({ length: 32 }, async (_, caller) => {
        for (let i = 0; i < decisions / 32; i++) await consume(name, `client-${caller}-${i % 20}`)
      }))
      concurrent[name] = { decisions_per_second: Math.round(decisions / ((performance.now() - started) / 1000)) }
    }
    const result = {
      memory: { wall_ms: percentiles(wall.memory, 3), cpu_ms_per_decision: Math.round(cpu.memory / decisions) / 1000 },
      redis: { wall_ms: percentiles(wall.redis, 3), cpu_ms_per_decision: Math.round(cpu.redis / decisions) / 1000 },
      concurrent_32: concurrent
    }
    return {
      ...result,
      p99_ratio_redis_over_memory: Math.round((result.redis.wall_ms.p99 / result.memory.wall_ms.p99) * 100) / 100
    }
  } finally {
    await Promise.all([contenders.memory.dispose(), contenders.redis.dispose()])
  }
}

/**
 * What the anonymous rate limit costs on the request path: the same anonymous request
 * (`GET /api/ecfr/meta`, answered from local state) with the limit off, counted in memory, and
 * counted in Redis (`@effect/experimental`'s RateLimiter either way). The budget is set high enough
 * that no request is refused, so every response is the same 200. With `BENCH_BASELINE=<checkout of
 * the previous version>` (its own node_modules or a link to these), that version's in-memory limiter
 * runs in the same run as the baseline of the memory store.
 */
export const run = async () => {
  const prefix = `ecds-bench:${randomBytes(4).toString("hex")}:`
  const limiter = await limiterAlone(prefix)
  if (process.env.BENCH_LIMITER_ONLY === "1") {
    await cleanUp(prefix)
    return { description: "the anonymous limiter's decision alone, in process: memory vs Redis", limiter }
  }
  const dataDir = () => mkdtempSync(join(tmpdir(), "ecds-bench-"))
  // the highest budget the configuration takes: the bench's ~3,000 requests a second from one address
  // must never be refused, or the limited services would answer cheap 429s and look faster
  const limited = { RATE_LIMIT_PER_MINUTE: "1000000", LOG_LEVEL: "warn" }
  const off = await startService({ RATE_LIMIT_PER_MINUTE: "0", LOG_LEVEL: "warn", DATA_DIR: dataDir() })
  const memory = await startService({ ...limited, DATA_DIR: dataDir() })
  const redis = await startService({ ...limited, REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix, DATA_DIR: dataDir() })
  const baselineDir = process.env.BENCH_BASELINE
  const today = baselineDir === undefined
    ? undefined
    : await startService({ ...limited, DATA_DIR: dataDir() }, join(baselineDir, "src", "node.ts"))
  try {
    const path = "/api/ecfr/meta"
    for (const service of [off, memory, redis, ...(today === undefined ? [] : [today])]) {
      const response = await fetch(`${service.url}${path}`)
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`)
    }
    // a limiter that fails lets requests through uncounted: make sure both count before measuring
    for (const service of [memory, redis]) {
      for (let attempt = 0; (await fetch(`${service.url}${path}`)).headers.get("ratelimit-limit") === null; attempt++) {
        if (attempt > 50) throw new Error(`${service.url} does not count requests`)
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    }
    const refusedNone = (result: Awaited<ReturnType<typeof compare>>) => {
      if (result.candidate.errors + result.baseline.errors > 0) {
        throw new Error(`${path} answered errors or refusals under load: the comparison would not be of 200s`)
      }
      return result
    }
    const measure = (candidate: string, baseline: string) =>
      compare({ url: `${candidate}${path}` }, { url: `${baseline}${path}` }).then(refusedNone)
    const memoryVsOff = await measure(memory.url, off.url)
    const redisVsOff = await measure(redis.url, off.url)
    const redisVsMemory = await measure(redis.url, memory.url)
    const memoryVsToday = today === undefined
      ? "set BENCH_BASELINE to compare with the previous version's limiter"
      : await measure(memory.url, today.url)
    return {
      description:
        `anonymous GET ${path}: limit counted in memory vs off; in Redis vs off and vs memory; in memory vs ` +
        "the previous version's in-memory limiter (same run)",
      goal: "no request path slower than 0.8 x today",
      limiter,
      memoryVsOff,
      redisVsOff,
      redisVsMemory,
      memoryVsToday
    }
  } finally {
    await Promise.all([off.stop(), memory.stop(), redis.stop(), today?.stop()])
    await cleanUp(prefix)
  }
}

const cleanUp = async (prefix: string) => {
  const client = new Redis(redisUrl)
  const keys = await client.keys(`${prefix}*`)
  if (keys.length > 0) await client.del(...keys)
  await client.quit()
}
