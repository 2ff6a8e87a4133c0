import type { ScreeningRequest } from "../../domain/Screening.ts"
import * as FieldAgreement from "./FieldAgreement.ts"
import type { LoadedList } from "./LoadedList.ts"
import type { MatchBasis } from "./Response.ts"

/** One entry found for a request: its best name, its score (0–100, one decimal) and how it was found. */
export interface Found {
  readonly entry: number
  readonly alias: number
  readonly score: number
  /** The indexed name that scored (absent for an ID match): what the scorer's explanation aligns. */
  readonly name?: number | undefined
  readonly basis: MatchBasis
}

/** The list and country filters of a request (its `type` and `country` move scores instead). */
export const filterOf = (list: LoadedList, request: ScreeningRequest) => {
  if (request.sources === undefined && request.countries === undefined) return undefined
  const sources = request.sources === undefined ? undefined : new Set<string>(request.sources)
  const countries = request.countries === undefined ? undefined : new Set<string>(request.countries)
  return (entryIndex: number) => {
    const entry = list.entries[entryIndex]!
    if (sources !== undefined && !sources.has(entry.code)) return false
    return countries === undefined || entry.countries.length === 0 || entry.countries.some((c) => countries.has(c))
  }
}

/** An entry found by an ID number scores 100: the number is the party's, whatever its name. */
const IdScore = 100

/**
 * The entries a request finds, best first, at or above `minScore`: the name's hits from the engine
 * and the entries listing the ID number asked for (`id`, or a `name` that is an ID number), each
 * entry once (an ID match wins over a name match), scores moved by the stated country and type.
 */
export const found = (
  list: LoadedList,
  request: ScreeningRequest,
  nameHits: ReadonlyArray<
    { readonly entry: number; readonly alias: number; readonly name?: number; readonly score: number }
  >,
  minScore: number,
  allow: ((entry: number) => boolean) | undefined = filterOf(list, request)
): Array<Found> => {
  const byEntry = new Map<number, { entry: number; alias: number; name?: number; score: number; id?: number }>()
  for (const hit of list.ids.find(request.id ?? request.name)) {
    if (allow === undefined || allow(hit.entry)) {
      byEntry.set(hit.entry, { entry: hit.entry, alias: 0, score: IdScore, id: hit.id })
    }
  }
  for (const hit of nameHits) {
    if (!byEntry.has(hit.entry)) byEntry.set(hit.entry, { ...hit, score: Math.round(hit.score * 1000) / 10 })
  }
  const stated = { country: request.country, type: request.type }
  const all: Array<Found & { readonly byId: boolean }> = []
  for (const hit of byEntry.values()) {
    const compared = FieldAgreement.compare(list.entries[hit.entry]!, hit.score, stated)
    const score = compared?.score ?? hit.score
    if (score < minScore) continue
    all.push({
      entry: hit.entry,
      alias: hit.alias,
      name: hit.name,
      score,
      byId: hit.id !== undefined,
      basis: { id: hit.id, agreement: compared?.report }
    })
  }
  return all.sort((a, b) => b.score - a.score || Number(b.byId) - Number(a.byId) || a.entry - b.entry)
}
