import { Redis } from "ioredis"
import { randomBytes } from "node:crypto"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { compare } from "./lib/load.ts"
import { startService } from "./lib/processes.ts"

const redisUrl = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379"

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
  const dataDir = () => mkdtempSync(join(tmpdir(), "ecds-bench-"))
  const limited = { RATE_LIMIT_PER_MINUTE: "60000", LOG_LEVEL: "warn" }
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
    const memoryVsOff = await compare({ url: `${memory.url}${path}` }, { url: `${off.url}${path}` })
    const redisVsOff = await compare({ url: `${redis.url}${path}` }, { url: `${off.url}${path}` })
    const memoryVsToday = today === undefined
      ? "set BENCH_BASELINE to compare with the previous version's limiter"
      : await compare({ url: `${memory.url}${path}` }, { url: `${today.url}${path}` })
    return {
      description: `anonymous GET ${path}: limit counted in memory vs off; in Redis vs off; in memory vs ` +
        "the previous version's in-memory limiter (same run)",
      goal: "no request path slower than 0.8 x today",
      memoryVsOff,
      redisVsOff,
      memoryVsToday
    }
  } finally {
    await Promise.all([off.stop(), memory.stop(), redis.stop(), today?.stop()])
    const client = new Redis(redisUrl)
    const keys = await client.keys(`${prefix}*`)
    if (keys.length > 0) await client.del(...keys)
    await client.quit()
  }
}
