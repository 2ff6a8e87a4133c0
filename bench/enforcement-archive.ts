import { SqlClient as SqlClientTag } from "@effect/sql/SqlClient"
import type { SqlClient } from "@effect/sql/SqlClient"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { loadavg } from "node:os"
import { migrated } from "../src/layers/Store.ts"
import * as ArchiveRepo from "../src/services/enforcement/ArchiveRepo.ts"
import * as Pglite from "../src/services/store/Pglite.ts"
import { postgresStore, withScratchDatabase } from "./lib/database.ts"
import * as MiniSearchArchive from "./lib/MiniSearchArchive.ts"
import { percentiles } from "./lib/percentiles.ts"
import { differences, previousAnswer, previousStatement } from "./lib/PreviousArchiveSearch.ts"
import { documents, queries, realisticLengths, synthetic } from "./lib/SyntheticArchive.ts"

const rounds = 300

type Contender = (query: string) => Promise<unknown>

/**
 * The contenders take turns query by query (interleaved), so a change in the machine's load
 * between phases lands on all of them. Wall time and this process's CPU time per query; the CPU
 * of an in-process engine (PGlite, MiniSearch) is all there, a PostgreSQL server's is not.
 */
const race = async (contenders: Record<string, Contender>) => {
  const names = Object.keys(contenders)
  for (const query of queries) for (const name of names) await contenders[name]!(query)
  const wall: Record<string, Array<number>> = Object.fromEntries(names.map((n) => [n, []]))
  const cpu: Record<string, Array<number>> = Object.fromEntries(names.map((n) => [n, []]))
  for (let n = 0; n < rounds; n++) {
    for (const name of names) {
      const cpuStarted = process.cpuUsage()
      const started = performance.now()
      await contenders[name]!(queries[n % queries.length]!)
      wall[name]!.push(performance.now() - started)
      const used = process.cpuUsage(cpuStarted)
      cpu[name]!.push((used.user + used.system) / 1000)
    }
  }
  return Object.fromEntries(names.map((n) => [n, { wall_ms: percentiles(wall[n]!), cpu_ms: percentiles(cpu[n]!) }]))
}

const engine = async (
  store: Layer.Layer<SqlClient, unknown>,
  writes: ReadonlyArray<ArchiveRepo.ArchiveWrite>,
  baseline: Contender
) => {
  const runtime = ManagedRuntime.make(store.pipe(Layer.orDie))
  try {
    const { previous, repo } = await runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClientTag
      const repo = yield* ArchiveRepo.make
      return { repo, previous: (query: string) => previousStatement(sql, query, 20) }
    }))
    const loadStarted = performance.now()
    for (let at = 0; at < writes.length; at += 100) await runtime.runPromise(repo.upsert(writes.slice(at, at + 100)))
    const loadMillis = Math.round(performance.now() - loadStarted)
    // the same hits, order, scores and totals as the statement it replaced, snippets from each hit's text
    const texts = new Map(writes.map((w) => [w.id, [w.party, w.title, w.body].join("\n")]))
    const different: Array<string> = []
    const otherTotals: Array<string> = []
    for (const query of [...queries, "export", "order relating", "respondent lasers w2"]) {
      const { hits, total } = await runtime.runPromise(repo.search(query, undefined, 20))
      const now = { total, hits: hits.map((hit) => ({ id: hit.row.id, score: hit.score, snippet: hit.snippet })) }
      const before = previousAnswer(await runtime.runPromise(previous(query)))
      if (differences(now, before, query, (id) => texts.get(id) ?? "").length > 0) different.push(query)
      if (total !== before.total) otherTotals.push(query)
    }
    const timings = await race({
      sql_fts: (query) => runtime.runPromise(repo.search(query, undefined, 20)),
      previous_statement: (query) => runtime.runPromise(previous(query)),
      minisearch_baseline: baseline
    })
    const ratio = (a: number, b: number) => Math.round((a / Math.max(b, 0.01)) * 100) / 100
    return {
      load_ms: loadMillis,
      same_answers_as_previous_statement: different.length === 0 ? true : different,
      same_totals_as_previous_statement: otherTotals.length === 0 ? true : otherTotals,
      ...timings,
      p99_wall_ratio_sql_over_baseline: ratio(timings.sql_fts!.wall_ms.p99, timings.minisearch_baseline!.wall_ms.p99),
      p99_wall_ratio_sql_over_previous: ratio(timings.sql_fts!.wall_ms.p99, timings.previous_statement!.wall_ms.p99),
      p99_cpu_ratio_sql_over_baseline: ratio(timings.sql_fts!.cpu_ms.p99, timings.minisearch_baseline!.cpu_ms.p99),
      p99_cpu_ratio_sql_over_previous: ratio(timings.sql_fts!.cpu_ms.p99, timings.previous_statement!.cpu_ms.p99)
    }
  } finally {
    await runtime.dispose()
  }
}

