import { Data, Effect, Option, Redacted, Schema } from "effect"
import type { RegulationsSearchParams, RegulationsSearchResponse } from "../../domain/Research.ts"
import type { UpstreamClient } from "../Upstream.ts"
import { cachedLookup, decodeEach, optionalNullable, softly } from "./FailSoft.ts"

const label = "regulations.gov"
const documentsPath = "/v4/documents"

/** Comment periods open and close daily; an hour keeps `openForComment` close to the truth. */
export const cacheTtl = "1 hour"

/** regulations.gov accepts page sizes from 5 to 250. */
const minimumPageSize = 5

const Text = optionalNullable(Schema.String)

const WireDocument = Schema.Struct({
  id: Schema.String,
  attributes: Schema.Struct({
    title: Schema.String,
    agencyId: Text,
    documentType: Text,
    frDocNum: Text,
    docketId: Text,
    postedDate: Text,
    commentEndDate: Text,
    openForComment: optionalNullable(Schema.Boolean)
  })
})

const WireSearch = Schema.Struct({
  data: Schema.Array(Schema.Unknown),
  meta: optionalNullable(Schema.Struct({ totalElements: optionalNullable(Schema.Number) }))
})

export const make = (client: UpstreamClient, apiKey: Option.Option<Redacted.Redacted>) =>
  Effect.gen(function*() {
    const source = `${client.baseUrl}${documentsPath}`
    const empty = (params: RegulationsSearchParams) => ({
      query: params.query,
      count: 0,
      total: null,
      results: [],
      source
    })
    if (Option.isNone(apiKey)) {
      return {
        search: (params: RegulationsSearchParams): Effect.Effect<RegulationsSearchResponse> =>
          Effect.succeed({
            ...empty(params),
            configured: false,
            error: "regulations.gov search is not configured on this server (no data-portal key, DATA_GOV_API_KEY)."
          })
      }
    }
    const headers = { "x-api-key": Redacted.value(apiKey.value) }

    const lookup = (key: RegulationsKey) =>
      client.getJson(documentsPath, WireSearch, {
        params: { "filter[searchTerm]": key.query, "page[size]": Math.max(minimumPageSize, key.limit) },
        headers
      }).pipe(
        Effect.flatMap((answer) =>
          Effect.map(decodeEach(client.name, WireDocument, answer.data), (documents) => ({
            total: answer.meta?.totalElements ?? documents.length,
            results: documents.filter((document) => /^[\w.-]+$/.test(document.id)).map((document) => ({
              id: document.id,
              title: document.attributes.title,
              agencyId: document.attributes.agencyId ?? null,
              documentType: document.attributes.documentType ?? null,
              frDocNum: document.attributes.frDocNum ?? null,
              docketId: document.attributes.docketId ?? null,
              postedDate: document.attributes.postedDate ?? null,
              commentEndDate: document.attributes.commentEndDate ?? null,
              openForComment: document.attributes.openForComment ?? null,
              url: `https://www.regulations.gov/document/${document.id}`
            }))
          }))
        )
      )
    const cached = yield* cachedLookup({ capacity: 256, ttl: cacheTtl, lookup })

    const search = (params: RegulationsSearchParams): Effect.Effect<RegulationsSearchResponse> => {
      const limit = params.limit ?? 20
      return cached(new RegulationsKey({ query: params.query, limit })).pipe(
        Effect.map(({ results, total }) => {
          const page = results.slice(0, limit)
          return { ...empty(params), count: page.length, total, results: page, configured: true }
        }),
        Effect.catchAll(softly(label, (error) => ({ ...empty(params), configured: true, error })))
      )
    }

    return { search }
  })

class RegulationsKey extends Data.Class<{ readonly query: string; readonly limit: number }> {}
