import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as ArchiveIndex from "../src/services/enforcement/ArchiveIndex.ts"
import * as ArchiveStore from "../src/services/enforcement/ArchiveStore.ts"
import { archiveRoot } from "../src/services/EnforcementLake.ts"
import { compare } from "./lib/load.ts"
import { startBareServer, startService } from "./lib/processes.ts"

/** The size SPEC gives for the BIS export-violations catalog. */
const documents = 1100

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
 * Writes a synthetic archive straight into the store (PDF extraction is an import-time cost and
 * not what is measured here): 1,100 documents of 900 words. Like real cases, each document is
 * about a few topics (items, conduct) drawn from the domain words, uses a handful of words that
 * occur in every case ("export", "license"), and otherwise draws from a long-tailed vocabulary.
 */
const buildArchive = async (dataDir: string) => {
  const store = ArchiveStore.make(archiveRoot(dataDir))
  const next = random(42)
  const pick = <A>(from: ReadonlyArray<A>, skew = 1) => from[Math.floor(Math.pow(next(), skew) * from.length)]!
  const catalog: Array<ArchiveStore.StoredDocument> = []
  const indexed: Array<ArchiveIndex.IndexedDocument> = []
  for (let n = 1; n <= documents; n++) {
    const topics = Array.from({ length: 8 }, () => pick(vocabulary))
    const word = () => {
      const roll = next()
      return roll < 0.05 ? pick(common) : roll < 0.3 ? pick(topics) : pick(filler, 2)
    }
    const paragraphs = Array.from({ length: 9 }, () => Array.from({ length: 100 }, word).join(" ") + ".")
    const text = `## Synthetic benchmark case ${n}\n\n${paragraphs.join("\n\n")}`
    const id = `bis-case:B${String(n).padStart(5, "0")}`
    const party = `Synthetic Benchmark Party ${n}`
    const title = `Order Relating to Synthetic Benchmark Party ${n}`
    catalog.push({
      id,
      agency: "BIS",
      party,
      title,
      date: `2098-${String((n % 12) + 1).padStart(2, "0")}-${String((n % 28) + 1).padStart(2, "0")}`,
      parse_status: "parsed",
      original_doc_url: null,
      source_url: null,
      pdf_sha256: null,
      text_sha256: await store.putBlob(new TextEncoder().encode(text), "md"),
      pages: 3,
      text_chars: text.length
    })
    indexed.push({ id, party, title, body: text })
  }
  const now = new Date()
  await store.publish(
    { format: 1, imported_at: now.toISOString(), documents: catalog },
    ArchiveIndex.build(indexed),
    now
  )
}

export const run = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-enforcement-"))
  try {
    await buildArchive(dataDir)
    const service = await startService({ DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: "0", LOG_LEVEL: "warn" })
    // a credential bypasses the response microcache: every request runs the search and reads snippets
    const handlerPath = { headers: { authorization: "Bearer benchmark" } }
    const cases = {
      search: "/api/enforcement/docs?q=thermal%20cameras%20export&limit=20",
      text: "/api/enforcement/docs/bis-case%3AB00042/text"
    }
    const results: Record<string, unknown> = {}
    try {
      for (const [name, path] of Object.entries(cases)) {
        const sample = await fetch(`${service.url}${path}`, handlerPath)
        const body = new Uint8Array(await sample.arrayBuffer())
        const headers: Record<string, string> = {}
        sample.headers.forEach((value, header) => {
          if (!["date", "connection", "keep-alive", "transfer-encoding"].includes(header)) headers[header] = value
        })
        const bare = await startBareServer(body, headers)
        try {
          results[name] = {
            bytes: body.byteLength,
            ...await compare({ url: `${service.url}${path}`, options: handlerPath }, { url: `${bare.url}/` }, 1)
          }
        } finally {
          await bare.stop()
        }
      }
    } finally {
      await service.stop()
    }
    return {
      description: `enforcement archive of ${documents} synthetic documents (900 words each): keyword search ` +
        "with snippets (20 hits) and one document's text, through the full stack with the response cache " +
        "bypassed, vs a bare node:http server answering the same bytes",
      goal: "search >= 0.02 x bare; text >= 0.1 x bare",
      ...results
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
