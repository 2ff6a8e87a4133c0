import type { SqlClient } from "@effect/sql/SqlClient"
import { Effect, Layer, Logger, LogLevel, Option, Redacted } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { migrated } from "../src/layers/Store.ts"
import * as SqlCredits from "../src/services/accounts/SqlCredits.ts"
import * as SqlKeys from "../src/services/accounts/SqlKeys.ts"
import * as AppConfig from "../src/services/AppConfig.ts"
import * as Credits from "../src/services/Credits.ts"
import * as KeyStore from "../src/services/KeyStore.ts"
import * as Pglite from "../src/services/store/Pglite.ts"
import * as Postgres from "../src/services/store/Postgres.ts"
import { adminUrl, withScratchDatabase } from "./lib/database.ts"

const iterations = Number(process.env.BENCH_ACCOUNTS_ITERATIONS ?? 1000)
const warmup = 100
const concurrency = 8

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

const round = (value: number) => Math.round(value * 1000) / 1000

/**
 * What a paid request costs in accounting: the key lookup every request with a key makes
 * (`KeyStore.verify`), and the credit a final render spends, as the render path runs them one
 * after another: `Credits.charge` (hold, then settle on delivery, the settlement answering the
 * balance left that the response reports). `previous` is the path before that answer came with the
 * settlement: `spend`, then a read of the balance, one statement more. The two are interleaved
 * request by request on the same store, so load and warm-up hit both alike.
 */
const measure = (accounts: Layer.Layer<KeyStore.KeyStore | Credits.Credits>) =>
  Effect.gen(function*() {
    const keys = yield* KeyStore.KeyStore
    const credits = yield* Credits.Credits
    const { key, record } = yield* keys.create({ label: "bench", plan: "enterprise" })
    yield* credits.add(record.keyId, iterations * 3 + warmup * 2 + 1000)
    const verified = Effect.flatMap(
      keys.verify(key),
      (found) => Option.isNone(found) ? Effect.die("the bench key was not found") : Effect.void
    )
    const paidRequest = Effect.zipRight(verified, credits.charge(record.keyId, Effect.void))
    const previousPaidRequest = Effect.zipRight(
      verified,
      Effect.zipRight(credits.spend(record.keyId, Effect.void), credits.balance(record.keyId))
    )
    for (let i = 0; i < warmup; i++) {
      yield* paidRequest
      yield* previousPaidRequest
    }
    const timed = {
      now: { wall: [] as Array<number>, cpu: [] as Array<number> },
      previous: { wall: [] as Array<number>, cpu: [] as Array<number> }
    }
    const once = (
      into: { wall: Array<number>; cpu: Array<number> },
      request: typeof paidRequest | typeof previousPaidRequest
    ) =>
      Effect.gen(function*() {
        // this process's CPU (all of it for the JSON files and PGlite; the client side only for PostgreSQL)
        const cpuStarted = process.cpuUsage()
        const start = performance.now()
        yield* request
        into.wall.push(performance.now() - start)
        const cpu = process.cpuUsage(cpuStarted)
        into.cpu.push((cpu.user + cpu.system) / 1000)
      })
    for (let i = 0; i < iterations; i++) {
      // alternate which goes first, so neither always runs right after the other's writes
      if (i % 2 === 0) {
        yield* once(timed.now, paidRequest)
        yield* once(timed.previous, previousPaidRequest)
      } else {
        yield* once(timed.previous, previousPaidRequest)
        yield* once(timed.now, paidRequest)
      }
    }
    const summary = (samples: { wall: Array<number>; cpu: Array<number> }) => {
      const wall = [...samples.wall].sort((a, b) => a - b)
      const cpu = [...samples.cpu].sort((a, b) => a - b)
      return {
        wallMs: {
          p50: round(percentile(wall, 0.5)),
          p99: round(percentile(wall, 0.99)),
          max: round(wall[wall.length - 1]!)
        },
        cpuMs: {
          mean: round(cpu.reduce((sum, value) => sum + value, 0) / cpu.length),
          p50: round(percentile(cpu, 0.5)),
          p99: round(percentile(cpu, 0.99))
        }
      }
    }
    // the part every request with a key pays, render or not
    const lookups: Array<number> = []
    for (let i = 0; i < iterations; i++) {
      const start = performance.now()
      yield* keys.verify(key)
      lookups.push(performance.now() - start)
    }
    lookups.sort((a, b) => a - b)
    const started = performance.now()
    yield* Effect.all(Array.from({ length: iterations }, () => paidRequest), { concurrency, discard: true })
    const concurrentSeconds = (performance.now() - started) / 1000
    const spent = (yield* credits.usage(record.keyId)).spent
    if (spent !== warmup * 2 + iterations * 3) {
      return yield* Effect.die(`spent ${spent}, expected ${warmup * 2 + iterations * 3}`)
    }
    const now = summary(timed.now)
    const previous = summary(timed.previous)
    return {
      sequentialMs: now.wallMs,
      cpuMsPerRequest: now.cpuMs,
      previousPath: {
        sequentialMs: previous.wallMs,
        cpuMsPerRequest: previous.cpuMs,
        cpuMeanNowVsPrevious: round(now.cpuMs.mean / previous.cpuMs.mean),
        cpuP99NowVsPrevious: round(now.cpuMs.p99 / previous.cpuMs.p99)
      },
      perSecondAt8Concurrent: Math.round(iterations / concurrentSeconds),
      keyLookupMs: { p50: round(percentile(lookups, 0.5)), p99: round(percentile(lookups, 0.99)) }
    }
  }).pipe(Effect.provide(accounts), Logger.withMinimumLogLevel(LogLevel.Warning))

