import { Effect, Schema } from "effect"
import { type DataState, DataStateFields } from "../../domain/DataState.ts"
import {
  CfrSearchParams,
  CfrSearchResponse,
  FederalRegisterDocumentNumber,
  FederalRegisterDocumentResponse,
  FederalRegisterSearchParams,
  FederalRegisterSearchResponse,
  GovinfoSearchParams,
  GovinfoSearchResponse,
  RegulationsSearchParams,
  RegulationsSearchResponse,
  SecEdgarSearchParams,
  SecEdgarSearchResponse
} from "../../domain/Research.ts"
import { PagedFields, PageOffset } from "../../domain/ResultBudget.ts"
import { Research } from "../../services/Research.ts"
import * as Budget from "../Budget.ts"
import * as Tool from "../Tool.ts"

/** A fail-soft search answer with its state beside the hits: no credential, a failed upstream, or searched. */
const withState = <A extends { readonly error?: string | undefined; readonly configured?: boolean }>(
  answer: A
): A & DataState => ({
  ...answer,
  ...(answer.configured === false
    ? { data_state: "not_configured" as const, data_note: "This server holds no credential for the source." }
    : answer.error !== undefined
    ? { data_state: "error" as const, data_note: "The source failed; no results say nothing." }
    : { data_state: "ok" as const })
})

const failSoft = "Fails soft: read `error` first."

/** A search answer with its state, cut to the result budget. */
const searchAnswer = <
  A extends {
    readonly error?: string | undefined
    readonly configured?: boolean
    readonly results: ReadonlyArray<unknown>
  }
>(answer: A) => Budget.fitHits(withState(answer), "results", "Ask again with a smaller `limit` or a narrower `query`.")

const DocumentInput = Schema.Struct({
  document_number: Schema.optional(FederalRegisterDocumentNumber.annotations({ description: "`2025-05887`" })),
  citation: Schema.optional(
    Schema.String.pipe(Schema.minLength(4), Schema.maxLength(60)).annotations({
      description: "Instead of the number: `90 FR 47201` or `FR Doc. 2025-19001`"
    })
  ),
  offset: PageOffset
}).pipe(
  Schema.filter((input) => (input.document_number === undefined) !== (input.citation === undefined), {
    message: () => "give `document_number` or `citation`, one of them"
  })
)
type DocumentInput = typeof DocumentInput.Type

const DocumentPage = Schema.Struct({
  ...FederalRegisterDocumentResponse.fields,
  body_offset: Schema.optional(Schema.Int.annotations({ description: "Where in the whole text `body` starts" })),
  ...PagedFields
})
type DocumentPage = typeof DocumentPage.Type

/**
 * A document within the result budget: the metadata whole, the body a page from `offset` (rules
 * run to hundreds of thousands of characters), and the call that reads on.
 */
export const documentPage = (answer: FederalRegisterDocumentResponse, input: DocumentInput): DocumentPage => {
  const document = answer.document
  if (document === null || document.body === null) return answer
  const room = Budget.DefaultResultChars - Budget.jsonChars({ ...answer, document: { ...document, body: "" } }) - 700
  const page = Budget.pageOf(document.body, input.offset ?? 0, Math.max(1_000, room))
  if (page.offset === 0 && page.end === page.total) return answer
  const next = page.end < page.total
  const { offset: _offset, ...args } = input
  return {
    ...answer,
    document: { ...document, body: page.text, body_truncated: true },
    body_offset: page.offset,
    ...(next ? { next_offset: page.end } : {}),
    rest: `Body characters ${page.offset}-${page.end} of ${page.total}.${
      next
        ? ` Rest: ${
          Budget.callOf("get_federal_register_document", {
            ...args,
            ...(args.citation === undefined ? {} : { citation: undefined, document_number: answer.document_number }),
            offset: page.end
          })
        }`
        : " End of text."
    }`
  }
}

/** REST twin: `GET /api/federal-register`. */
export const searchFederalRegister = Tool.make({
  name: "search_federal_register",
  title: "Search the Federal Register",
  description: `Federal Register full-text search (rules, proposed rules, notices) by agency and type: rulemaking ` +
    `history, effective dates. ${failSoft}`,
  version: "1.0.0",
  annotations: Tool.readOnly("Search the Federal Register", true),
  input: Tool.jsonArguments(FederalRegisterSearchParams),
  output: Tool.structured(
    Schema.Struct({ ...FederalRegisterSearchResponse.fields, ...DataStateFields, rest: PagedFields.rest })
  ),
  run: (params) =>
    Effect.flatMap(Research, (research) => Effect.map(research.searchFederalRegister(params), searchAnswer))
})

