import { SqlClient as SqlClientTag } from "@effect/sql/SqlClient"
import type { SqlClient } from "@effect/sql/SqlClient"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime, Option, Redacted } from "effect"
import { loadavg } from "node:os"
import { migrated } from "../src/layers/Store.ts"
import * as ArchiveRepo from "../src/services/enforcement/ArchiveRepo.ts"
import { noFields } from "../src/services/enforcement/Fields.ts"
import * as Pglite from "../src/services/store/Pglite.ts"
import * as Postgres from "../src/services/store/Postgres.ts"
import { withScratchDatabase } from "./lib/database.ts"
import * as MiniSearchArchive from "./lib/MiniSearchArchive.ts"

/** The size SPEC gives for the BIS export-violations catalog. */
const documents = 1100
const rounds = 300

const vocabulary = (
  "respondent export license order denial agreement penalty violation commodity technology software item " +
  "shipment destination consignee freight forwarder invoice classification ECCN controlled regulations " +
  "settlement charging letter administrative civil criminal investigation transaction payment entity " +
  "customer distributor subsidiary foreign national dual-use aircraft parts components sensors lasers " +
  "thermal cameras encryption semiconductors oscilloscopes amplifiers valves pumps machine tools chemicals " +
  "reexport transfer in-country diversion end user end use military intelligence procurement network " +
  "false statement recordkeeping evasion conspiracy aiding abetting knowledge reason to know suspended"
).split(" ")

/** A deterministic pseudo-random sequence, so every run benchmarks the same archive. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const common = ["export", "license", "order", "respondent", "regulations", "violation"]
const filler = Array.from({ length: 3000 }, (_, n) => `w${n.toString(36)}`)

/**
 * 1,100 documents of 900 words. Like real cases, each document is about a few topics (items,
 * conduct) drawn from the domain words, uses a handful of words that occur in every case
 * ("export", "license"), and otherwise draws from a long-tailed vocabulary.
 */
export const synthetic = (): Array<ArchiveRepo.ArchiveWrite> => {
  const next = random(42)
  const pick = <A>(from: ReadonlyArray<A>, skew = 1) => from[Math.floor(Math.pow(next(), skew) * from.length)]!
  return Array.from({ length: documents }, (_, i) => {
    const n = i + 1
    const topics = Array.from({ length: 8 }, () => pick(vocabulary))
    const word = () => {
      const roll = next()
      return roll < 0.05 ? pick(common) : roll < 0.3 ? pick(topics) : pick(filler, 2)
    }
    const paragraphs = Array.from({ length: 9 }, () => Array.from({ length: 100 }, word).join(" ") + ".")
    const body = `## Synthetic benchmark case ${n}\n\n${paragraphs.join("\n\n")}`
    return {
      id: `bis-case:B${String(n).padStart(5, "0")}`,
      agency: "BIS",
      source: "bench",
      party: `Synthetic Benchmark Party ${n}`,
      title: `Order Relating to Synthetic Benchmark Party ${n}`,
      date: `2098-${String((n % 12) + 1).padStart(2, "0")}-${String((n % 28) + 1).padStart(2, "0")}`,
      parseStatus: "parsed",
      parseReason: null,
      parseAttempts: 1,
      parserVersion: 1,
      originalDocUrl: null,
      sourceUrl: null,
      pdfSha256: null,
      pages: 3,
      textChars: body.length,
      body,
      fields: noFields,
      fingerprint: null
    }
  })
}

const queries = ["thermal cameras export", "encryption software", "freight forwarder invoice", "lasers", "w1a"]
const percentiles = (samples: Array<number>) => {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]! * 100) / 100
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) }
}

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

