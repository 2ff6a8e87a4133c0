import type { SqlClient } from "@effect/sql/SqlClient"
import { Context, Effect, Layer, Logger, LogLevel, Option, type Scope } from "effect"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { PerformanceObserver } from "node:perf_hooks"
import pg from "pg"
import { migrated } from "../src/layers/Store.ts"
import * as Tracing from "../src/layers/Tracing.ts"
import * as SqlCredits from "../src/services/accounts/SqlCredits.ts"
import * as SqlKeys from "../src/services/accounts/SqlKeys.ts"
import * as AppConfig from "../src/services/AppConfig.ts"
import * as Credits from "../src/services/Credits.ts"
import * as KeyStore from "../src/services/KeyStore.ts"
import * as Pglite from "../src/services/store/Pglite.ts"
import { allocationMeter } from "./lib/allocation.ts"
import { adminUrl, postgresStore, withScratchDatabase } from "./lib/database.ts"

const iterations = Number(process.env.BENCH_ACCOUNTS_ITERATIONS ?? 2000)
const rounds = 20
const perRound = Math.max(1, Math.round(iterations / rounds))
const warmup = 300
const concurrency = 8
const goalMs = 2

/** One store's accounting, as a final render runs it. */
interface Subject {
  readonly name: "json" | "embedded" | "postgresql"
  /** `KeyStore.verify`: every request with a key pays it. */
  readonly lookup: Effect.Effect<void>
  /**
   * `Credits.charge` around the render: hold a credit, run the render (here nothing), settle the
   * credit once delivered (the settlement answers the balance left); answers when the render ran.
   */
  readonly charge: Effect.Effect<number>
  readonly spent: Effect.Effect<number>
  /** CPU (ms) the database server's backends for this store have used so far, where they can be observed. */
  readonly serverCpuMs?: () => Promise<number>
}

interface Samples {
  readonly wall: Array<number>
  /** When each sequential request started (`performance.now()`), to find the ones a GC ran in. */
  readonly started: Array<number>
  readonly cpu: Array<number>
  readonly lookup: Array<number>
  readonly hold: Array<number>
  readonly settle: Array<number>
  /** Lookup and hold: what a client waits for before its render starts (settling follows delivery). */
  readonly beforeRender: Array<number>
  /** Hold and settle: what a final render adds to its request beyond the lookup every keyed request pays. */
  readonly holdAndSettle: Array<number>
  /** JavaScript heap bytes this process allocated during the sequential requests. */
  allocatedBytes: number
  serverCpuMs: number
  concurrentMs: number
  concurrentOps: number
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

const round = (value: number) => Math.round(value * 1000) / 1000

const subject = (
  name: Subject["name"],
  accounts: Layer.Layer<KeyStore.KeyStore | Credits.Credits, unknown>,
  serverCpuMs?: () => Promise<number>
): Effect.Effect<Subject, never, Scope.Scope> =>
  Effect.gen(function*() {
    const context = yield* Effect.orDie(Layer.build(accounts))
    const keys = Context.get(context, KeyStore.KeyStore)
    const credits = Context.get(context, Credits.Credits)
    const { key, record } = yield* keys.create({ label: "bench", plan: "enterprise" })
    yield* credits.add(record.keyId, warmup + 2 * rounds * perRound + 100)
    return {
      name,
      lookup: Effect.flatMap(
        keys.verify(key),
        (found) => Option.isNone(found) ? Effect.die("the bench key was not found") : Effect.void
      ).pipe(Effect.orDie),
      charge: Effect.map(
        Effect.orDie(credits.charge(record.keyId, Effect.sync(() => performance.now()))),
        (charged) => charged.value
      ),
      spent: Effect.map(credits.usage(record.keyId), (usage) => usage.spent),
      ...(serverCpuMs === undefined ? {} : { serverCpuMs })
    }
  })

/**
 * One paid request's accounting, timed: wall for the whole and per part (lookup, hold up to the
 * render's start, settle after it), this process's CPU for the whole.
 */
const timedOnce = (store: Subject, into: Samples) =>
  Effect.gen(function*() {
    // this process's CPU: all of it for the JSON files and PGlite, the client side for PostgreSQL
    const cpuStarted = process.cpuUsage()
    const started = performance.now()
    yield* store.lookup
    const looked = performance.now()
    const rendered = yield* store.charge
    const ended = performance.now()
    const cpu = process.cpuUsage(cpuStarted)
    into.wall.push(ended - started)
    into.started.push(started)
    into.lookup.push(looked - started)
    into.hold.push(rendered - looked)
    into.settle.push(ended - rendered)
    into.beforeRender.push(rendered - started)
    into.holdAndSettle.push(ended - looked)
    into.cpu.push((cpu.user + cpu.system) / 1000)
  })

const block = (store: Subject, into: Samples) =>
  Effect.gen(function*() {
    const serverBefore = store.serverCpuMs === undefined ? 0 : yield* Effect.promise(store.serverCpuMs)
    const allocated = allocationMeter()
    for (let i = 0; i < perRound; i++) yield* timedOnce(store, into)
    into.allocatedBytes += allocated()
    if (store.serverCpuMs !== undefined) into.serverCpuMs += (yield* Effect.promise(store.serverCpuMs)) - serverBefore
    // throughput: the same accounting for requests arriving together
    const started = performance.now()
    const paid = Effect.zipRight(store.lookup, store.charge)
    yield* Effect.all(Array.from({ length: perRound }, () => paid), { concurrency, discard: true })
    into.concurrentMs += performance.now() - started
    into.concurrentOps += perRound
  })

/** Garbage collections as `[start, end]` in `performance.now()` time. */
type Pauses = ReadonlyArray<readonly [number, number]>

const summary = (samples: Samples, gcs: Pauses) => {
  const sorted = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)
  const wall = sorted(samples.wall)
  const cpu = sorted(samples.cpu)
  const spread = (values: ReadonlyArray<number>) => {
    const ordered = sorted(values)
    return { p50: round(percentile(ordered, 0.5)), p99: round(percentile(ordered, 0.99)) }
  }
  const cpuMean = cpu.reduce((sum, value) => sum + value, 0) / cpu.length
  // a collection is the whole process's allocation paid back, landing on whichever request runs then
  const clear = samples.wall.map((wallMs, i) => {
    const from = samples.started[i]!
    return !gcs.some(([start, end]) => start < from + wallMs && end > from)
  })
  const wallClear = sorted(samples.wall.filter((_, i) => clear[i]))
  const cpuClear = sorted(samples.cpu.filter((_, i) => clear[i]))
  return {
    wallMs: {
      p50: round(percentile(wall, 0.5)),
      p90: round(percentile(wall, 0.9)),
      p99: round(percentile(wall, 0.99)),
      max: round(wall.at(-1)!)
    },
    overGoalShare: round(wall.filter((value) => value >= goalMs).length / wall.length),
    cpuMs: { mean: round(cpuMean), p50: round(percentile(cpu, 0.5)), p99: round(percentile(cpu, 0.99)) },
    allocatedKbMean: round(samples.allocatedBytes / samples.wall.length / 1024),
    gc: {
      share: round(1 - wallClear.length / wall.length),
      withoutGcP99: { wallMs: round(percentile(wallClear, 0.99)), cpuMs: round(percentile(cpuClear, 0.99)) }
    },
    ...(samples.serverCpuMs > 0 ?
      {
        serverCpuMsMean: round(samples.serverCpuMs / wall.length),
        totalCpuMsMean: round(cpuMean + samples.serverCpuMs / wall.length)
      } :
      {}),
    partsWallMs: {
      keyLookup: spread(samples.lookup),
      hold: spread(samples.hold),
      settle: spread(samples.settle),
      beforeRender: spread(samples.beforeRender),
      holdAndSettle: spread(samples.holdAndSettle)
    },
    perSecondAt8Concurrent: Math.round(samples.concurrentOps / (samples.concurrentMs / 1000))
  }
}