/**
 * REST twin: `GET /api/federal-register/{document_number}`; a citation is resolved first, and the
 * body comes in pages of the result budget.
 */
export const getFederalRegisterDocument = Tool.make({
  name: "get_federal_register_document",
  title: "Read a Federal Register document",
  description: "One Federal Register document by number or citation: title, dates, CFR parts (`cfr_references`), " +
    `dockets, link, and the plain-text body in pages of about ${Budget.DefaultResultChars} characters.`,
  version: "1.1.0",
  annotations: Tool.readOnly("Read a Federal Register document", true),
  input: DocumentInput,
  output: Tool.structured(DocumentPage),
  run: (input) =>
    Effect.flatMap(Research, (research) =>
      Effect.map(
        input.citation === undefined
          ? research.getFederalRegisterDocument(input.document_number!)
          : research.federalRegisterByCitation(input.citation),
        (answer) => documentPage(answer, input)
      ))
})

/** REST twin: `GET /api/sec-edgar`. */
export const searchSecEdgar = Tool.make({
  name: "search_sec_edgar",
  title: "Search SEC EDGAR filings",
  description: `SEC EDGAR full-text search (10-K, 8-K, 20-F … since 2001) for disclosed export matters. ${failSoft}`,
  version: "1.0.0",
  annotations: Tool.readOnly("Search SEC EDGAR filings", true),
  input: Tool.jsonArguments(SecEdgarSearchParams),
  output: Tool.structured(
    Schema.Struct({ ...SecEdgarSearchResponse.fields, ...DataStateFields, rest: PagedFields.rest })
  ),
  run: (params) => Effect.flatMap(Research, (research) => Effect.map(research.searchSecEdgar(params), searchAnswer))
})

/** REST twin: `GET /api/cfr-search`. */
export const searchEcfr = Tool.make({
  name: "search_ecfr",
  title: "Search the whole CFR",
  description: `Search the whole CFR or one title (15, 22, 31): for parts not mirrored here (15 CFR 758, 764; ` +
    `22 CFR 120-130; 31 CFR). ${failSoft}`,
  version: "1.0.0",
  annotations: Tool.readOnly("Search the whole CFR", true),
  input: Tool.jsonArguments(CfrSearchParams),
  output: Tool.structured(Schema.Struct({ ...CfrSearchResponse.fields, ...DataStateFields, rest: PagedFields.rest })),
  run: (params) => Effect.flatMap(Research, (research) => Effect.map(research.searchEcfr(params), searchAnswer))
})

/** REST twin: `GET /api/govinfo`. */
export const searchGovinfo = Tool.make({
  name: "search_govinfo",
  title: "Search govinfo publications",
  description: `Search govinfo: annual CFR editions (past years), FR issues, U.S. Code, public laws; \`collection\` ` +
    `narrows. \`configured: false\` without a data-portal key. ${failSoft}`,
  version: "1.0.0",
  annotations: Tool.readOnly("Search govinfo publications", true),
  input: Tool.jsonArguments(GovinfoSearchParams),
  output: Tool.structured(
    Schema.Struct({ ...GovinfoSearchResponse.fields, ...DataStateFields, rest: PagedFields.rest })
  ),
  run: (params) => Effect.flatMap(Research, (research) => Effect.map(research.searchGovinfo(params), searchAnswer))
})

/** REST twin: `GET /api/regulations`. */
export const searchRegulations = Tool.make({
  name: "search_regulations",
  title: "Search regulations.gov",
  description: `Search regulations.gov documents and dockets with docket ids and FR numbers. \`configured: false\` ` +
    `without a data-portal key. ${failSoft}`,
  version: "1.0.0",
  annotations: Tool.readOnly("Search regulations.gov", true),
  input: Tool.jsonArguments(RegulationsSearchParams),
  output: Tool.structured(
    Schema.Struct({ ...RegulationsSearchResponse.fields, ...DataStateFields, rest: PagedFields.rest })
  ),
  run: (params) => Effect.flatMap(Research, (research) => Effect.map(research.searchRegulations(params), searchAnswer))
})

export const researchTools = [
  searchFederalRegister,
  getFederalRegisterDocument,
  searchSecEdgar,
  searchEcfr,
  searchGovinfo,
  searchRegulations
] as const
