import { Effect } from "effect"
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
  output: Tool.structured(FederalRegisterSearchResponse),
  run: (params) => Effect.flatMap(Research, (research) => research.searchFederalRegister(params))
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
  output: Tool.structured(SecEdgarSearchResponse),
  run: (params) => Effect.flatMap(Research, (research) => research.searchSecEdgar(params))
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
  output: Tool.structured(CfrSearchResponse),
  run: (params) => Effect.flatMap(Research, (research) => research.searchEcfr(params))
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
  output: Tool.structured(GovinfoSearchResponse),
  run: (params) => Effect.flatMap(Research, (research) => research.searchGovinfo(params))
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
  output: Tool.structured(RegulationsSearchResponse),
  run: (params) => Effect.flatMap(Research, (research) => research.searchRegulations(params))
})

export const researchTools = [
  searchFederalRegister,
  getFederalRegisterDocument,
  searchSecEdgar,
  searchEcfr,
  searchGovinfo,
  searchRegulations
] as const
