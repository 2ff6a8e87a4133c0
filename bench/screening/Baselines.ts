import jaroWinkler from "jaro-winkler"
import type { CorpusEntry } from "./Variants.ts"

/**
 * The two reference matchers of issue 9, each comparing a query with every listed name and alias
 * (a full scan) and ranking entries by their best name:
 *
 * - `wholeStringJaroWinkler`: Jaro-Winkler (boost threshold 0.7, prefix 4, as in smetrics) of the
 *   whole prepared strings.
 * - `tokenPairJaroWinkler`: the Watchman scheme (moov-io/watchman `BestPairsJaroWinkler`): token
 *   pairs scored only when their first letters share a sound class, JW × length-difference and
 *   different-first-letter penalties, greedy one-to-one pairing, mean weighted by token lengths,
 *   scaled down by the unmatched share of the listed name; an identical prepared name scores 1.
 *
 * Preparation follows Watchman's: lowercase, diacritics and punctuation removed, stopwords and
 * company titles dropped for the token scheme. Neither does transliteration of other scripts.
 */

export interface Ranked {
  readonly entry: number
  readonly score: number
}

export interface Baseline {
  readonly name: string
  readonly search: (query: string) => ReadonlyArray<Ranked>
}

const prepare = (text: string) =>
  text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/['’`]/g, "").replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()

const stopwords = new Set(["a", "an", "and", "the", "of", "for", "in", "on", "at", "by", "to", "with", "de", "la"])
const companyTitles = new Set([
  "co",
  "company",
  "corp",
  "corporation",
  "inc",
  "incorporated",
  "llc",
  "ltd",
  "limited",
  "plc",
  "gmbh",
  "sa",
  "sas",
  "srl",
  "bv",
  "ag",
  "jsc",
  "ojsc",
  "pjsc",
  "cjsc",
  "ooo",
  "oao",
  "zao",
  "pte",
  "pvt",
  "fze",
  "llp"
])
const tokensOf = (prepared: string) =>
  prepared.split(" ").filter((token) => token.length > 0 && !stopwords.has(token) && !companyTitles.has(token))

const soundClasses = ["aeiouy", "bfpv", "cgjkqsxz", "dt", "l", "mn", "r", "hw"]
const classOf = new Map(soundClasses.flatMap((letters, i) => [...letters].map((c) => [c, i] as const)))
const sameSoundClass = (a: string, b: string) => {
  const ca = classOf.get(a[0]!)
  return a[0] === b[0] || (ca !== undefined && ca === classOf.get(b[0]!))
}

/**
 * Jaro-Winkler as smetrics computes it (match window max/2 − 1, half transpositions, prefix of up
 * to 4 scaled by 0.1 when the Jaro score exceeds 0.7), without allocating: the full scans call it
 * millions of times. `verifySmetrics` checks it against the `jaro-winkler` package.
 */
let flagsA = new Uint8Array(256)
let flagsB = new Uint8Array(256)
export const smetrics = (a: string, b: string): number => {
  if (a === b) return a.length === 0 ? 0 : 1
  const la = a.length
  const lb = b.length
  if (la === 0 || lb === 0) return 0
  if (la > flagsA.length || lb > flagsB.length) {
    flagsA = new Uint8Array(Math.max(la, lb) * 2)
    flagsB = new Uint8Array(Math.max(la, lb) * 2)
  }
  flagsA.fill(0, 0, la)
  flagsB.fill(0, 0, lb)
  const range = Math.max(0, Math.floor(Math.max(la, lb) / 2) - 1)
  let matches = 0
  for (let i = 0; i < la; i++) {
    const end = Math.min(lb - 1, i + range)
    const code = a.charCodeAt(i)
    for (let j = Math.max(0, i - range); j <= end; j++) {
      if (flagsB[j] === 0 && b.charCodeAt(j) === code) {
        flagsA[i] = 1
        flagsB[j] = 1
        matches++
        break
      }
    }
  }
  if (matches === 0) return 0
  let transpositions = 0
  for (let i = 0, j = 0; i < la; i++) {
    if (flagsA[i] === 0) continue
    while (flagsB[j] === 0) j++
    if (a.charCodeAt(i) !== b.charCodeAt(j)) transpositions++
    j++
  }
  const jaro = (matches / la + matches / lb + (matches - transpositions / 2) / matches) / 3
  if (jaro <= 0.7) return jaro
  let prefix = 0
  while (prefix < 4 && prefix < la && prefix < lb && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++
  return jaro + prefix * 0.1 * (1 - jaro)
}

/** The largest difference between `smetrics` and the `jaro-winkler` package over the given pairs. */
export const verifySmetrics = (pairs: ReadonlyArray<readonly [string, string]>): number =>
  pairs.reduce((worst, [a, b]) => Math.max(worst, Math.abs(smetrics(a, b) - jaroWinkler(a, b))), 0)

const customJaroWinkler = (indexed: string, search: string) => {
  let score = smetrics(indexed, search)
  const ratio = Math.min(indexed.length, search.length) / Math.max(indexed.length, search.length)
  if (ratio < 0.9) score *= 1 - (1 - ratio) * 0.3
  if (indexed[0] !== search[0]) score *= 0.9
  return score
}

const sumLength = (tokens: ReadonlyArray<string>) => tokens.reduce((sum, token) => sum + token.length, 0)

const pairScore = new Float64Array(4096)
const pairSearch = new Int32Array(4096)
const pairIndexed = new Int32Array(4096)
const pairOrder: Array<number> = []
const usedSearch = new Uint8Array(1024)
const usedIndexed = new Uint8Array(1024)

export const bestPairsJaroWinkler = (search: ReadonlyArray<string>, indexed: ReadonlyArray<string>): number => {
  let count = 0
  for (let s = 0; s < search.length; s++) {
    for (let i = 0; i < indexed.length && count < pairScore.length; i++) {
      if (!sameSoundClass(indexed[i]!, search[s]!)) continue
      pairScore[count] = customJaroWinkler(indexed[i]!, search[s]!)
      pairSearch[count] = s
      pairIndexed[count++] = i
    }
  }
  pairOrder.length = count
  for (let p = 0; p < count; p++) pairOrder[p] = p
  pairOrder.sort((x, y) => pairScore[y]! - pairScore[x]!)
  usedSearch.fill(0, 0, search.length)
  usedIndexed.fill(0, 0, indexed.length)
  let weighted = 0
  let matchedIndexedLength = 0
  for (const p of pairOrder) {
    const s = pairSearch[p]!
    const i = pairIndexed[p]!
    if (usedSearch[s] === 1 || usedIndexed[i] === 1) continue
    usedSearch[s] = 1
    usedIndexed[i] = 1
    weighted += pairScore[p]! * (search[s]!.length + indexed[i]!.length)
    matchedIndexedLength += indexed[i]!.length
  }
  const searchLength = sumLength(search)
  if (searchLength + matchedIndexedLength === 0) return 0
  const average = weighted / (searchLength + matchedIndexedLength)
  const matchedFraction = matchedIndexedLength / sumLength(indexed)
  return average * (1 - (1 - matchedFraction) * 0.15)
}

const top = 10

const rankEntries = (scores: Float64Array): Array<Ranked> => {
  const ranked: Array<Ranked> = []
  for (let entry = 0; entry < scores.length; entry++) {
    const score = scores[entry]!
    if (score <= 0) continue
    if (ranked.length < top || score > ranked[ranked.length - 1]!.score) {
      let at = ranked.length
      while (at > 0 && ranked[at - 1]!.score < score) at--
      ranked.splice(at, 0, { entry, score })
      if (ranked.length > top) ranked.pop()
    }
  }
  return ranked
}

/** Letter counts (a–z, 0–9, other) of a prepared string, for the Jaro match bound. */
const letterCounts = (text: string) => {
  const counts = new Uint8Array(37)
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const slot = code >= 97 && code <= 122 ? code - 97 : code >= 48 && code <= 57 ? code - 22 : 36
    if (counts[slot]! < 255) counts[slot]!++
  }
  return counts
}

/**
 * An upper bound of the Jaro-Winkler score from the letters two strings share: the full scan skips
 * names that cannot reach the current tenth-best score (results are unchanged, only faster).
 */
const jaroWinklerBound = (a: Uint8Array, la: number, b: Uint8Array, lb: number) => {
  let shared = 0
  for (let k = 0; k < 37; k++) shared += Math.min(a[k]!, b[k]!)
  const jaro = (shared / la + shared / lb + 1) / 3
  return jaro + 0.4 * (1 - jaro)
}

export const make = (corpus: ReadonlyArray<CorpusEntry>): ReadonlyArray<Baseline> => {
  const names: Array<
    {
      readonly entry: number
      readonly prepared: string
      readonly tokens: Array<string>
      readonly counts: Uint8Array
    }
  > = []
  corpus.forEach((entry, index) => {
    for (const name of entry.names) {
      const prepared = prepare(name)
      if (prepared !== "") {
        names.push({ entry: index, prepared, tokens: tokensOf(prepared), counts: letterCounts(prepared) })
      }
    }
  })
  const best = new Float64Array(corpus.length)
  const wholeString = (query: string) => {
    const prepared = prepare(query)
    const counts = letterCounts(prepared)
    best.fill(0)
    // The best entries so far; a name whose bound is below the tenth of them cannot enter the top ten.
    const leaders: Array<Ranked> = []
    let floor = 0
    for (const name of names) {
      if (best[name.entry]! >= 1) continue
      if (jaroWinklerBound(counts, prepared.length, name.counts, name.prepared.length) < floor) continue
      const value = prepared === name.prepared ? 1 : smetrics(prepared, name.prepared)
      if (value <= best[name.entry]!) continue
      best[name.entry] = value
      if (value < floor) continue
      const at = leaders.findIndex((leader) => leader.entry === name.entry)
      if (at >= 0) leaders.splice(at, 1)
      leaders.push({ entry: name.entry, score: value })
      leaders.sort((x, y) => y.score - x.score)
      if (leaders.length > top) leaders.length = top
      if (leaders.length === top) floor = leaders[top - 1]!.score
    }
    return rankEntries(best)
  }
  const tokenPairs = (query: string) => {
    const prepared = prepare(query)
    const queryTokens = tokensOf(prepared)
    best.fill(0)
    for (const name of names) {
      const value = prepared === name.prepared
        ? 1
        : queryTokens.length === 0 || name.tokens.length === 0
        ? 0
        : bestPairsJaroWinkler(queryTokens, name.tokens)
      if (value > best[name.entry]!) best[name.entry] = value
    }
    return rankEntries(best)
  }
  return [
    { name: "wholeStringJaroWinkler", search: wholeString },
    { name: "tokenPairJaroWinkler", search: tokenPairs }
  ]
}
