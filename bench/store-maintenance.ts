import { SqlClient } from "@effect/sql/SqlClient"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { loadavg } from "node:os"
import { migrated } from "../src/layers/Store.ts"
import * as ArchiveRepo from "../src/services/enforcement/ArchiveRepo.ts"
import * as Pglite from "../src/services/store/Pglite.ts"
import * as PgliteMaintenance from "../src/services/store/PgliteMaintenance.ts"
import { percentiles } from "./lib/percentiles.ts"
import { documents, queries, synthetic } from "./lib/SyntheticArchive.ts"

const rounds = 300
const reimports = 3

const load = () => loadavg().map((n) => Math.round(n * 100) / 100)
const round = (n: number) => Math.round(n * 100) / 100

/** Wall and this process's CPU milliseconds of `work` (PGlite runs in this process). */
const timed = async <A>(work: () => Promise<A>) => {
  const cpu = process.cpuUsage()
  const started = performance.now()
  const result = await work()
  const used = process.cpuUsage(cpu)
  return { result, wall_ms: round(performance.now() - started), cpu_ms: round((used.user + used.system) / 1000) }
}

const store = () =>
  ManagedRuntime.make(
    migrated(Pglite.layer({}), "embedded").pipe(Layer.provide(Logger.minimumLogLevel(LogLevel.Warning)), Layer.orDie)
  )

type Store = ReturnType<typeof store>

const archiveBytes = (runtime: Store) =>
  runtime.runPromise(
    Effect.flatMap(SqlClient, (sql) =>
      sql<{ size: number }>`SELECT pg_total_relation_size('enforcement_documents')::bigint AS size`.pipe(
        Effect.map((rows) =>
          rows[0]!.size
        )
      ))
  )

/**
 * The embedded store's maintenance (`PgliteMaintenance`) over the archive benchmark's 1,100
 * documents: how long a pass holds the store's connection, what the archive table weighs after
 * repeated re-imports with and without it, and archive search on an analyzed store against a
 * never-analyzed one (queries interleaved between the two, same run).
 */
export const run = async () => {
  const writes = synthetic()
  const maintained = store()
  const plain = store()
  try {
    const repos = await Promise.all([maintained, plain].map((runtime) => runtime.runPromise(ArchiveRepo.make)))
    const importAll = (runtime: Store, repo: ArchiveRepo.ArchiveRepo) => async () => {
      for (let at = 0; at < writes.length; at += 100) await runtime.runPromise(repo.upsert(writes.slice(at, at + 100)))
    }
    await importAll(maintained, repos[0]!)()
    await importAll(plain, repos[1]!)()
    const afterImport = await archiveBytes(plain)

    // the first pass after start: every table
    const first = await timed(() => maintained.runPromise(PgliteMaintenance.pass(true)))
    const quiet = await timed(() => maintained.runPromise(PgliteMaintenance.pass(false)))

    // search, analyzed (maintained) against never analyzed (plain), interleaved query by query
    const search = (runtime: Store, repo: ArchiveRepo.ArchiveRepo) => (query: string) =>
      runtime.runPromise(repo.search(query, undefined, 20))
    const contenders = { analyzed: search(maintained, repos[0]!), never_analyzed: search(plain, repos[1]!) }
    const cpu: Record<string, Array<number>> = { analyzed: [], never_analyzed: [] }
    const wall: Record<string, Array<number>> = { analyzed: [], never_analyzed: [] }
    for (const query of queries) for (const contender of Object.values(contenders)) await contender(query)
    const searchLoad = load()
    for (let n = 0; n < rounds; n++) {
      for (const [name, contender] of Object.entries(contenders)) {
        const t = await timed(() => contender(queries[n % queries.length]!))
        cpu[name]!.push(t.cpu_ms)
        wall[name]!.push(t.wall_ms)
      }
    }
    const searchCpu = { analyzed: percentiles(cpu.analyzed!), never_analyzed: percentiles(cpu.never_analyzed!) }

    // re-imports of every document, a pass after each on the maintained store
    const passes: Array<{ wall_ms: number; cpu_ms: number; tables: number }> = []
    for (let n = 0; n < reimports; n++) {
      await importAll(maintained, repos[0]!)()
      await importAll(plain, repos[1]!)()
      const t = await timed(() => maintained.runPromise(PgliteMaintenance.pass(false)))
      passes.push({ wall_ms: t.wall_ms, cpu_ms: t.cpu_ms, tables: t.result.length })
    }
    return {
      description: `embedded store maintenance over ${documents} synthetic archive documents: a pass's duration ` +
        `(it holds the store's connection one table at a time), the archive table after ${reimports} re-imports ` +
        `with and without it, and archive search CPU on an analyzed store against a never-analyzed one ` +
        `(${rounds} queries each, interleaved)`,
      load_average: load(),
      first_pass_every_table: { wall_ms: first.wall_ms, cpu_ms: first.cpu_ms, tables: first.result.length },
      pass_with_nothing_due: { wall_ms: quiet.wall_ms, cpu_ms: quiet.cpu_ms },
      pass_after_each_reimport: passes,
      archive_bytes: {
        after_first_import: afterImport,
        [`after_${reimports}_reimports_maintained`]: await archiveBytes(maintained),
        [`after_${reimports}_reimports_never`]: await archiveBytes(plain)
      },
      search_load_average: searchLoad,
      search_cpu_ms: searchCpu,
      search_wall_ms: { analyzed: percentiles(wall.analyzed!), never_analyzed: percentiles(wall.never_analyzed!) },
      search_cpu_ratio_analyzed_over_never: {
        p50: round(searchCpu.analyzed.p50 / searchCpu.never_analyzed.p50),
        p99: round(searchCpu.analyzed.p99 / searchCpu.never_analyzed.p99)
      }
    }
  } finally {
    await maintained.dispose()
    await plain.dispose()
  }
}
