import { distance } from "fastest-levenshtein"

/**
 * The names closest to a mistyped one, best first: for an agent that called `get_ecfr_section` or
 * `csl_search`, the tools it meant. A name sharing a word with the query counts as close however
 * long it is (word order and plurals are the usual slips).
 */
export const nearestNames = (wanted: string, names: ReadonlyArray<string>, count = 3): Array<string> => {
  const query = wanted.toLowerCase()
  const queryWords = new Set(query.split(/[^a-z0-9]+/).filter((word) => word.length > 2))
  const scored = names.map((name) => {
    const words = name.split("_")
    const shared = words.filter((word) =>
      queryWords.has(word) || queryWords.has(`${word}s`) ||
      [...queryWords].some((q) => q === `${word}s` || `${q}s` === word)
    ).length
    return { name, edits: distance(query, name), shared }
  })
  const limit = Math.max(3, Math.floor(query.length / 3))
  return scored
    .filter((entry) => entry.edits <= limit || entry.shared > 0)
    .sort((a, b) => b.shared - a.shared || a.edits - b.edits || a.name.localeCompare(b.name))
    .slice(0, count)
    .map((entry) => entry.name)
}
