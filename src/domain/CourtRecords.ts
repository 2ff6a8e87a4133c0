import { Schema } from "effect"
import { Day, exact, matching, Text } from "./workspace/Fields.ts"

/**
 * Court records from CourtListener (REST API v4), read under the caller's own CourtListener token:
 * the token is passed per call (argument or `X-CourtListener-Token` header), never stored, never
 * logged. MCP only: no REST twin (party names would reach URLs and logs).
 */

export const CourtTokenHeader = "x-courtlistener-token"

export const CourtToken = matching(/^[A-Za-z0-9]{20,128}$/, "must be a CourtListener API token (letters and digits)")

const token = Schema.optionalWith(
  CourtToken.annotations({ description: "Your CourtListener API token (or send the X-CourtListener-Token header)" }),
  exact
)

export const CourtId = matching(/^[a-z0-9]{2,16}$/, "must be a CourtListener court id such as dcd, nysd or cadc")

/** CourtListener's own page cursor, passed through. */
export const CourtCursor = matching(/^[A-Za-z0-9%=_-]{1,300}$/, "is not a cursor of this list")

export const CourtSearchParams = Schema.Struct({
  query: Text(500),
  kind: Schema.optionalWith(
    Schema.Literal("dockets", "opinions").annotations({ description: "Default dockets (RECAP)" }),
    exact
  ),
  court: Schema.optionalWith(CourtId, exact),
  filed_after: Schema.optionalWith(Day, exact),
  filed_before: Schema.optionalWith(Day, exact),
  cursor: Schema.optionalWith(CourtCursor, exact),
  courtlistener_token: token
})
export type CourtSearchParams = typeof CourtSearchParams.Type

export const CourtCaseParams = Schema.Struct({
  docket_number: Text(100),
  court: CourtId,
  courtlistener_token: token
})
export type CourtCaseParams = typeof CourtCaseParams.Type

export const CourtDocumentsParams = Schema.Struct({
  docket_id: Schema.Number.pipe(
    Schema.filter((value) => (Number.isInteger(value) && value > 0) || "must be a docket id (a positive integer)", {
      jsonSchema: { type: "integer", minimum: 1 }
    })
  ),
  cursor: Schema.optionalWith(CourtCursor, exact),
  courtlistener_token: token
})
export type CourtDocumentsParams = typeof CourtDocumentsParams.Type

const nullableString = Schema.NullOr(Schema.String)

export const CourtSearchHit = Schema.Struct({
  case_name: Schema.String,
  court: nullableString,
  docket_number: nullableString,
  docket_id: Schema.NullOr(Schema.Number),
  date_filed: nullableString,
  url: nullableString,
  snippet: Schema.optionalWith(Schema.String, exact)
})

export const CourtSearchResult = Schema.Struct({
  kind: Schema.Literal("dockets", "opinions"),
  count: Schema.NullOr(Schema.Number),
  results: Schema.Array(CourtSearchHit),
  next_cursor: nullableString,
  source: Schema.String
})
export type CourtSearchResult = typeof CourtSearchResult.Type

export const CourtCase = Schema.Struct({
  docket_id: Schema.Number,
  case_name: Schema.String,
  court: nullableString,
  docket_number: nullableString,
  date_filed: nullableString,
  date_terminated: nullableString,
  url: nullableString
})

export const CourtCaseResult = Schema.Struct({
  cases: Schema.Array(CourtCase),
  count: Schema.Number,
  source: Schema.String
})
export type CourtCaseResult = typeof CourtCaseResult.Type

export const CourtDocument = Schema.Struct({
  id: Schema.Number,
  document_number: nullableString,
  attachment_number: Schema.NullOr(Schema.Number),
  description: nullableString,
  available: Schema.Boolean,
  page_count: Schema.NullOr(Schema.Number),
  url: nullableString
})

export const CourtDocketEntry = Schema.Struct({
  entry_number: Schema.NullOr(Schema.Number),
  date_filed: nullableString,
  description: nullableString,
  documents: Schema.Array(CourtDocument)
})

export const CourtDocumentsResult = Schema.Struct({
  docket_id: Schema.Number,
  entries: Schema.Array(CourtDocketEntry),
  next_cursor: nullableString,
  source: Schema.String
})
export type CourtDocumentsResult = typeof CourtDocumentsResult.Type

/** No token with the call: the error tells the caller how to get one. */
export class CourtTokenRequired extends Schema.TaggedError<CourtTokenRequired>()("CourtTokenRequired", {
  message: Schema.String
}) {
  static readonly status = 401
}

export const courtTokenRequired = new CourtTokenRequired({
  message: "A CourtListener API token is required. Create a free account at https://www.courtlistener.com, copy " +
    "the token from your profile's API page (https://www.courtlistener.com/profile/api/), and pass it as " +
    "`courtlistener_token` or in the X-CourtListener-Token header. It is used for this call only and never stored."
})

/** CourtListener refused, failed or timed out; the message says which and what to do. */
export class CourtRecordsUnavailable extends Schema.TaggedError<CourtRecordsUnavailable>()("CourtRecordsUnavailable", {
  message: Schema.String
}) {
  static readonly status = 502
}
