import type { HttpClient } from "@effect/platform"
import type { Duration } from "effect"
import { Context, Effect, Layer, Redacted, Schema } from "effect"
import {
  type CourtCaseParams,
  type CourtCaseResult,
  type CourtDocumentsParams,
  type CourtDocumentsResult,
  CourtRecordsUnavailable,
  type CourtSearchParams,
  type CourtSearchResult
} from "../domain/CourtRecords.ts"
import { AppConfig } from "./AppConfig.ts"
import * as Upstream from "./Upstream.ts"

/**
 * CourtListener's REST API v4 under the caller's own token. The token travels in the
 * `Authorization: Token …` header of each request and nowhere else: not in the URL, not in a log
 * line (upstream failures are described without parameters), not in the store.
 */
export interface CourtRecordsShape {
  readonly search: (
    params: CourtSearchParams,
    token: Redacted.Redacted
  ) => Effect.Effect<CourtSearchResult, CourtRecordsUnavailable>
  readonly findCase: (
    params: CourtCaseParams,
    token: Redacted.Redacted
  ) => Effect.Effect<CourtCaseResult, CourtRecordsUnavailable>
  readonly documents: (
    params: CourtDocumentsParams,
    token: Redacted.Redacted
  ) => Effect.Effect<CourtDocumentsResult, CourtRecordsUnavailable>
}

export class CourtRecords extends Context.Tag("app/CourtRecords")<CourtRecords, CourtRecordsShape>() {}

export interface CourtRecordsOptions {
  readonly baseUrl: string
  /** Per attempt. */
  readonly timeout?: Duration.DurationInput
  /** The whole call, retries included. */
  readonly deadline?: Duration.DurationInput
  readonly retries?: number
}

const text = Schema.optional(Schema.NullOr(Schema.String))
const number = Schema.optional(Schema.NullOr(Schema.Number))

/** The wire shapes, as lenient as CourtListener's optional fields require; unknown keys are ignored. */
const SearchHitWire = Schema.Struct({
  caseName: text,
  court: text,
  court_id: text,
  docketNumber: text,
  docket_id: number,
  dateFiled: text,
  absolute_url: text,
  opinions: Schema.optional(Schema.Array(Schema.Struct({ snippet: text })))
})

const Page = <A, I>(item: Schema.Schema<A, I>) =>
  Schema.Struct({
    count: Schema.optional(Schema.NullOr(Schema.Union(Schema.Number, Schema.String))),
    next: text,
    results: Schema.Array(item)
  })

const DocketWire = Schema.Struct({
  id: Schema.Number,
  case_name: text,
  case_name_full: text,
  court_id: text,
  docket_number: text,
  date_filed: text,
  date_terminated: text,
  absolute_url: text
})

const RecapDocumentWire = Schema.Struct({
  id: Schema.Number,
  document_number: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number))),
  attachment_number: number,
  description: text,
  is_available: Schema.optional(Schema.NullOr(Schema.Boolean)),
  page_count: number,
  filepath_local: text,
  absolute_url: text
})

const DocketEntryWire = Schema.Struct({
  entry_number: number,
  date_filed: text,
  description: text,
  recap_documents: Schema.optional(Schema.Array(RecapDocumentWire))
})

/** CourtListener's `next` link carries its own cursor; only that is handed back, verbatim. */
const cursorOf = (next: string | null | undefined): string | null => {
  if (next === null || next === undefined) return null
  try {
    return new URL(next).searchParams.get("cursor")
  } catch {
    return null
  }
}

const unavailable = (error: Upstream.UpstreamError): CourtRecordsUnavailable => {
  const message = error.reason === "status" && (error.status === 401 || error.status === 403)
    ? `CourtListener refused the token (HTTP ${error.status}): check it on your profile's API page ` +
      "(https://www.courtlistener.com/profile/api/); docket entries may need an account with RECAP API access."
    : error.reason === "status" && error.status === 429
    ? "CourtListener's rate limit for this token was reached; try again later."
    : error.reason === "timeout"
    ? "CourtListener did not answer in time; try again later."
    : error.reason === "status"
    ? `CourtListener answered HTTP ${error.status}; try again later.`
    : error.reason === "decode"
    ? "CourtListener answered in an unexpected format; try again later."
    : "CourtListener could not be reached; try again later."
  return new CourtRecordsUnavailable({ message })
}

