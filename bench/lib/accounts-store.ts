import type { SqlClient } from "@effect/sql/SqlClient"
import { Context, Effect, Layer, Option, type Scope } from "effect"
import { readFileSync } from "node:fs"
import type pg from "pg"
import * as SqlCredits from "../../src/services/accounts/SqlCredits.ts"
import * as SqlKeys from "../../src/services/accounts/SqlKeys.ts"
import * as Credits from "../../src/services/Credits.ts"
import * as KeyStore from "../../src/services/KeyStore.ts"
import { allocationMeter } from "./allocation.ts"
import { postgresStore } from "./database.ts"

/**
 * One store's side of `bench/accounts.ts`: the requests it times and what it makes of them. Each
 * store runs in a process of its own (`accounts-worker.ts`), as a deployment runs one store.
 */
export const iterations = Number(process.env.BENCH_ACCOUNTS_ITERATIONS ?? 2000)
export const rounds = 20
export const perRound = Math.max(1, Math.round(iterations / rounds))
/**
 * Requests per store before measuring: enough for V8 to finish optimizing the request path, as in
 * a server that has run a while (after 300, a PostgreSQL-only process still compiled about 390
 * functions on a background thread during 3,000 measured requests, about 0.4 s of CPU landing on
 * some of them; after 6,000, 27).
 */
export const warmup = 2000
export const concurrency = 8
export const goalMs = 2

export type StoreName = "json" | "embedded" | "postgresql"

export const emptySamples = (): Samples => ({
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
})

/** One store's accounting, as a final render runs it. */
export interface Subject {
  readonly name: StoreName
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

export interface Samples {
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

export const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

export const round = (value: number) => Math.round(value * 1000) / 1000

export const subject = (
  name: StoreName,
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

export const block = (store: Subject, into: Samples) =>
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
export type Pauses = ReadonlyArray<readonly [number, number]>

export const summary = (samples: Samples, gcs: Pauses) => {
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
export const backendsCpu = (admin: pg.Client, database: string) => async (): Promise<number> => {
  const { rows } = await admin.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'",
    [database]
  )
  return rows.reduce((sum, row) => sum + processCpuMs(row.pid), 0)
}

export const sqlAccounts = <E>(store: Layer.Layer<SqlClient, E>) =>
  Layer.mergeAll(SqlKeys.layer, SqlCredits.layer()).pipe(Layer.provide(store))

export const postgresLayer = (url: string) => postgresStore(url, { poolSize: 10 })

export type Summary = ReturnType<typeof summary>