/** The statement this stop replaced, run on the same database: the answers must be the same. */
const previousStatement = (sql: SqlClient, query: string, limit: number) => {
  const terms = ArchiveRepo.queryTerms(query)
  return sql.withTransaction(Effect.zipRight(
    sql`SET LOCAL enable_seqscan = off`,
    sql`WITH q AS (SELECT to_tsquery('english', ${ArchiveRepo.tsQuery(terms)}) AS query),
      stems AS (
        SELECT coalesce(array_agg(lexeme), '{}') AS lexemes
        FROM unnest(tsvector_to_array(to_tsvector('english', ${terms.join(" ")}))) AS lexeme
      ),
      matched AS (
        SELECT d.id, d.date, ts_rank_cd(d.search, q.query) AS score, count(*) OVER () AS total
        FROM enforcement_documents d, q WHERE d.search @@ q.query
        ORDER BY score DESC, d.date DESC NULLS LAST, d.id LIMIT ${limit}
      ),
      placed AS (
        SELECT m.id, m.score, m.total,
          (SELECT min(nullif(strpos(lower(d.body), lexeme), 0)) FROM unnest(stems.lexemes) AS lexeme) AS at
        FROM matched m JOIN enforcement_documents d USING (id), stems
      )
      SELECT d.id, p.score, p.total,
        ts_headline('english',
          concat_ws(E'\n', d.party, d.title, CASE WHEN p.at IS NULL THEN left(d.body, 100000)
            ELSE substr(d.body, greatest(1, p.at - 400), 1600) END),
          q.query,
          'MaxFragments=2, MaxWords=30, MinWords=12, StartSel=**, StopSel=**, FragmentDelimiter=" … "'
        ) AS snippet
      FROM placed p JOIN enforcement_documents d USING (id), q
      ORDER BY p.score DESC, d.date DESC NULLS LAST, d.id`
  ))
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
    // the same hits, scores and snippets as the statement it replaced
    const different: Array<string> = []
    for (const query of [...queries, "export", "order relating", "respondent lasers w2"]) {
      const now = await runtime.runPromise(repo.search(query, undefined, 20))
      const before = (await runtime.runPromise(previous(query))) as ReadonlyArray<any>
      const same = now.hits.length === before.length && now.total === Number(before[0]?.total ?? 0) &&
        now.hits.every((hit, i) =>
          hit.row.id === before[i].id && hit.score === Math.round(Number(before[i].score) * 1000) / 1000 &&
          hit.snippet === before[i].snippet.replace(/<!--[^>]*-->/g, " ").replace(/\s+/g, " ").trim()
        )
      if (!same) different.push(query)
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
      ...timings,
      p99_wall_ratio_sql_over_baseline: ratio(timings.sql_fts!.wall_ms.p99, timings.minisearch_baseline!.wall_ms.p99),
      p99_wall_ratio_sql_over_previous: ratio(timings.sql_fts!.wall_ms.p99, timings.previous_statement!.wall_ms.p99),
      p99_cpu_ratio_sql_over_baseline: ratio(timings.sql_fts!.cpu_ms.p99, timings.minisearch_baseline!.cpu_ms.p99)
    }
  } finally {
    await runtime.dispose()
  }
}

/**
 * Archive search, 20 hits with snippets, over the same 1,100 documents: the SQL full-text search
 * (tsvector + GIN, `ts_rank_cd`, `ts_headline`) on the embedded engine and on PostgreSQL, against
 * the in-process MiniSearch index it replaced (search plus a snippet from each hit's text) and the
 * previous SQL statement, interleaved in one run.
 */
export const run = async () => {
  const writes = synthetic()
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
      quiet(migrated(
        Postgres.layer(Redacted.make(url), {
          url: Option.some(Redacted.make(url)),
          poolSize: 4,
          statementTimeoutMillis: 10_000,
          connectTimeoutMillis: 5_000,
          ssl: Option.none(),
          sslCaFile: Option.none()
        }),
        "postgresql"
      )),
      writes,
      baseline
    ))
  return {
    description: `archive search over ${documents} synthetic documents (900 words each), 20 hits with snippets, ` +
      `${rounds} queries each, interleaved: SQL full-text search (embedded engine, PostgreSQL) vs the former ` +
      "in-process MiniSearch index and vs the previous SQL statement",
    goal: "p99 no worse than 1.25× the former index (0.8× its speed)",
    load_average: loadavg().map((n) => Math.round(n * 100) / 100),
    documents,
    minisearch_build_ms: indexMillis,
    embedded,
    postgresql
  }
}
