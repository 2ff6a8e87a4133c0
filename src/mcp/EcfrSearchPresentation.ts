import { Effect, Schema } from "effect"
import { SearchResult } from "../domain/Cfr.ts"
import type { DataState } from "../domain/DataState.ts"
import { CclIndex } from "../services/CclIndex.ts"

/**
 * One hit per section: the eCFR search answers a section once per version it matched; an agent
 * wants the current one (no end date, else the latest start), ranked where its best version was.
 */
export const onePerSection = (results: ReadonlyArray<SearchResult>): Array<SearchResult> => {
  const chosen = new Map<string, SearchResult>()
  for (const result of results) {
    const key = `${result.part}\u0000${result.section}`
    const known = chosen.get(key)
    const newer = known === undefined || (result.endsOn === null && known.endsOn !== null) ||
      ((result.endsOn === null) === (known.endsOn === null) && result.startsOn > known.startsOn)
    if (newer) chosen.set(key, result)
  }
  const order = new Map<string, number>()
  results.forEach((result, index) => {
    const key = `${result.part}\u0000${result.section}`
    if (!order.has(key)) order.set(key, index)
  })
  return [...chosen.entries()].sort((a, b) => order.get(a[0])! - order.get(b[0])!).map(([, result]) => result)
}

/** Broader queries to try when several words found nothing: each word alone, then all but the last. */
export const broaderQueries = (query: string): Array<string> => {
  const words = query.split(/\s+/).filter((word) => word.length > 0)
  if (words.length < 2) return []
  const singles = words.filter((word) => word.length > 3 && !/^(?:and|the|for|with|from)$/i.test(word))
  return [...new Set([words.slice(0, -1).join(" "), ...singles])].slice(0, 4)
}

/** The state of an eCFR search answer: the local index answering means the eCFR search was down. */
export const ecfrSearchState = (
  engine: "ecfr" | "local-index",
  query: string,
  hits: number
): DataState => {
  if (engine === "local-index") {
    return {
      data_state: "stale",
      data_note: "The eCFR search could not be reached; a local index of the stored parts answered."
    }
  }
  if (hits > 0) return { data_state: "ok" }
  const broader = broaderQueries(query)
  return broader.length === 0
    ? { data_state: "ok", data_note: "No section matched." }
    : { data_state: "ok", data_note: `No section matched all words; try ${broader.map((q) => `"${q}"`).join(", ")}.` }
}

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: " " }

/**
 * The plain passages of a search excerpt (HTML-escaped, matches in `<strong>`, gaps marked with an
 * ellipsis), for finding where in the CCL the hit is.
 */
export const excerptFragments = (excerpt: string): Array<string> =>
  excerpt
    .replace(/<[^>]{0,40}>/g, "")
    .replace(/&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z]{2,6}));/gi, (whole, dec, hex, name) =>
      dec !== undefined
        ? String.fromCodePoint(Number(dec))
        : hex !== undefined
        ? String.fromCodePoint(Number.parseInt(hex, 16))
        : entities[String(name).toLowerCase()] ?? whole)
    .split(/…|\.\.\./)
    .map((fragment) => fragment.trim())
    .filter((fragment) => fragment.length > 0)

/** A search hit as agents get it: a hit in the Commerce Control List names the ECCN it falls in. */
export const AgentSearchResult = Schema.Struct({
  ...SearchResult.fields,
  eccn: Schema.optional(Schema.String.annotations({
    description: "Part 774 hits: the ECCN whose entry holds the excerpt (absent when the excerpt does not place it)"
  }))
})

/**
 * Each part 774 hit with the ECCN its excerpt falls in (the eCFR answers the whole CCL as one
 * supplement, so the section alone does not say which entry matched). A CCL that cannot be read
 * leaves the hits as they are.
 */
export const withEccns = <A extends SearchResult>(
  results: ReadonlyArray<A>
): Effect.Effect<Array<A & { readonly eccn?: string }>, never, CclIndex> =>
  results.some((result) => result.part === 774)
    ? Effect.flatMap(CclIndex, (ccl) =>
      Effect.forEach(results, (result) =>
        result.part !== 774
          ? Effect.succeed(result)
          : ccl.eccnHolding(excerptFragments(result.excerpt)).pipe(
            Effect.map((eccn) => eccn === undefined ? result : { ...result, eccn }),
            Effect.orElseSucceed(() => result)
          )))
    : Effect.succeed([...results])