const sqlAccounts = (store: Layer.Layer<SqlClient, unknown>) =>
  Layer.mergeAll(SqlKeys.layer, SqlCredits.layer()).pipe(Layer.provide(store)) as Layer.Layer<
    KeyStore.KeyStore | Credits.Credits
  >

export const run = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-accounts-"))
  try {
    const json = await Effect.runPromise(measure(
      Layer.mergeAll(KeyStore.layerJsonFile, Credits.layerJsonFile).pipe(
        Layer.provide(AppConfig.layerWith({ dataDir }))
      )
    ))
    const embedded = await Effect.runPromise(measure(sqlAccounts(
      migrated(Pglite.layer({ dataDir: join(dataDir, "db") }), "embedded")
    )))
    const postgresql = await withScratchDatabase("ecds_bench", (url) =>
      Effect.runPromise(measure(sqlAccounts(
        migrated(
          Postgres.layer(Redacted.make(url), {
            url: Option.some(Redacted.make(url)),
            poolSize: 10,
            statementTimeoutMillis: 10_000,
            connectTimeoutMillis: 5_000,
            ssl: Option.none(),
            sslCaFile: Option.none()
          }),
          "postgresql"
        )
      )))).catch((error: unknown) => ({ skipped: `no PostgreSQL at ${new URL(adminUrl).host}: ${String(error)}` }))
    const ratio = (other: typeof json | { skipped: string }) =>
      "skipped" in other ? undefined : {
        p99VsJson: round(other.sequentialMs.p99 / json.sequentialMs.p99),
        cpuMeanVsJson: round(other.cpuMsPerRequest.mean / json.cpuMsPerRequest.mean),
        throughputVsJson: round(other.perSecondAt8Concurrent / json.perSecondAt8Concurrent),
        keyLookupP99VsJson: round(other.keyLookupMs.p99 / json.keyLookupMs.p99)
      }
    return {
      description: `key lookup + one credit charged (hold, settle answering the balance left) per paid request, ` +
        `${iterations} sequential (latency, CPU per request), interleaved with the previous path (spend, then a ` +
        `balance read), then ${iterations} at ${concurrency} concurrent (throughput), in process: the JSON files ` +
        "of the previous version (baseline), the embedded PGlite store on disk, PostgreSQL on loopback",
      load_average: loadavg().map((n) => round(n)),
      goal:
        "accounting adds < 2 ms p99 to a final render (CPU per request: all of it in process for JSON and PGlite, the client side for PostgreSQL); throughput no worse than 0.8 x the JSON store",
      json,
      embedded,
      postgresql,
      ratios: { embedded: ratio(embedded), postgresql: ratio(postgresql) }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
