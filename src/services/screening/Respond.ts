import { Either } from "effect"
import { InvalidRequest } from "../../domain/Problem.ts"
import {
  DefaultMinScore,
  DefaultPageSize,
  type ScreeningAffiliatesRule,
  type ScreeningRequest,
  type ScreeningResponse
} from "../../domain/Screening.ts"
import { filterOf, type Found, found as foundFor } from "./Found.ts"
import type { LoadedList } from "./LoadedList.ts"
import { disclaimer, ownershipTrace, toMatch } from "./Response.ts"
import type { Alignment } from "./Scorer.ts"

const noWords = new InvalidRequest({
  detail: "Invalid parameter: name (has no letters or digits to compare)",
  invalidParams: [{ name: "name", in: "query", reason: "has no letters or digits to compare" }]
})

/** One list as a search sees it: the index, whether it is stale, and the Affiliates Rule of the moment. */
export interface Snapshot {
  readonly list: LoadedList
  readonly stale: boolean
  readonly affiliatesRule: typeof ScreeningAffiliatesRule.Type
}

/** What a response says besides the name and its matches. */
export const about = (snapshot: Snapshot, request: Omit<ScreeningRequest, "name">) => {
  const { list, stale } = snapshot
  const lists = request.sources === undefined
    ? list.lists
    : list.lists.filter((l) => (request.sources as ReadonlyArray<string>).includes(l.code))
  return {
    query: {
      fuzzy_name: request.fuzzy_name ?? true,
      sources: request.sources ?? lists.map((l) => l.code),
      countries: request.countries ?? null,
      min_score: request.min_score ?? DefaultMinScore,
      size: request.size ?? DefaultPageSize,
      offset: request.offset ?? 0
    },
    lists,
    dataset: { published_at: list.publishedAt, loaded_at: list.loadedAt, entries: list.entries.length, stale },
    affiliates_rule: snapshot.affiliatesRule,
    ownership_trace: ownershipTrace,
    disclaimer
  }
}

/** The page's matches, each name match with the alignment its score rests on (ID matches have none). */
const explained = (list: LoadedList, name: string, page: ReadonlyArray<Found>) => {
  const byName = page.filter((hit): hit is Found & { readonly name: number } => hit.name !== undefined)
  const alignments = list.matcher.explain(name, byName)
  const alignmentOf = new Map<Found, Alignment | undefined>(byName.map((hit, i) => [hit, alignments[i]]))
  return page.map((hit) =>
    toMatch(list.entries[hit.entry]!, hit.alias, hit.score, { ...hit.basis, alignment: alignmentOf.get(hit) })
  )
}

/**
 * The corporate family group: entries whose names contain the query's identifying words, apart
 * from the matches (a family member never counts toward `total` or `result`).
 */
const nameContained = (
  list: LoadedList,
  name: string,
  allow: ((entry: number) => boolean) | undefined,
  matched: ReadonlyArray<Found>,
  offset: number,
  size: number
) => {
  const family = list.matcher.family(name, allow)
  if (family === undefined) return {}
  const shown = new Set(matched.map((hit) => hit.entry))
  const members = family.hits
    .filter((hit) => !shown.has(hit.entry))
    .map((hit): Found => ({ ...hit, score: Math.round(hit.score * 1000) / 10, basis: {} }))
  return {
    name_contained: {
      match_type: "name_contained" as const,
      words: family.words,
      total: family.tooBroad ? family.total : members.length,
      too_broad: family.tooBroad,
      matches: explained(list, name, members.slice(offset, offset + size))
    }
  }
}

/** The screening of one name against one list (synchronous: the index is in memory). */
export const respond = (
  snapshot: Snapshot,
  request: ScreeningRequest
): Either.Either<ScreeningResponse, InvalidRequest> => {
  const { list } = snapshot
  const shared = about(snapshot, request)
  const { min_score: minScore, offset, size } = shared.query
  const allow = filterOf(list, request)
  const hits = list.matcher.search(request.name, {
    fuzzy: shared.query.fuzzy_name,
    allow,
    candidates: 2 * (offset + size)
  })
  if (hits === undefined) return Either.left(noWords)
  const found = foundFor(list, request, hits, minScore, allow)
  return Either.right({
    ...shared,
    query: {
      ...shared.query,
      name: request.name,
      type: request.type ?? null,
      country: request.country ?? null,
      id: request.id ?? null
    },
    total: found.length,
    result: found.length > 0 ? "potential_match" : "no_match",
    matches: explained(list, request.name, found.slice(offset, offset + size)),
    ...nameContained(list, request.name, allow, found, offset, size)
  })
}
