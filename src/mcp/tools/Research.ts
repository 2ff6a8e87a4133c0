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

const failSoft = "If the source is down or not configured the result still arrives, with empty `results` and an " +
  "`error`: read `error` before taking \"no results\" as \"nothing found\"."

/** REST twin: `GET /api/federal-register`. */
export const searchFederalRegister = Tool.make({
  name: "search_federal_register",
  title: "Search the Federal Register",
  description: "Full-text search of Federal Register rules, proposed rules and notices, most relevant first; filter " +
    `by agency (BIS, DDTC, OFAC …) and document type. Use for rulemaking history and effective dates. ${failSoft}`,
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
  description: "One Federal Register document by number (e.g. `2025-05887`): metadata, CFR references, dockets " +
    `and the plain-text body, cut to the first ${FederalRegisterBodyChars} characters (\`body_truncated\`, ` +
    "`body_chars` and `body_source_url` tell what is missing). An unknown number is an error.",
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
  description: "Full-text search of SEC EDGAR filings since 2001 (10-K, 8-K, 20-F …) for disclosed export-control " +
    `matters: voluntary disclosures, penalties, Entity List exposure. Dates are YYYY-MM-DD. ${failSoft}`,
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
  description: "Search the current text of the whole Code of Federal Regulations, or one title (`title`: 15 EAR, " +
    "22 ITAR, 31 OFAC). Use it for parts this service does not mirror, such as 15 CFR 758 and 764, 22 CFR " +
    `120-130 or 31 CFR; hits name the section to cite. ${failSoft}`,
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
  description: "Search govinfo: annual CFR editions (rules as they stood in a past year), Federal Register issues, " +
    "the U.S. Code, public laws and congressional reports; `collection` narrows to one (e.g. `CFR`). Answers " +
    `\`configured: false\` when the server holds no data-portal key. ${failSoft}`,
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
  description: "Search regulations.gov rulemaking documents and dockets (proposed rules, comment requests, " +
    "supporting material) with their docket ids and FR document numbers. Answers `configured: false` when the " +
    `server holds no data-portal key. ${failSoft}`,
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
