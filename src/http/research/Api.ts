import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  CfrSearchParams,
  CfrSearchResponse,
  FederalRegisterDocumentNotFound,
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
import { IndexGroup } from "../Annotations.ts"

const failSoft = "Fails soft: when the upstream is slow, unreachable, answers garbage or is not configured, the " +
  "answer is still 200 with empty `results` and an `error` (and `Cache-Control: no-store`); check `error` before " +
  "reading an empty result as \"nothing found\"."

export class ResearchGroup extends HttpApiGroup.make("research")
  .add(
    HttpApiEndpoint.get("federalRegister", "/api/federal-register")
      .setUrlParams(FederalRegisterSearchParams)
      .addSuccess(FederalRegisterSearchResponse)
      .annotate(OpenApi.Summary, "search the Federal Register (rules, proposed rules, notices) by relevance")
      .annotate(OpenApi.Description, `Federal Register API full-text search, cached about 6 hours. ${failSoft}`)
  )
  .add(
    HttpApiEndpoint.get("federalRegisterDocument", "/api/federal-register/:document_number")
      .setPath(FederalRegisterDocumentParams)
      .addSuccess(FederalRegisterDocumentResponse)
      .addError(FederalRegisterDocumentNotFound)
      .annotate(OpenApi.Summary, "one Federal Register document: metadata and plain-text body")
      .annotate(
        OpenApi.Description,
        "Metadata from the Federal Register API and the document's plain text (bodies beyond 2,000,000 " +
          "characters are cut and marked `body_truncated`), cached about 6 hours. 404 when the Federal Register " +
          `has no such document. ${failSoft} When only the text fails, the metadata is served with \`body: null\`.`
      )
  )
  .add(
    HttpApiEndpoint.get("secEdgar", "/api/sec-edgar")
      .setUrlParams(SecEdgarSearchParams)
      .addSuccess(SecEdgarSearchResponse)
      .annotate(OpenApi.Summary, "full-text search of SEC EDGAR filings (for disclosed export-control matters)")
      .annotate(
        OpenApi.Description,
        "EDGAR full-text search (filings from 2001), cached 1 hour. Dates default to 2001-01-01 through today; " +
          `\`date_from\` after \`date_to\` is a 400. ${failSoft} Answers \`configured: false\` when the operator ` +
          "has not set the contact User-Agent EDGAR requires."
      )
  )
  .add(
    HttpApiEndpoint.get("cfrSearch", "/api/cfr-search")
      .setUrlParams(CfrSearchParams)
      .addSuccess(CfrSearchResponse)
      .annotate(OpenApi.Summary, "search the whole CFR (every title, or one) for the current text")
      .annotate(
        OpenApi.Description,
        "eCFR search across all 50 titles (or `title`), limited to the current version, cached 1 hour. Use it " +
          `for parts the service does not mirror (15 CFR 758, 764, 22 CFR 120-130, 31 CFR). ${failSoft}`
      )
  )
  .add(
    HttpApiEndpoint.get("govinfo", "/api/govinfo")
      .setUrlParams(GovinfoSearchParams)
      .addSuccess(GovinfoSearchResponse)
      .annotate(OpenApi.Summary, "search govinfo publications (annual CFR editions, FR issues, U.S. Code, reports)")
      .annotate(
        OpenApi.Description,
        "govinfo search, cached 6 hours; `collection` narrows to one collection (e.g. `CFR`). Needs the server's " +
          `data-portal key: without it the answer is \`{ configured: false, error }\`. ${failSoft}`
      )
  )
  .add(
    HttpApiEndpoint.get("regulations", "/api/regulations")
      .setUrlParams(RegulationsSearchParams)
      .addSuccess(RegulationsSearchResponse)
      .annotate(OpenApi.Summary, "search regulations.gov rulemaking documents and dockets")
      .annotate(
        OpenApi.Description,
        "regulations.gov v4 document search, cached 1 hour. Needs the server's data-portal key: without it the " +
          `answer is \`{ configured: false, error }\`. ${failSoft}`
      )
  )
  .annotate(IndexGroup, "intel")
  .annotate(OpenApi.Title, "Research")
{}
