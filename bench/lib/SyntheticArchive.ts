import type { ArchiveWrite } from "../../src/services/enforcement/ArchiveRepo.ts"
import { noFields } from "../../src/services/enforcement/Fields.ts"

/**
 * The archive search benchmark's corpus and queries, also used by the test that holds the search
 * statement to the answers of the one it replaced.
 */

/** The size SPEC gives for the BIS export-violations catalog. */
export const documents = 1100

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
 * ("export", "license"), and otherwise draws from a long-tailed vocabulary. `wordsOf` gives a
 * document's length (in 100-word paragraphs' worth, rounded up); its draws come from a sequence of
 * their own, so the default corpus stays the one earlier figures were measured on.
 */
export const synthetic = (wordsOf: (n: number) => number = () => 900): Array<ArchiveWrite> => {
  const next = random(42)
  const pick = <A>(from: ReadonlyArray<A>, skew = 1) => from[Math.floor(Math.pow(next(), skew) * from.length)]!
  return Array.from({ length: documents }, (_, i) => {
    const n = i + 1
    const topics = Array.from({ length: 8 }, () => pick(vocabulary))
    const word = () => {
      const roll = next()
      return roll < 0.05 ? pick(common) : roll < 0.3 ? pick(topics) : pick(filler, 2)
    }
    const paragraphs = Array.from(
      { length: Math.ceil(wordsOf(n) / 100) },
      () => Array.from({ length: 100 }, word).join(" ") + "."
    )
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

/**
 * The lengths of real enforcement documents rather than 900 words: most between 2,000 and 15,000
 * words (more of them short), one in ten from 15,000 to 60,000, about 8,000 on average. A long
 * text's search vector is tens of KB, stored out of line and compressed, which the 900-word corpus
 * (every vector in its row) never shows.
 */
export const realisticLengths = (): (n: number) => number => {
  const next = random(7)
  const lengths = Array.from(
    { length: documents },
    () => next() < 0.9 ? 2_000 + Math.pow(next(), 2) * 13_000 : 15_000 + Math.pow(next(), 2) * 45_000
  )
  return (n) => lengths[n - 1]!
}

/** The benchmark's queries: few matches, some, and one word in nearly every document (`w1a`). */
export const queries = ["thermal cameras export", "encryption software", "freight forwarder invoice", "lasers", "w1a"]
