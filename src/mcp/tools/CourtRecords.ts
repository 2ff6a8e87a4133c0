import { Context, Effect, Option, Redacted } from "effect"
import {
  CourtCaseParams,
  CourtCaseResult,
  CourtDocumentsParams,
  CourtDocumentsResult,
  CourtSearchParams,
  CourtSearchResult,
  type CourtTokenRequired,
  courtTokenRequired
} from "../../domain/CourtRecords.ts"
import { CourtRecords } from "../../services/CourtRecords.ts"
import * as Tool from "../Tool.ts"
import { json } from "./WorkspaceTool.ts"

/**
 * The CourtListener token of the request in flight, from its `X-CourtListener-Token` header: the
 * HTTP transport provides it per request; stdio has no headers, so there it comes in arguments.
 */
export class CourtTokenHeader extends Context.Tag("app/mcp/CourtTokenHeader")<CourtTokenHeader, Redacted.Redacted>() {}

/** The argument wins over the header; neither → an error result that says how to get a token. */
const withToken = <A, E, R>(
  argument: string | undefined,
  f: (token: Redacted.Redacted) => Effect.Effect<A, E, R>
): Effect.Effect<A, E | CourtTokenRequired, R> =>
  Effect.flatMap(Effect.serviceOption(CourtTokenHeader), (header) => {
    const token = argument === undefined ? header : Option.some(Redacted.make(argument))
    return Option.match(token, {
      onNone: (): Effect.Effect<A, E | CourtTokenRequired, R> => Effect.fail(courtTokenRequired),
      onSome: f
    })
  })

const openWorld = (title: string) => Tool.readOnly(title, true)

const tokenNote = "Needs your CourtListener token (argument or X-CourtListener-Token header)."

/** Enterprise, MCP only (no REST twin: party names stay out of URLs). */
export const searchCourtRecords = Tool.make({
  name: "search_court_records",
  title: "Search courts",
  description: `Search U.S. court dockets or opinions (CourtListener). ${tokenNote}`,
  version: "1.0.0",
  enterprise: true,
  annotations: openWorld("Search courts"),
  input: CourtSearchParams,
  output: json(CourtSearchResult),
  run: (params) =>
    withToken(
      params.courtlistener_token,
      (token) => Effect.flatMap(CourtRecords, (court) => court.search(params, token))
    )
})

export const findCourtCase = Tool.make({
  name: "find_court_case",
  title: "Find a court case",
  description: `A docket by number and court id (e.g. dcd). ${tokenNote}`,
  version: "1.0.0",
  enterprise: true,
  annotations: openWorld("Find a court case"),
  input: CourtCaseParams,
  output: json(CourtCaseResult),
  run: (params) =>
    withToken(
      params.courtlistener_token,
      (token) => Effect.flatMap(CourtRecords, (court) => court.findCase(params, token))
    )
})

export const getCourtCaseDocuments = Tool.make({
  name: "get_court_case_documents",
  title: "Case documents",
  description: `A docket's entries and documents. ${tokenNote}`,
  version: "1.0.0",
  enterprise: true,
  annotations: openWorld("Case documents"),
  input: CourtDocumentsParams,
  output: json(CourtDocumentsResult),
  run: (params) =>
    withToken(
      params.courtlistener_token,
      (token) => Effect.flatMap(CourtRecords, (court) => court.documents(params, token))
    )
})

export const courtRecordsTools = [searchCourtRecords, findCourtCase, getCourtCaseDocuments] as const
