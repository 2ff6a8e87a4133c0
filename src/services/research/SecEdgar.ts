import { Data, Effect, Schema } from "effect"
import { InvalidRequest } from "../../domain/Problem.ts"
import type { SecEdgarSearchParams, SecEdgarSearchResponse } from "../../domain/Research.ts"
import type { UpstreamClient } from "../Upstream.ts"
import { cachedLookup, decodeEach, optionalNullable, softly, today } from "./FailSoft.ts"

const label = "SEC EDGAR full-text search"
const searchPath = "/LATEST/search-index"

/** Filings are immutable once published; an hour keeps new filings visible the same day. */
export const cacheTtl = "1 hour"

/** EDGAR full-text search covers filings from 2001 on. */
const earliest = "2001-01-01"

const Strings = optionalNullable(Schema.Array(Schema.String))

const WireHit = Schema.Struct({
  _id: Schema.String,
  _source: Schema.Struct({
    adsh: optionalNullable(Schema.String),
    form: optionalNullable(Schema.String),
    root_forms: Strings,
    file_date: optionalNullable(Schema.String),
    period_ending: optionalNullable(Schema.String),
    display_names: Strings,
    ciks: Strings,
    file_description: optionalNullable(Schema.String),
    file_type: optionalNullable(Schema.String)
  })
})
type WireHit = typeof WireHit.Type

const WireSearch = Schema.Struct({
  hits: Schema.Struct({
    total: optionalNullable(Schema.Struct({ value: Schema.Number })),
    hits: Schema.Array(Schema.Unknown)
  })
})

/** `_id` is `<accession number>:<file name>`; the archive path uses the first CIK without leading zeros. */
const archiveLinks = (hit: WireHit) => {
  const [idAccession, fileName] = hit._id.split(":")
  const accession = hit._source.adsh ?? idAccession ?? ""
  const cik = hit._source.ciks?.[0]?.replace(/^0+/, "")
  if (!/^\d{10}-\d{2}-\d{6}$/.test(accession) || cik === undefined || !/^\d+$/.test(cik)) {
    return { accession, document: null, index: null }
  }
  const folder = `https://www.sec.gov/Archives/edgar/data/${cik}/${accession.replaceAll("-", "")}`
  const safeFile = fileName !== undefined && /^[\w.-]+$/.test(fileName) ? fileName : undefined
  return {
    accession,
    document: safeFile === undefined ? null : `${folder}/${safeFile}`,
    index: `${folder}/${accession}-index.htm`
  }
}

const invalidDates = (reason: string) =>
  new InvalidRequest({
    detail: `Invalid parameter: date_from (${reason})`,
    invalidParams: [{ name: "date_from", in: "query", reason }]
  })

/** `configured`: the client carries an operator User-Agent with a contact address (EDGAR refuses others). */
export const make = (client: UpstreamClient, configured: boolean) =>
  Effect.gen(function*() {
    const source = `${client.baseUrl}${searchPath}`

    const lookup = (key: EdgarKey) =>
      client.getJson(searchPath, WireSearch, {
        params: {
          q: key.query,
          dateRange: "custom",
          startdt: key.from,
          enddt: key.to,
          ...(key.forms === null ? {} : { forms: key.forms })
        }
      }).pipe(
        Effect.flatMap((answer) =>
          Effect.map(decodeEach(client.name, WireHit, answer.hits.hits), (hits) => ({
            total: answer.hits.total?.value ?? hits.length,
            results: hits.map((hit) => {
              const links = archiveLinks(hit)
              return {
                accession_number: links.accession,
                form: hit._source.form ?? hit._source.root_forms?.[0] ?? "",
                file_date: hit._source.file_date ?? "",
                period_ending: hit._source.period_ending ?? null,
                companies: [...(hit._source.display_names ?? [])],
                ciks: [...(hit._source.ciks ?? [])],
                description: hit._source.file_description ?? hit._source.file_type ?? null,
                document_url: links.document,
                filing_index_url: links.index
              }
            })
          }))
        )
      )
    const cached = yield* cachedLookup({ capacity: 256, ttl: cacheTtl, lookup })

    const search = (params: SecEdgarSearchParams): Effect.Effect<SecEdgarSearchResponse, InvalidRequest> =>
      Effect.gen(function*() {
        const empty = { query: params.query, count: 0, total: null, results: [], source }
        if (!configured) {
          return {
            ...empty,
            configured: false,
            error: "SEC EDGAR search is not configured on this server: EDGAR requires a User-Agent naming the " +
              "operator and a contact address (SEC_EDGAR_USER_AGENT)."
          }
        }
        const to = params.date_to ?? (yield* today)
        const from = params.date_from ?? earliest
        if (from > to) return yield* invalidDates("date_from is after date_to")
        const limit = params.limit ?? 20
        const forms = params.forms === undefined ? null : params.forms.toUpperCase()
        const key = new EdgarKey({ query: params.query, forms, from, to })
        return yield* cached(key).pipe(
          Effect.map(({ results, total }) => {
            const page = results.slice(0, limit)
            return { ...empty, count: page.length, total, results: page, configured: true }
          }),
          Effect.catchAll(softly(label, (error) => ({ ...empty, configured: true, error })))
        )
      })

    return { search }
  })

class EdgarKey extends Data.Class<{
  readonly query: string
  readonly forms: string | null
  readonly from: string
  readonly to: string
}> {}
