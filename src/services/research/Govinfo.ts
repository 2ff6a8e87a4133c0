import { Data, Effect, Option, Redacted, Schema } from "effect"
import type { GovinfoSearchParams, GovinfoSearchResponse } from "../../domain/Research.ts"
import type { UpstreamClient } from "../Upstream.ts"
import { cachedLookup, decodeEach, optionalNullable, softly } from "./FailSoft.ts"

const label = "govinfo search"
const searchPath = "/search"

/** Publications do not change once issued; six hours matches the Federal Register. */
export const cacheTtl = "6 hours"

const WireResult = Schema.Struct({
  title: Schema.String,
  packageId: Schema.String,
  granuleId: optionalNullable(Schema.String),
  lastModified: optionalNullable(Schema.String),
  governmentAuthor: optionalNullable(Schema.Array(Schema.String)),
  dateIssued: optionalNullable(Schema.String),
  collectionCode: optionalNullable(Schema.String)
})

const WireSearch = Schema.Struct({
  count: optionalNullable(Schema.Number),
  results: optionalNullable(Schema.Array(Schema.Unknown))
})

/** govinfo identifiers are letters, digits, dots, dashes and underscores; anything else makes no public link. */
const safeId = (id: string) => /^[\w.-]+$/.test(id)

export const make = (client: UpstreamClient, apiKey: Option.Option<Redacted.Redacted>) =>
  Effect.gen(function*() {
    const source = `${client.baseUrl}${searchPath}`
    const empty = (params: GovinfoSearchParams) => ({
      query: params.query,
      collection: params.collection?.toUpperCase() ?? null,
      count: 0,
      total: null,
      results: [],
      source
    })
    if (Option.isNone(apiKey)) {
      return {
        search: (params: GovinfoSearchParams): Effect.Effect<GovinfoSearchResponse> =>
          Effect.succeed({
            ...empty(params),
            configured: false,
            error: "govinfo search is not configured on this server (no data-portal key, DATA_GOV_API_KEY)."
          })
      }
    }
    const headers = { "x-api-key": Redacted.value(apiKey.value) }

    const lookup = (key: GovinfoKey) =>
      client.postJson(
        searchPath,
        {
          query: key.collection === null ? key.query : `${key.query} collection:(${key.collection})`,
          pageSize: key.limit,
          offsetMark: "*",
          sorts: [{ field: "relevancy", sortOrder: "DESC" }],
          historical: true,
          resultLevel: "default"
        },
        WireSearch,
        // a search is a read: repeating it is harmless
        { headers, retries: 1 }
      ).pipe(
        Effect.flatMap((answer) =>
          Effect.map(decodeEach(client.name, WireResult, answer.results ?? []), (wires) => {
            const results = wires.filter((wire) => safeId(wire.packageId)).map((wire) => {
              const granule = wire.granuleId != null && safeId(wire.granuleId) ? wire.granuleId : null
              return {
                title: wire.title,
                package_id: wire.packageId,
                granule_id: granule,
                collection: wire.collectionCode ?? null,
                date_issued: wire.dateIssued ?? null,
                last_modified: wire.lastModified ?? null,
                government_author: [...(wire.governmentAuthor ?? [])],
                details_url: `https://www.govinfo.gov/app/details/${wire.packageId}${
                  granule === null ? "" : `/${granule}`
                }`
              }
            })
            return { results, total: answer.count ?? results.length }
          })
        )
      )
    const cached = yield* cachedLookup({ capacity: 256, ttl: cacheTtl, lookup })

    const search = (params: GovinfoSearchParams): Effect.Effect<GovinfoSearchResponse> => {
      const base = empty(params)
      return cached(new GovinfoKey({ query: params.query, collection: base.collection, limit: params.limit ?? 20 }))
        .pipe(
          Effect.map(({ results, total }) => ({ ...base, count: results.length, total, results, configured: true })),
          Effect.catchAll(softly(label, (error) => ({ ...base, configured: true, error })))
        )
    }

    return { search }
  })

class GovinfoKey extends Data.Class<{
  readonly query: string
  readonly collection: string | null
  readonly limit: number
}> {}
