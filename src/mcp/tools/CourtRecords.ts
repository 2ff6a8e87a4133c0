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

const tokenNote = "Runs under your own CourtListener token (argument or X-CourtListener-Token header; never stored)."

/** Enterprise, MCP only (no REST twin: party names stay out of URLs). */
export const searchCourtRecords = Tool.make({
  name: "search_court_records",
  title: "Search court records",
  description: "Search U.S. court dockets (RECAP) or opinions on CourtListener: case name, court, docket number, " +
    `docket_id, filing date, link. Page with next_cursor. ${tokenNote}`,
  version: "1.0.0",
  enterprise: true,
  annotations: openWorld("Search court records"),
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
  description: `A docket by docket number and CourtListener court id (e.g. 1:23-cr-00045 in dcd). ${tokenNote}`,
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
  title: "Court case documents",
  description: "A docket's entries, newest first, with their RECAP documents (availability, pages, PDF link). " +
    `Page with next_cursor. ${tokenNote}`,
  version: "1.0.0",
  enterprise: true,
  annotations: openWorld("Court case documents"),
  input: CourtDocumentsParams,
  output: json(CourtDocumentsResult),
  run: (params) =>
    withToken(
      params.courtlistener_token,
      (token) => Effect.flatMap(CourtRecords, (court) => court.documents(params, token))
    )
})

export const courtRecordsTools = [searchCourtRecords, findCourtCase, getCourtCaseDocuments] as const
