import type { SqlClient } from "@effect/sql/SqlClient"
import { Effect, Layer, Logger, LogLevel, Option, Redacted } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { migrated } from "../src/layers/Store.ts"
import * as SqlCredits from "../src/services/accounts/SqlCredits.ts"
import * as SqlKeys from "../src/services/accounts/SqlKeys.ts"
import * as AppConfig from "../src/services/AppConfig.ts"
import * as Credits from "../src/services/Credits.ts"
import * as KeyStore from "../src/services/KeyStore.ts"
import * as Pglite from "../src/services/store/Pglite.ts"
import * as Postgres from "../src/services/store/Postgres.ts"

const iterations = Number(process.env.BENCH_ACCOUNTS_ITERATIONS ?? 1000)
const warmup = 100
const concurrency = 8
const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/test"

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

const round = (value: number) => Math.round(value * 1000) / 1000

/**
 * What a paid request costs in accounting: the key lookup every request with a key makes
 * (`KeyStore.verify`), and the credit a final render spends (`Credits.spend`: hold, then settle on
 * delivery), as the render path runs them one after another. Measured in process on each store.
 */
const measure = (accounts: Layer.Layer<KeyStore.KeyStore | Credits.Credits>) =>
  Effect.gen(function*() {
    const keys = yield* KeyStore.KeyStore
    const credits = yield* Credits.Credits
    const { key, record } = yield* keys.create({ label: "bench", plan: "enterprise" })
    yield* credits.add(record.keyId, iterations * 2 + warmup + 1000)
    const paidRequest = Effect.gen(function*() {
      const found = yield* keys.verify(key)
      if (Option.isNone(found)) return yield* Effect.die("the bench key was not found")
      yield* credits.spend(record.keyId, Effect.void)
    })
    for (let i = 0; i < warmup; i++) yield* paidRequest
    const latencies: Array<number> = []
    // this process's CPU (all of it for the JSON files and PGlite; the client side only for PostgreSQL)
    const cpuStarted = process.cpuUsage()
    for (let i = 0; i < iterations; i++) {
      const start = performance.now()
      yield* paidRequest
      latencies.push(performance.now() - start)
    }
    const cpuUsed = process.cpuUsage(cpuStarted)
    latencies.sort((a, b) => a - b)
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
    if (spent !== warmup + iterations * 2) {
      return yield* Effect.die(`spent ${spent}, expected ${warmup + iterations * 2}`)
    }
    return {
      sequentialMs: {
        p50: round(percentile(latencies, 0.5)),
        p99: round(percentile(latencies, 0.99)),
        max: round(latencies[latencies.length - 1]!)
      },
      cpuMsPerRequest: round((cpuUsed.user + cpuUsed.system) / 1000 / iterations),
      perSecondAt8Concurrent: Math.round(iterations / concurrentSeconds),
      keyLookupMs: { p50: round(percentile(lookups, 0.5)), p99: round(percentile(lookups, 0.99)) }
    }
  }).pipe(Effect.provide(accounts), Logger.withMinimumLogLevel(LogLevel.Warning))

const sqlAccounts = (store: Layer.Layer<SqlClient, unknown>) =>
  Layer.mergeAll(SqlKeys.layer, SqlCredits.layer()).pipe(Layer.provide(store)) as Layer.Layer<
    KeyStore.KeyStore | Credits.Credits
  >

const withDatabase = async <A>(use: (url: string) => Promise<A>) => {
  const name = `ecds_bench_${process.pid}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${name}`)
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    return await use(url.href)
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.end()
  }
}

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
    const postgresql = await withDatabase((url) =>
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
      )))
    ).catch((error: unknown) => ({ skipped: `no PostgreSQL at ${new URL(adminUrl).host}: ${String(error)}` }))
    const ratio = (other: typeof json | { skipped: string }) =>
      "skipped" in other ? undefined : {
        p99VsJson: round(other.sequentialMs.p99 / json.sequentialMs.p99),
        throughputVsJson: round(other.perSecondAt8Concurrent / json.perSecondAt8Concurrent),
        keyLookupP99VsJson: round(other.keyLookupMs.p99 / json.keyLookupMs.p99)
      }
    return {
      description: `key lookup + one credit spent (hold, settle) per paid request, ${iterations} sequential ` +
        `(latency) then ${iterations} at ${concurrency} concurrent (throughput), in process: the JSON files ` +
        "of the previous version (baseline), the embedded PGlite store on disk, PostgreSQL on loopback",
      load_average: loadavg().map((n) => round(n)),
      goal: "accounting adds < 2 ms p99 to a final render; throughput no worse than 0.8 x the JSON store",
      json,
      embedded,
      postgresql,
      ratios: { embedded: ratio(embedded), postgresql: ratio(postgresql) }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
