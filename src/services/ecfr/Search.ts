import { Clock, Effect } from "effect"
import type { SearchMeta, SearchRequest, SearchResult } from "../../domain/Cfr.ts"
import { InvalidRequest, UpstreamUnavailable } from "../../domain/Problem.ts"
import { type UpstreamClient, UpstreamError } from "../Upstream.ts"
import type { CursorCodec, CursorPosition } from "./Cursor.ts"
import { searchSnapshots } from "./LocalIndex.ts"
import { plainHeading, sanitizeExcerpt } from "./SearchExcerpt.ts"
import type { Snapshot } from "./Snapshot.ts"
import { SearchResponse } from "./Wire.ts"

/** eCFR search cannot page past 10,000 results. */
const maxResults = 10_000

export interface SearchScope {
  /** `part:740` or `title:15`: cursors only continue the scope they were issued for. */
  readonly key: string
  readonly title: number
  readonly part?: number
  /** The stored snapshots to search when eCFR search is unavailable. */
  readonly local: Effect.Effect<ReadonlyArray<Snapshot>, UpstreamUnavailable>
}

export interface SearchPage {
  readonly results: ReadonlyArray<SearchResult>
  readonly meta: SearchMeta
  readonly source: string
}

const cursorRejected = (reason: string) =>
  new InvalidRequest({
    detail: `Invalid parameter: cursor (${reason})`,
    invalidParams: [{ name: "cursor", in: "query", reason }]
  })

/** The position a request asks for: its cursor's when it has one (which must belong to this search). */
const positionOf = (
  codec: CursorCodec,
  scope: SearchScope,
  request: SearchRequest
): Effect.Effect<CursorPosition, InvalidRequest> => {
  if (request.cursor !== undefined) {
    const position = codec.decode(request.cursor)
    if (position === undefined) return Effect.fail(cursorRejected("not a cursor issued by this service"))
    if (position.scope !== scope.key || position.q !== request.q) {
      return Effect.fail(cursorRejected("the cursor belongs to a different search; pass the same q"))
    }
    return Effect.succeed(position)
  }
  if ((request.page - 1) * request.perPage >= maxResults) {
    const reason = `eCFR search stops at ${maxResults} results; narrow the query`
    return Effect.fail(
      new InvalidRequest({
        detail: `Invalid parameter: page (${reason})`,
        invalidParams: [{ name: "page", in: "query", reason }]
      })
    )
  }
  return Effect.succeed({ scope: scope.key, q: request.q, perPage: request.perPage, page: request.page })
}

const toResult = (wire: SearchResponse["results"][number]): SearchResult | undefined => {
  const part = Number(wire.hierarchy.part)
  if (!Number.isInteger(part) || wire.starts_on === null) return undefined
  const isAppendix = (wire.type ?? "").toLowerCase() === "appendix" || !wire.hierarchy.section
  return {
    type: isAppendix ? "appendix" : "section",
    score: wire.score ?? 0,
    part,
    section: (isAppendix ? wire.hierarchy.appendix : wire.hierarchy.section) ?? "",
    sectionHeading: plainHeading(isAppendix ? wire.headings?.appendix : wire.headings?.section),
    partHeading: plainHeading(wire.headings?.part),
    excerpt: sanitizeExcerpt(wire.full_text_excerpt ?? ""),
    startsOn: wire.starts_on,
    endsOn: wire.ends_on ?? null
  }
}

export const make = (deps: {
  readonly client: UpstreamClient
  readonly codec: CursorCodec
  /** How long a request waits for eCFR search before the local index answers (UPSTREAM_DEADLINE_SECONDS). */
  readonly deadlineMillis: number
}) => {
  const { client, codec, deadlineMillis } = deps
  const endpoint = "/api/search/v1/results"
  const source = `${client.baseUrl}${endpoint}`

  const pageMeta = (position: CursorPosition, totalCount: number): Omit<SearchMeta, "engine"> => {
    const reachable = Math.min(totalCount, maxResults)
    const totalPages = Math.ceil(reachable / position.perPage)
    const hasNext = position.page < totalPages
    return {
      page: position.page,
      perPage: position.perPage,
      totalCount,
      totalPages,
      nextCursor: hasNext ? codec.encode({ ...position, page: position.page + 1 }) : null
    }
  }

  const upstream = (scope: SearchScope, position: CursorPosition) =>
    Effect.gen(function*() {
      // "content present on this date": today, so only the current version of each section matches
      const today = new Date(yield* Clock.currentTimeMillis).toISOString().slice(0, 10)
      const response = yield* client.getJson(endpoint, SearchResponse, {
        params: {
          query: position.q,
          "hierarchy[title]": scope.title,
          ...(scope.part === undefined ? {} : { "hierarchy[part]": scope.part }),
          date: today,
          order: "relevance",
          page: position.page,
          per_page: position.perPage
        }
      })
      // belt and braces: a version that has ended, or a removed section, is not current content
      const current = response.results.filter((wire) =>
        wire.removed !== true && (wire.ends_on === undefined || wire.ends_on === null || wire.ends_on > today)
      )
      const results = current.flatMap((wire) => {
        const result = toResult(wire)
        return result === undefined ? [] : [result]
      })
      const totalCount = response.meta.total_count ?? results.length
      return { results, meta: { ...pageMeta(position, totalCount), engine: "ecfr" as const }, source }
    })

  const local = (scope: SearchScope, position: CursorPosition, reason: string) =>
    Effect.gen(function*() {
      const snapshots = yield* scope.local
      if (snapshots.length === 0) {
        return yield* new UpstreamUnavailable({
          upstream: "ecfr",
          detail: `eCFR search is unavailable (${reason}) and no part of title ${scope.title} is stored. Retry later.`
        })
      }
      const all = searchSnapshots(snapshots, position.q)
      const start = (position.page - 1) * position.perPage
      const issues = [...new Set(snapshots.map((s) => s.issueDate))].sort().join(", ")
      const meta: SearchMeta = {
        ...pageMeta(position, all.length),
        engine: "local-index",
        notice: `eCFR search is unavailable (${reason}); results come from the local full-text index of the ` +
          `stored snapshots (eCFR issue ${issues}). Ranking and matching differ from eCFR search.`,
        searchedParts: snapshots.map((s) => s.part)
      }
      return { results: all.slice(start, start + position.perPage), meta, source: `local-index:${issues}` }
    })

  /** eCFR search for the current version, falling back to the local index when it fails. */
  const search = (scope: SearchScope, request: SearchRequest): Effect.Effect<
    SearchPage,
    InvalidRequest | UpstreamUnavailable
  > =>
    Effect.flatMap(positionOf(codec, scope, request), (position) =>
      upstream(scope, position).pipe(
        // the client's own timeout and retry could hold a request for half a minute
        Effect.timeoutFail({
          duration: deadlineMillis,
          onTimeout: () =>
            new UpstreamError({
              upstream: client.name,
              reason: "timeout",
              detail: `no answer within ${Math.round(deadlineMillis / 1000)} s`
            })
        }),
        Effect.catchAll((error) =>
          Effect.zipRight(
            Effect.logWarning("eCFR search unavailable; answering from the local index", { reason: error.reason }),
            local(scope, position, error.detail)
          )
        )
      ))

  return { search }
}