/**
 * Warm-up, then `rounds` rounds in which every store runs a block (sequential requests, then as
 * many at 8 concurrent), the stores' order rotating each round: a burst of load from elsewhere on
 * the machine, or a slow start, falls on every store alike instead of on whichever ran then.
 */
const measureAll = (stores: ReadonlyArray<Subject>) =>
  Effect.gen(function*() {
    const samples = stores.map((): Samples => ({
      wall: [],
      started: [],
      cpu: [],
      lookup: [],
      hold: [],
      settle: [],
      beforeRender: [],
      holdAndSettle: [],
      allocatedBytes: 0,
      serverCpuMs: 0,
      concurrentMs: 0,
      concurrentOps: 0
    }))
    const gcs: Array<readonly [number, number]> = []
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) gcs.push([entry.startTime, entry.startTime + entry.duration])
    })
    observer.observe({ entryTypes: ["gc"] })
    for (const store of stores) {
      for (let i = 0; i < warmup; i++) yield* Effect.zipRight(store.lookup, store.charge)
    }
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < stores.length; k++) {
        const index = (r + k) % stores.length
        yield* block(stores[index]!, samples[index]!)
      }
    }
    for (const store of stores) {
      const spent = yield* store.spent
      const expected = warmup + 2 * rounds * perRound
      if (spent !== expected) return yield* Effect.die(`${store.name}: spent ${spent}, expected ${expected}`)
    }
    // the observer is told of collections a moment after they happened
    yield* Effect.sleep("50 millis")
    observer.disconnect()
    return samples.map((of) => summary(of, gcs))
  })

/** utime + stime of a process in ms (`/proc/<pid>/stat` counts in USER_HZ, 100 per second on Linux). */
const processCpuMs = (pid: number): number => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return 0
  }
}

/**
 * The CPU of the PostgreSQL backends serving `database`, when the server runs on this machine:
 * the accounting's other half, which `process.cpuUsage` does not see. Backends that ended since
 * are lost, so the pool's connections stay up through the run (idle timeout 30 s).
 */
