import type { SearchResult } from "../domain/Cfr.ts"
import type { DataState } from "../domain/DataState.ts"

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
