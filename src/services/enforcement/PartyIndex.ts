import type { PartyHit } from "../../domain/PartyEnforcement.ts"
import { namesIn, type SearchableName } from "../screening/Aliases.ts"
import * as Matcher from "../screening/Matcher.ts"
import * as NameIndex from "../screening/NameIndex.ts"

/**
 * Enforcement records searched by party name with the screening engine (its normalization of
 * punctuation, legal forms, transliteration and word order, and its scorer), never by substring
 * of whole documents. A record is searched under the respondent it names (each "a.k.a." part on
 * its own); a record that names none separately (DOJ releases, some notices) is searched under the
 * passages of its title of up to `maxPassageWords` words, so the passage that is the name scores
 * as a name and the headline's other words do not dilute it.
 */

/** One enforcement record, as the party check reports it. */
export interface PartyRecord {
  readonly id: string
  readonly party: string | null
  readonly title: string
  readonly date: string | null
  readonly actionType: string | null
  readonly citation: string
  readonly url: string | null
}

/** A hit before it is tied to the name that found it: 0-100 score and the record's matched name. */
export type RecordHit = Omit<PartyHit, "query_name">

export interface PartyIndex {
  readonly records: number
  /** Every record scoring at least `minScore` (0-100) for `name`, best first; `[]` when nothing compares. */
  readonly search: (name: string, minScore: number) => ReadonlyArray<RecordHit>
}

/** Longest title passage compared as a name: party names in headlines rarely run longer. */
export const maxPassageWords = 8
/** Title words considered: headlines are short; this bounds the passages of a runaway title. */
const maxTitleWords = 60
/**
 * Names scored in full per query. Passages of one title overlap, so one record can fill a short
 * shortlist; this keeps every record with a plausible passage in it.
 */
const candidates = 500

const passages = (title: string): Array<SearchableName> => {
  const words = title.split(/\s+/).filter((word) => word !== "").slice(0, maxTitleWords)
  const found: Array<SearchableName> = []
  for (let start = 0; start < words.length; start++) {
    for (let end = start + 1; end <= Math.min(words.length, start + maxPassageWords); end++) {
      const text = words.slice(start, end).join(" ").replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}.)]+$/gu, "")
      if (text !== "") found.push({ text, listed: text, kind: "alt_name" })
    }
  }
  return found
}

const searchableNames = (record: PartyRecord): Array<SearchableName> =>
  record.party === null
    ? passages(record.title)
    : namesIn(record.party).map((text) => ({ text, listed: record.party!, kind: "name" as const }))

export const build = (records: ReadonlyArray<PartyRecord>): PartyIndex => {
  const entries = records.map((record) => ({ record, names: searchableNames(record) }))
  const matcher = Matcher.make(NameIndex.build(entries))
  return {
    records: records.length,
    search: (name, minScore) =>
      (matcher.search(name, { fuzzy: true, candidates }) ?? []).flatMap((hit) => {
        const score = Math.round(hit.score * 1000) / 10
        if (score < minScore) return []
        const { names, record } = entries[hit.entry]!
        const matched = names[hit.alias]!
        return [{
          record_id: record.id,
          score,
          matched_name: matched.listed,
          matched_in: matched.kind === "name" ? "party" as const : "title" as const,
          title: record.title,
          date: record.date,
          action_type: record.actionType,
          citation: record.citation,
          url: record.url
        }]
      })
  }
}

/**
 * `build` memoized on the identity of its source data (a feed source's action array, an archive
 * catalog): the index is built once per fetch or import, not per check.
 */
export const memoized = <K extends object>(toRecords: (source: K) => ReadonlyArray<PartyRecord>) => {
  const built = new WeakMap<K, PartyIndex>()
  return (source: K): PartyIndex => {
    let index = built.get(source)
    if (index === undefined) {
      index = build(toRecords(source))
      built.set(source, index)
    }
    return index
  }
}
