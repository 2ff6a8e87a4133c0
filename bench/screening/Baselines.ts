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

const smetrics = (a: string, b: string) => jaroWinkler(a, b)

const customJaroWinkler = (indexed: string, search: string) => {
  let score = smetrics(indexed, search)
  const ratio = Math.min(indexed.length, search.length) / Math.max(indexed.length, search.length)
  if (ratio < 0.9) score *= 1 - (1 - ratio) * 0.3
  if (indexed[0] !== search[0]) score *= 0.9
  return score
}

const sumLength = (tokens: ReadonlyArray<string>) => tokens.reduce((sum, token) => sum + token.length, 0)

export const bestPairsJaroWinkler = (search: ReadonlyArray<string>, indexed: ReadonlyArray<string>): number => {
  const pairs: Array<{ score: number; s: number; i: number }> = []
  for (let s = 0; s < search.length; s++) {
    for (let i = 0; i < indexed.length; i++) {
      if (sameSoundClass(indexed[i]!, search[s]!)) {
        pairs.push({ score: customJaroWinkler(indexed[i]!, search[s]!), s, i })
      }
    }
  }
  pairs.sort((a, b) => b.score - a.score)
  const usedSearch = new Uint8Array(search.length)
  const usedIndexed = new Uint8Array(indexed.length)
  let weighted = 0
  let matchedIndexedLength = 0
  for (const pair of pairs) {
    if (usedSearch[pair.s] || usedIndexed[pair.i]) continue
    usedSearch[pair.s] = 1
    usedIndexed[pair.i] = 1
    weighted += pair.score * (search[pair.s]!.length + indexed[pair.i]!.length)
    matchedIndexedLength += indexed[pair.i]!.length
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

export const make = (corpus: ReadonlyArray<CorpusEntry>): ReadonlyArray<Baseline> => {
  const names: Array<{ readonly entry: number; readonly prepared: string; readonly tokens: Array<string> }> = []
  corpus.forEach((entry, index) => {
    for (const name of entry.names) {
      const prepared = prepare(name)
      if (prepared !== "") names.push({ entry: index, prepared, tokens: tokensOf(prepared) })
    }
  })
  const scan =
    (score: (query: string, queryTokens: Array<string>, name: (typeof names)[number]) => number) => (query: string) => {
      const prepared = prepare(query)
      const queryTokens = tokensOf(prepared)
      const best = new Float64Array(corpus.length)
      for (const name of names) {
        const value = score(prepared, queryTokens, name)
        if (value > best[name.entry]!) best[name.entry] = value
      }
      return rankEntries(best)
    }
  return [
    {
      name: "wholeStringJaroWinkler",
      search: scan((query, _, name) => (query === name.prepared ? 1 : smetrics(query, name.prepared)))
    },
    {
      name: "tokenPairJaroWinkler",
      search: scan((query, queryTokens, name) =>
        query === name.prepared ? 1 : queryTokens.length === 0 || name.tokens.length === 0
          ? 0
          : bestPairsJaroWinkler(queryTokens, name.tokens)
      )
    }
  ]
}
