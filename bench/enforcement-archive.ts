import { Effect, Layer, ManagedRuntime } from "effect"
import { migrated } from "../src/layers/Store.ts"
import * as ArchiveRepo from "../src/services/enforcement/ArchiveRepo.ts"
import { noFields } from "../src/services/enforcement/Fields.ts"
import * as Pglite from "../src/services/store/Pglite.ts"
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
const synthetic = (): Array<ArchiveRepo.ArchiveWrite> => {
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

const time = async (run: (query: string) => Promise<unknown>) => {
  for (const query of queries) await run(query)
  const samples: Array<number> = []
  for (let n = 0; n < rounds; n++) {
    const started = performance.now()
    await run(queries[n % queries.length]!)
    samples.push(performance.now() - started)
  }
  return percentiles(samples)
}

/**
 * Archive search, 20 hits with snippets, over the same 1,100 documents: the SQL full-text search
 * (tsvector + GIN, `ts_rank_cd`, `ts_headline`) on the embedded engine against the in-process
 * MiniSearch index it replaced (search plus a snippet from each hit's text), in one run.
 */
export const run = async () => {
  const writes = synthetic()
  const runtime = ManagedRuntime.make(migrated(Pglite.layer({}), "embedded").pipe(Layer.orDie))
  try {
    const repo = await runtime.runPromise(ArchiveRepo.make)
    const loadStarted = performance.now()
    for (let at = 0; at < writes.length; at += 100) await runtime.runPromise(repo.upsert(writes.slice(at, at + 100)))
    const loadMillis = Math.round(performance.now() - loadStarted)
    const sql = await time((query) => runtime.runPromise(repo.search(query, undefined, 20)))

    const indexStarted = performance.now()
    const index = MiniSearchArchive.load(MiniSearchArchive.build(writes.map((w) => ({
      id: w.id,
      party: w.party ?? "",
      title: w.title,
      body: w.body ?? ""
    }))))
    const indexMillis = Math.round(performance.now() - indexStarted)
    const bodies = new Map(writes.map((w) => [w.id, w.body ?? ""]))
    const baseline = await time(async (query) => {
      const terms = MiniSearchArchive.queryTerms(query)
      return index.search(query).slice(0, 20).map((hit) => MiniSearchArchive.snippet(bodies.get(hit.id)!, terms))
    })
    const hits = await runtime.runPromise(
      Effect.map(repo.search("thermal cameras export", undefined, 20), (r) => r.total)
    )
    return {
      description: `archive search over ${documents} synthetic documents (900 words each), 20 hits with snippets, ` +
        `${rounds} queries: SQL full-text search on the embedded engine vs the former in-process MiniSearch index`,
      goal: "SQL search p99 under 100 ms on the embedded engine",
      documents,
      matches_for_sample_query: hits,
      load_ms: { sql_upsert: loadMillis, minisearch_build: indexMillis },
      sql_fts_ms: sql,
      minisearch_baseline_ms: baseline,
      p99_ratio_sql_over_baseline: Math.round((sql.p99 / Math.max(baseline.p99, 0.01)) * 100) / 100
    }
  } finally {
    await runtime.dispose()
  }
}
