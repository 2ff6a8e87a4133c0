import { Data, Effect, Schema } from "effect"
import type { CfrSearchParams, CfrSearchResponse } from "../../domain/Research.ts"
import type { UpstreamClient } from "../Upstream.ts"
import { cachedLookup, decodeEach, optionalNullable, softly, today } from "./FailSoft.ts"

const label = "eCFR search"
const searchPath = "/api/search/v1/results"

/** CFR data is edge-cached for an hour; the same holds for searches over it. */
export const cacheTtl = "1 hour"

const Level = optionalNullable(Schema.String)
const Hierarchy = Schema.Struct({
  title: Level,
  part: Level,
  section: Level,
  appendix: Level
})

const WireResult = Schema.Struct({
  type: optionalNullable(Schema.String),
  hierarchy: Hierarchy,
  headings: optionalNullable(Hierarchy),
  full_text_excerpt: optionalNullable(Schema.String),
  score: optionalNullable(Schema.Number),
  starts_on: optionalNullable(Schema.String),
  removed: optionalNullable(Schema.Boolean)
})
type WireResult = typeof WireResult.Type

const WireSearch = Schema.Struct({
  results: Schema.Array(Schema.Unknown),
  meta: optionalNullable(Schema.Struct({ total_count: optionalNullable(Schema.Number) }))
})

/** Headings carry `<strong>` highlights; a heading is served as plain text. */
const plain = (html: string | null | undefined) => (html ?? "").replace(/<[^>]*>/g, "").replace(/\s+/g, " ").trim()

/** Keeps only `<strong>` highlights; eCFR's ellipsis spans become "…". */
export const sanitizeExcerpt = (html: string) =>
  html
    .replace(/<span class="elipsis">[^<]*<\/span>/g, "…")
    .replace(/<(?!\/?strong>)[^>]*>/g, "")
    .replace(/\s+/g, " ")
    .trim()

export const make = (client: UpstreamClient) =>
  Effect.gen(function*() {
    const source = `${client.baseUrl}${searchPath}`
    const site = client.baseUrl

    const urlOf = (title: number, result: WireResult) => {
      const { appendix, part, section } = result.hierarchy
      if (section) return `${site}/current/title-${title}/section-${encodeURIComponent(section)}`
      if (appendix && part) {
        return `${site}/current/title-${title}/part-${encodeURIComponent(part)}/appendix-${
          encodeURIComponent(appendix)
        }`
      }
      return part ? `${site}/current/title-${title}/part-${encodeURIComponent(part)}` : `${site}/current/title-${title}`
    }

    const lookup = (key: CfrSearchKey) =>
      Effect.gen(function*() {
        // content present today: only the current version of each section matches
        const date = yield* today
        const answer = yield* client.getJson(searchPath, WireSearch, {
          params: {
            query: key.query,
            date,
            order: "relevance",
            page: 1,
            per_page: key.limit,
            ...(key.title === null ? {} : { "hierarchy[title]": key.title })
          }
        })
        const wires = yield* decodeEach(client.name, WireResult, answer.results)
        const results = wires.flatMap((wire) => {
          const title = Number.parseInt(wire.hierarchy.title ?? "", 10)
          if (wire.removed === true || !Number.isInteger(title)) return []
          const isAppendix = (wire.type ?? "").toLowerCase() === "appendix" || !wire.hierarchy.section
          return [{
            type: isAppendix ? "appendix" as const : "section" as const,
            title,
            part: wire.hierarchy.part ?? null,
            section: wire.hierarchy.section ?? null,
            appendix: wire.hierarchy.appendix ?? null,
            heading: plain(isAppendix ? wire.headings?.appendix : wire.headings?.section),
            part_heading: plain(wire.headings?.part),
            excerpt: sanitizeExcerpt(wire.full_text_excerpt ?? ""),
            score: wire.score ?? 0,
            starts_on: wire.starts_on ?? null,
            url: urlOf(title, wire)
          }]
        })
        return { results, total: answer.meta?.total_count ?? results.length }
      })
    const cached = yield* cachedLookup({ capacity: 256, ttl: cacheTtl, lookup })

    const search = (params: CfrSearchParams): Effect.Effect<CfrSearchResponse> => {
      const title = params.title ?? null
      const key = new CfrSearchKey({ query: params.query, title, limit: params.limit ?? 10 })
      return cached(key).pipe(
        Effect.map(({ results, total }) => ({
          query: params.query,
          title,
          count: results.length,
          total,
          results,
          source
        })),
        Effect.catchAll(softly(label, (error) => ({
          query: params.query,
          title,
          count: 0,
          total: null,
          results: [],
          source,
          error
        })))
      )
    }

    return { search }
  })

class CfrSearchKey extends Data.Class<{
  readonly query: string
  readonly title: number | null
  readonly limit: number
}> {}
