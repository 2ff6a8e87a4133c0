/**
 * The archive's former in-process full-text index (MiniSearch, serialized per import), kept as the
 * baseline the SQL full-text search is measured against.
 */
import MiniSearch, { type Options, type SearchOptions } from "minisearch"

/** What the full-text index holds per document: its id and the three searchable fields. */
export interface IndexedDocument {
  readonly id: string
  readonly party: string
  readonly title: string
  readonly body: string
}

/** Case- and accent-folded terms, so `Société` finds `societe`. */
const fold = (term: string) => term.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()

const options: Options<IndexedDocument> = {
  idField: "id",
  fields: ["party", "title", "body"],
  storeFields: [],
  processTerm: (term) => {
    const folded = fold(term)
    return folded.length === 0 ? null : folded
  }
}

/** Every word must match (the last one as a prefix, for type-ahead); party and title weigh more than text. */
const searchOptions: SearchOptions = {
  combineWith: "AND",
  prefix: (_term, index, terms) => index === terms.length - 1,
  fuzzy: false,
  boost: { party: 3, title: 2 }
}

export const build = (documents: Iterable<IndexedDocument>): string => {
  const index = new MiniSearch<IndexedDocument>(options)
  index.addAll([...documents])
  return JSON.stringify(index)
}

export interface ArchiveIndex {
  readonly search: (query: string) => ReadonlyArray<{ readonly id: string; readonly score: number }>
}

export const load = (json: string): ArchiveIndex => {
  const index = MiniSearch.loadJSON<IndexedDocument>(json, options)
  return {
    search: (query) => index.search(query, searchOptions).map((hit) => ({ id: String(hit.id), score: hit.score }))
  }
}

/** The query's words as the index sees them. */
export const queryTerms = (query: string): Array<string> =>
  query.split(/[^\p{L}\p{N}]+/u).map(fold).filter((term) => term.length > 0)

const snippetRadius = 120

/**
 * About 240 characters of `text` around the first query word it contains (accents and case
 * ignored), whitespace collapsed, with ellipses where it was cut; null when no word occurs.
 */
export const snippet = (text: string, terms: ReadonlyArray<string>): string | null => {
  const folded = fold(text)
  // folding can change lengths only for rare characters; positions are then approximate but safe
  let at = -1
  for (const term of terms) {
    const found = folded.search(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(term)}`, "u"))
    if (found >= 0 && (at < 0 || found < at)) at = found
  }
  if (at < 0) return null
  const start = Math.max(0, at - snippetRadius)
  const end = Math.min(text.length, at + snippetRadius)
  const passage = text.slice(start, end).replace(/<!--[^>]*-->/g, " ").replace(/\s+/g, " ").trim()
  return `${start > 0 ? "…" : ""}${passage}${end < text.length ? "…" : ""}`
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
