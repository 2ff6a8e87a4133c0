import { Effect, Schema } from "effect"
import { type DataState, DataStateFields } from "../../domain/DataState.ts"
import {
  CfrSearchParams,
  CfrSearchResponse,
  FederalRegisterDocumentParams,
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
import { Research } from "../../services/Research.ts"
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

/** Bodies an agent can read in one go: long rules are cut here, `body_truncated` says so. */
export const FederalRegisterBodyChars = 40_000

const failSoft = "Fails soft: read `error` first."

/** REST twin: `GET /api/federal-register`. */
export const searchFederalRegister = Tool.make({
  name: "search_federal_register",
  title: "Search the Federal Register",
  description: `Federal Register full-text search (rules, proposed rules, notices) by agency and type: rulemaking ` +
    `history, effective dates. ${failSoft}`,
  version: "1.0.0",
  annotations: Tool.readOnly("Search the Federal Register", true),
  input: Tool.jsonArguments(FederalRegisterSearchParams),
  output: Tool.structured(Schema.Struct({ ...FederalRegisterSearchResponse.fields, ...DataStateFields })),
  run: (params) => Effect.flatMap(Research, (research) => Effect.map(research.searchFederalRegister(params), withState))
})

/** REST twin: `GET /api/federal-register/{document_number}` (body cut to about 40,000 characters here). */
export const getFederalRegisterDocument = Tool.make({
  name: "get_federal_register_document",
  title: "Read a Federal Register document",
  description: `One Federal Register document by number (\`2025-05887\`): metadata, CFR references, dockets, ` +
    `plain-text body cut at ${FederalRegisterBodyChars} characters (\`body_truncated\`, \`body_source_url\`).`,
  version: "1.0.0",
  annotations: Tool.readOnly("Read a Federal Register document", true),
  input: FederalRegisterDocumentParams,
  output: Tool.structured(FederalRegisterDocumentResponse),
  run: ({ document_number }) =>
    Effect.flatMap(
      Research,
      (research) => research.getFederalRegisterDocument(document_number, { maxBodyChars: FederalRegisterBodyChars })
    )
})

/** REST twin: `GET /api/sec-edgar`. */
export const searchSecEdgar = Tool.make({
  name: "search_sec_edgar",
  title: "Search SEC EDGAR filings",
  description: `SEC EDGAR full-text search (10-K, 8-K, 20-F … since 2001) for disclosed export matters. ${failSoft}`,
  version: "1.0.0",
  annotations: Tool.readOnly("Search SEC EDGAR filings", true),
  input: Tool.jsonArguments(SecEdgarSearchParams),
  output: Tool.structured(Schema.Struct({ ...SecEdgarSearchResponse.fields, ...DataStateFields })),
  run: (params) => Effect.flatMap(Research, (research) => Effect.map(research.searchSecEdgar(params), withState))
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
  output: Tool.structured(Schema.Struct({ ...CfrSearchResponse.fields, ...DataStateFields })),
  run: (params) => Effect.flatMap(Research, (research) => Effect.map(research.searchEcfr(params), withState))
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
  output: Tool.structured(Schema.Struct({ ...GovinfoSearchResponse.fields, ...DataStateFields })),
  run: (params) => Effect.flatMap(Research, (research) => Effect.map(research.searchGovinfo(params), withState))
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
  output: Tool.structured(Schema.Struct({ ...RegulationsSearchResponse.fields, ...DataStateFields })),
  run: (params) => Effect.flatMap(Research, (research) => Effect.map(research.searchRegulations(params), withState))
})

export const researchTools = [
  searchFederalRegister,
  getFederalRegisterDocument,
  searchSecEdgar,
  searchEcfr,
  searchGovinfo,
  searchRegulations
] as const