/** Both engines and the MiniSearch baseline over one corpus. */
const corpus = async (writes: ReadonlyArray<ArchiveRepo.ArchiveWrite>) => {
  const indexStarted = performance.now()
  const index = MiniSearchArchive.load(MiniSearchArchive.build(writes.map((w) => ({
    id: w.id,
    party: w.party ?? "",
    title: w.title,
    body: w.body ?? ""
  }))))
  const indexMillis = Math.round(performance.now() - indexStarted)
  const bodies = new Map(writes.map((w) => [w.id, w.body ?? ""]))
  const baseline: Contender = async (query) => {
    const terms = MiniSearchArchive.queryTerms(query)
    return index.search(query).slice(0, 20).map((hit) => MiniSearchArchive.snippet(bodies.get(hit.id)!, terms))
  }
  const quiet = <A, E, R>(layer: Layer.Layer<A, E, R>) => Layer.provide(layer, Logger.minimumLogLevel(LogLevel.Warning))
  const embedded = await engine(quiet(migrated(Pglite.layer({}), "embedded")), writes, baseline)
  const postgresql = await withScratchDatabase("ecds_bench_archive", (url) =>
    engine(
      quiet(postgresStore(url, { poolSize: 4 })),
      writes,
      baseline
    ))
  const words = writes.map((w) => (w.body ?? "").split(/\s+/).length).sort((a, b) => a - b)
  return {
    words_per_document: { median: words[words.length >> 1], max: words[words.length - 1] },
    text_mb: Math.round(writes.reduce((n, w) => n + (w.body ?? "").length, 0) / 1e5) / 10,
    minisearch_build_ms: indexMillis,
    load_average_before: loadavg().map((n) => Math.round(n * 100) / 100),
    embedded,
    postgresql
  }
}

/**
 * Archive search, 20 hits with snippets, over 1,100 documents: the SQL full-text search
 * (tsvector + GIN, `ts_rank_cd`, snippets built in the service) on the embedded engine and on PostgreSQL, against
 * the in-process MiniSearch index it replaced (search plus a snippet from each hit's text) and the
 * previous SQL statement, interleaved in one run. Twice: documents of 900 words (the corpus earlier
 * figures were measured on; every search vector fits in its row) and documents of real lengths
 * (2,000 to 60,000 words; long texts' vectors are stored out of line). On the second the previous
 * statement ranks on whole vectors, the search on their first words, so only totals must agree.
 */
export const run = async () => {
  const short = await corpus(synthetic())
  const realistic = await corpus(synthetic(realisticLengths()))
  return {
    description: `archive search over ${documents} synthetic documents, 20 hits with snippets, ` +
      `${rounds} queries each, interleaved: SQL full-text search (embedded engine, PostgreSQL) vs the former ` +
      "in-process MiniSearch index and vs the previous SQL statement; 900-word documents, then real lengths",
    goal: "p99 no worse than 1.25× the former index (0.8× its speed)",
    load_average: loadavg().map((n) => Math.round(n * 100) / 100),
    documents,
    words_900: short,
    realistic_lengths: realistic
  }
}
