import { Either } from "effect"
import { InvalidRequest } from "../../domain/Problem.ts"
import {
  DefaultMinScore,
  DefaultPageSize,
  type ScreeningAffiliatesRule,
  type ScreeningRequest,
  type ScreeningResponse
} from "../../domain/Screening.ts"
import { filterOf, found as foundFor } from "./Found.ts"
import type { LoadedList } from "./LoadedList.ts"
import { disclaimer, ownershipTrace, toMatch } from "./Response.ts"

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
    matches: found.slice(offset, offset + size).map((hit) =>
      toMatch(list.entries[hit.entry]!, hit.alias, hit.score, hit.basis)
    )
  })
}