export const make = (options: CourtRecordsOptions) =>
  Effect.gen(function*() {
    const base = options.baseUrl.replace(/\/+$/, "")
    const client = yield* Upstream.make({
      name: "CourtListener",
      baseUrl: base,
      timeout: options.timeout ?? "8 seconds",
      retries: options.retries ?? 2
    })
    const deadline = options.deadline ?? "20 seconds"
    const site = base
    const link = (path: string | null | undefined) =>
      path === null || path === undefined || path === "" ? null : path.startsWith("http") ? path : `${site}${path}`

    const get = <A, I>(
      path: string,
      schema: Schema.Schema<A, I>,
      params: Record<string, string | number>,
      token: Redacted.Redacted
    ) =>
      client.getJson(path, schema, {
        params,
        headers: { authorization: `Token ${Redacted.value(token)}`, accept: "application/json" }
      }).pipe(
        Effect.timeoutFail({
          duration: deadline,
          onTimeout: () => new Upstream.UpstreamError({ upstream: "CourtListener", reason: "timeout", detail: path })
        }),
        Effect.tapError((error) =>
          Effect.logWarning("court records upstream failed", { reason: error.reason, status: error.status })
        ),
        Effect.mapError(unavailable)
      )

    const search = (params: CourtSearchParams, token: Redacted.Redacted) => {
      const kind = params.kind ?? "dockets"
      return Effect.map(
        get("/api/rest/v4/search/", Page(SearchHitWire), {
          q: params.query,
          type: kind === "dockets" ? "r" : "o",
          ...(params.court === undefined ? {} : { court: params.court }),
          ...(params.filed_after === undefined ? {} : { filed_after: params.filed_after }),
          ...(params.filed_before === undefined ? {} : { filed_before: params.filed_before }),
          ...(params.cursor === undefined ? {} : { cursor: params.cursor })
        }, token),
        (page): CourtSearchResult => ({
          kind,
          count: typeof page.count === "number" ? page.count : null,
          results: page.results.map((hit) => {
            const snippet = hit.opinions?.find((opinion) => (opinion.snippet ?? "").trim() !== "")?.snippet
            return {
              case_name: hit.caseName ?? "",
              court: hit.court_id ?? hit.court ?? null,
              docket_number: hit.docketNumber ?? null,
              docket_id: hit.docket_id ?? null,
              date_filed: hit.dateFiled ?? null,
              url: link(hit.absolute_url),
              ...(snippet === undefined || snippet === null ? {} : { snippet: snippet.trim() })
            }
          }),
          next_cursor: cursorOf(page.next),
          source: "CourtListener"
        })
      )
    }

    const findCase = (params: CourtCaseParams, token: Redacted.Redacted) =>
      Effect.map(
        get("/api/rest/v4/dockets/", Page(DocketWire), {
          docket_number: params.docket_number,
          court: params.court
        }, token),
        (page): CourtCaseResult => ({
          cases: page.results.map((docket) => ({
            docket_id: docket.id,
            case_name: docket.case_name ?? docket.case_name_full ?? "",
            court: docket.court_id ?? null,
            docket_number: docket.docket_number ?? null,
            date_filed: docket.date_filed ?? null,
            date_terminated: docket.date_terminated ?? null,
            url: link(docket.absolute_url)
          })),
          count: page.results.length,
          source: "CourtListener"
        })
      )

    const documents = (params: CourtDocumentsParams, token: Redacted.Redacted) =>
      Effect.map(
        get("/api/rest/v4/docket-entries/", Page(DocketEntryWire), {
          docket: params.docket_id,
          order_by: "-entry_number",
          ...(params.cursor === undefined ? {} : { cursor: params.cursor })
        }, token),
        (page): CourtDocumentsResult => ({
          docket_id: params.docket_id,
          entries: page.results.map((entry) => ({
            entry_number: entry.entry_number ?? null,
            date_filed: entry.date_filed ?? null,
            description: entry.description ?? null,
            documents: (entry.recap_documents ?? []).map((document) => ({
              id: document.id,
              document_number: document.document_number === null || document.document_number === undefined
                ? null
                : String(document.document_number),
              attachment_number: document.attachment_number ?? null,
              description: document.description ?? null,
              available: document.is_available === true,
              page_count: document.page_count ?? null,
              // the stored PDF when RECAP has it, else the document's page
              url: document.filepath_local !== null && document.filepath_local !== undefined &&
                  document.filepath_local !== ""
                ? `https://storage.courtlistener.com/${document.filepath_local}`
                : link(document.absolute_url)
            }))
          })),
          next_cursor: cursorOf(page.next),
          source: "CourtListener"
        })
      )

    return { search, findCase, documents } satisfies CourtRecordsShape
  })

export const layerWith = (options: CourtRecordsOptions): Layer.Layer<CourtRecords, never, HttpClient.HttpClient> =>
  Layer.effect(CourtRecords, make(options))

/** CourtListener at `COURTLISTENER_BASE_URL`, through the runtime's outbound HTTP client. */
export const layer = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => layerWith({ baseUrl: config.courtListenerBaseUrl }))
)