const backendsCpu = (admin: pg.Client, database: string) => async (): Promise<number> => {
  const { rows } = await admin.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'",
    [database]
  )
  return rows.reduce((sum, row) => sum + processCpuMs(row.pid), 0)
}

const sqlAccounts = <E>(store: Layer.Layer<SqlClient, E>) =>
  Layer.mergeAll(SqlKeys.layer, SqlCredits.layer()).pipe(Layer.provide(store))

const postgresLayer = (url: string) => postgresStore(url, { poolSize: 10 })

const reachable = async (url: string): Promise<string | undefined> => {
  const client = new pg.Client({ connectionString: url })
  try {
    await client.connect()
    await client.query("SELECT 1")
    return undefined
  } catch (error) {
    return `no PostgreSQL at ${new URL(url).host}: ${String(error)}`
  } finally {
    await client.end().catch(() => undefined)
  }
}

const measure = (dataDir: string, postgres: { url: string; admin: pg.Client } | undefined) =>
  Effect.gen(function*() {
    const stores: Array<Subject> = [
      yield* subject(
        "json",
        Layer.mergeAll(KeyStore.layerJsonFile, Credits.layerJsonFile).pipe(
          Layer.provide(AppConfig.layerWith({ dataDir }))
        )
      ),
      yield* subject("embedded", sqlAccounts(migrated(Pglite.layer({ dataDir: join(dataDir, "db") }), "embedded")))
    ]
    if (postgres !== undefined) {
      const database = new URL(postgres.url).pathname.slice(1)
      stores.push(
        yield* subject(
          "postgresql",
          sqlAccounts(postgresLayer(postgres.url)),
          existsSync("/proc/self/stat") ? backendsCpu(postgres.admin, database) : undefined
        )
      )
    }
    const results = yield* measureAll(stores)
    return Object.fromEntries(stores.map((store, i) => [store.name, results[i]!]))
  }).pipe(
    Effect.scoped,
    // as the service runs them: its entries assemble the app with tracing off
    Effect.provide(Tracing.disabled),
    Logger.withMinimumLogLevel(LogLevel.Warning)
  )

type Summary = ReturnType<typeof summary>

const ratios = (other: Summary | undefined, json: Summary) =>
  other === undefined ? undefined : {
    wallP50VsJson: round(other.wallMs.p50 / json.wallMs.p50),
    wallP99VsJson: round(other.wallMs.p99 / json.wallMs.p99),
    cpuMeanVsJson: round(other.cpuMs.mean / json.cpuMs.mean),
    ...(other.totalCpuMsMean === undefined
      ? {}
      : { totalCpuMeanVsJson: round(other.totalCpuMsMean / json.cpuMs.mean) }),
    throughputVsJson: round(other.perSecondAt8Concurrent / json.perSecondAt8Concurrent)
  }

export const run = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-accounts-"))
  const loadAtStart = loadavg().map(round)
  try {
    const unreachable = await reachable(adminUrl)
    const results: Record<string, Summary> = unreachable === undefined
      ? await withScratchDatabase("ecds_bench", async (url) => {
        const admin = new pg.Client({ connectionString: adminUrl })
        await admin.connect()
        try {
          return await Effect.runPromise(measure(dataDir, { url, admin }))
        } finally {
          await admin.end()
        }
      })
      : await Effect.runPromise(measure(dataDir, undefined))
    const json = results.json!
    return {
      description: `the accounting of one final render (key lookup, then hold and settle of one credit, as the ` +
        `render path runs them), in process: the JSON files of the previous version (baseline), the embedded ` +
        `PGlite store on disk, PostgreSQL on loopback. ${warmup} warm-up requests per store, then ${rounds} rounds ` +
        `in which each store runs ${perRound} sequential requests (wall, CPU) and ${perRound} at ${concurrency} ` +
        "concurrent (throughput), the stores' order rotating each round",
      load_average: { start: loadAtStart, end: loadavg().map(round) },
      goal: `accounting adds < ${goalMs} ms p99 to a final render; throughput no worse than 0.8 x the JSON store. ` +
        "A client waits for the lookup and the hold before its render starts (partsWallMs.beforeRender). REST " +
        "`/pdf` settles once the document was delivered, so there the settlement costs CPU (cpuMs) but no " +
        "latency; an MCP document tool answers with the balance the settlement reports, so it waits for it. " +
        "The lookup is paid by every request with a key, final render or not: hold and settle together " +
        "(partsWallMs.holdAndSettle) are what a final render adds. Wall p99 on a loaded machine includes " +
        "waiting for a core; CPU per request does not (all of it in process for JSON and PGlite; for PostgreSQL " +
        "this process's share plus, when the server runs here, its backends' (serverCpuMsMean)). " +
        "allocatedKbMean is the JavaScript heap one sequential request allocates: the garbage young-generation " +
        "collections pay back, whose pauses are most of the embedded store's wall tail (gc)",
      json,
      embedded: results.embedded,
      postgresql: results.postgresql ?? { skipped: unreachable },
      ratios: { embedded: ratios(results.embedded, json), postgresql: ratios(results.postgresql, json) }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
