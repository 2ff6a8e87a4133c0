import { Schema } from "effect"
import * as Examples from "./examples/Research.ts"
import { problem } from "./Problem.ts"

/**
 * Research searches over federal sources. Every response is fail-soft: when the upstream is slow,
 * unreachable, answers garbage or is not configured, the response is still 200 with empty
 * `results` and an `error` saying why, so "no results" is never confused with "no answer".
 * Parameter structs are in URL form (numbers as strings); their decoded types are what the
 * service methods (and MCP tools) take.
 */

export const QueryMaxLength = 300

const Query = Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(QueryMaxLength))

const Limit = (max: number, fallback: number) =>
  Schema.optional(
    Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, max)).annotations({
      description: `Maximum results (default ${fallback})`
    })
  )

/** A real calendar day: `2099-02-30` is refused, not rolled over to March. */
const isCalendarDay = (value: string) => {
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}

export const IsoDate = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}$/),
  Schema.filter((value) => isCalendarDay(value) || "not a calendar date")
).annotations({ description: "A date, YYYY-MM-DD", examples: ["2025-01-15"] })

const soft = {
  error: Schema.optional(Schema.String.annotations({
    description: "Present when the upstream failed or is not configured; `results` is then empty. Absence of " +
      "results without `error` means the upstream found nothing."
  }))
}

const total = Schema.NullOr(Schema.Int).annotations({
  description: "How many matches the upstream reports in all (null when it does not say)"
})

const source = Schema.String.annotations({ description: "The upstream API that answered (or was asked)" })

const configured = Schema.Boolean.annotations({
  description: "False when the server holds no credential for this upstream; the search is then not attempted"
})

// ---- Federal Register ----

/** Agencies accepted by `agency`, and the Federal Register slug each one searches. */
export const federalRegisterAgencies = {
  BIS: "industry-and-security-bureau",
  DDTC: "state-department",
  STATE: "state-department",
  COMMERCE: "commerce-department",
  ITA: "international-trade-administration",
  CENSUS: "census-bureau",
  OFAC: "foreign-assets-control-office",
  TREASURY: "treasury-department",
  DOJ: "justice-department",
  DOE: "energy-department",
  NRC: "nuclear-regulatory-commission"
} as const

export const FederalRegisterAgency = Schema.Literal(
  ...Object.keys(federalRegisterAgencies) as Array<keyof typeof federalRegisterAgencies>
).annotations({
  description: "Publishing agency (DDTC publishes as STATE: both search the State Department)"
})

export const FederalRegisterDocType = Schema.Literal("RULE", "PRORULE", "NOTICE", "PRESDOCU").annotations({
  description: "RULE, PRORULE (proposed), NOTICE, PRESDOCU (presidential)"
})

export const FederalRegisterSearchParams = Schema.Struct({
  query: Query,
  agency: Schema.optional(FederalRegisterAgency),
  doc_type: Schema.optional(FederalRegisterDocType),
  limit: Limit(100, 20)
})
export type FederalRegisterSearchParams = typeof FederalRegisterSearchParams.Type

export const FederalRegisterHit = Schema.Struct({
  document_number: Schema.String,
  title: Schema.String,
  type: Schema.String.annotations({ description: "Rule, Proposed Rule, Notice or Presidential Document" }),
  abstract: Schema.NullOr(Schema.String),
  agencies: Schema.Array(Schema.String),
  publication_date: Schema.String,
  effective_on: Schema.NullOr(Schema.String),
  citation: Schema.NullOr(Schema.String).annotations({ description: "Volume and page, e.g. `90 FR 14850`" }),
  html_url: Schema.String,
  pdf_url: Schema.NullOr(Schema.String)
}).annotations({ identifier: "FederalRegisterHit" })
export type FederalRegisterHit = typeof FederalRegisterHit.Type

export const FederalRegisterSearchResponse = Schema.Struct({
  query: Schema.String,
  count: Schema.Int,
  total,
  results: Schema.Array(FederalRegisterHit),
  source,
  ...soft
}).annotations({ identifier: "FederalRegisterSearchResponse", examples: [Examples.federalRegisterSearch] })
export type FederalRegisterSearchResponse = typeof FederalRegisterSearchResponse.Type

/** Federal Register document numbers: `2025-05887`, `E9-1234`, `C1-2024-01234`, `99-1234`. */
export const FederalRegisterDocumentNumber = Schema.String.pipe(
  Schema.pattern(/^(?:[A-Z]\d-)?(?:\d{4}|\d{2}|[A-Z]\d)-\d{1,6}$/)
).annotations({
  description: "Federal Register document number, e.g. `2025-05887` (letters upper-case)",
  examples: ["2025-05887"]
})

export const FederalRegisterDocumentParams = Schema.Struct({ document_number: FederalRegisterDocumentNumber })

export const FederalRegisterDocument = Schema.Struct({
  ...FederalRegisterHit.fields,
  action: Schema.NullOr(Schema.String),
  dates: Schema.NullOr(Schema.String),
  docket_ids: Schema.Array(Schema.String),
  cfr_references: Schema.Array(Schema.Struct({ title: Schema.Int, part: Schema.NullOr(Schema.Int) })),
  body: Schema.NullOr(Schema.String).annotations({
    description: "The document's plain text; null when the text could not be fetched (see `error`)"
  }),
  body_chars: Schema.NullOr(Schema.Int).annotations({ description: "Length of the whole text, in characters" }),
  body_truncated: Schema.Boolean.annotations({ description: "True when `body` is cut short of `body_chars`" }),
  body_source_url: Schema.NullOr(Schema.String)
}).annotations({ identifier: "FederalRegisterDocument" })
export type FederalRegisterDocument = typeof FederalRegisterDocument.Type

export const FederalRegisterDocumentResponse = Schema.Struct({
  document_number: Schema.String,
  document: Schema.NullOr(FederalRegisterDocument),
  source,
  ...soft
}).annotations({ identifier: "FederalRegisterDocumentResponse", examples: [Examples.federalRegisterDocument] })
export type FederalRegisterDocumentResponse = typeof FederalRegisterDocumentResponse.Type

const documentNotFound = problem({
  slug: "federal-register-document-not-found",
  status: 404,
  title: "Federal Register document not found",
  description: "The Federal Register has no document with this number."
})
export class FederalRegisterDocumentNotFound
  extends Schema.TaggedError<FederalRegisterDocumentNotFound>()("FederalRegisterDocumentNotFound", {
    ...documentNotFound.fields,
    document_number: Schema.String
  }, documentNotFound.annotations)
{}

// ---- SEC EDGAR full-text search ----

export const EdgarForms = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9/-]{0,15}(?:,[A-Za-z0-9][A-Za-z0-9/-]{0,15}){0,9}$/)
).annotations({ description: "Comma-separated form types, at most 10, e.g. `10-K,8-K,20-F`" })

export const SecEdgarSearchParams = Schema.Struct({
  query: Query,
  forms: Schema.optional(EdgarForms),
  date_from: Schema.optional(IsoDate),
  date_to: Schema.optional(IsoDate),
  limit: Limit(100, 20)
})
export type SecEdgarSearchParams = typeof SecEdgarSearchParams.Type

export const SecEdgarHit = Schema.Struct({
  accession_number: Schema.String,
  form: Schema.String,
  file_date: Schema.String,
  period_ending: Schema.NullOr(Schema.String),
  companies: Schema.Array(Schema.String).annotations({ description: "Filer display names as EDGAR gives them" }),
  ciks: Schema.Array(Schema.String),
  description: Schema.NullOr(Schema.String),
  document_url: Schema.NullOr(Schema.String).annotations({ description: "The matching document in the archive" }),
  filing_index_url: Schema.NullOr(Schema.String)
}).annotations({ identifier: "SecEdgarHit" })

export const SecEdgarSearchResponse = Schema.Struct({
  query: Schema.String,
  count: Schema.Int,
  total,
  results: Schema.Array(SecEdgarHit),
  source,
  configured,
  ...soft
}).annotations({ identifier: "SecEdgarSearchResponse", examples: [Examples.secEdgarSearch] })
export type SecEdgarSearchResponse = typeof SecEdgarSearchResponse.Type

// ---- CFR-wide search (eCFR) ----

export const CfrSearchParams = Schema.Struct({
  query: Query,
  title: Schema.optional(
    Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 50)).annotations({
      description: "CFR title, 1 to 50 (default: all titles)"
    })
  ),
  limit: Limit(50, 10)
})
export type CfrSearchParams = typeof CfrSearchParams.Type

export const CfrSearchHit = Schema.Struct({
  type: Schema.Literal("section", "appendix"),
  title: Schema.Int,
  part: Schema.NullOr(Schema.String),
  section: Schema.NullOr(Schema.String).annotations({ description: "Section number, e.g. `758.1`" }),
  appendix: Schema.NullOr(Schema.String).annotations({
    description: "Appendix label, e.g. `Supplement No. 1 to Part 774`"
  }),
  heading: Schema.String.annotations({ description: "Section or appendix heading, plain text" }),
  part_heading: Schema.String,
  excerpt: Schema.String.annotations({ description: "Matching passage; may contain `<strong>` highlight tags" }),
  score: Schema.Number,
  starts_on: Schema.NullOr(Schema.String),
  url: Schema.String.annotations({ description: "The section or appendix on the eCFR website" })
}).annotations({ identifier: "CfrSearchHit" })

export const CfrSearchResponse = Schema.Struct({
  query: Schema.String,
  title: Schema.NullOr(Schema.Int),
  count: Schema.Int,
  total,
  results: Schema.Array(CfrSearchHit),
  source,
  ...soft
}).annotations({ identifier: "CfrSearchResponse", examples: [Examples.cfrSearch] })
export type CfrSearchResponse = typeof CfrSearchResponse.Type

// ---- govinfo ----

export const GovinfoSearchParams = Schema.Struct({
  query: Query,
  collection: Schema.optional(
    Schema.String.pipe(Schema.pattern(/^[A-Za-z]{2,12}$/)).annotations({
      description: "govinfo collection code, e.g. `CFR`, `FR`, `USCODE`, `PLAW`, `BILLS`, `CRPT`"
    })
  ),
  limit: Limit(100, 20)
})
export type GovinfoSearchParams = typeof GovinfoSearchParams.Type

export const GovinfoHit = Schema.Struct({
  title: Schema.String,
  package_id: Schema.String,
  granule_id: Schema.NullOr(Schema.String),
  collection: Schema.NullOr(Schema.String),
  date_issued: Schema.NullOr(Schema.String),
  last_modified: Schema.NullOr(Schema.String),
  government_author: Schema.Array(Schema.String),
  details_url: Schema.String.annotations({ description: "The publication's public page on govinfo.gov" })
}).annotations({ identifier: "GovinfoHit" })

export const GovinfoSearchResponse = Schema.Struct({
  query: Schema.String,
  collection: Schema.NullOr(Schema.String),
  count: Schema.Int,
  total,
  results: Schema.Array(GovinfoHit),
  source,
  configured,
  ...soft
}).annotations({ identifier: "GovinfoSearchResponse", examples: [Examples.govinfoSearch] })
export type GovinfoSearchResponse = typeof GovinfoSearchResponse.Type

// ---- regulations.gov ----

export const RegulationsSearchParams = Schema.Struct({ query: Query, limit: Limit(100, 20) })
export type RegulationsSearchParams = typeof RegulationsSearchParams.Type

export const RegulationsHit = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  agencyId: Schema.NullOr(Schema.String),
  documentType: Schema.NullOr(Schema.String),
  frDocNum: Schema.NullOr(Schema.String),
  docketId: Schema.NullOr(Schema.String),
  postedDate: Schema.NullOr(Schema.String),
  commentEndDate: Schema.NullOr(Schema.String),
  openForComment: Schema.NullOr(Schema.Boolean),
  url: Schema.String.annotations({ description: "The document on regulations.gov" })
}).annotations({ identifier: "RegulationsHit" })

export const RegulationsSearchResponse = Schema.Struct({
  query: Schema.String,
  count: Schema.Int,
  total,
  results: Schema.Array(RegulationsHit),
  source,
  configured,
  ...soft
}).annotations({ identifier: "RegulationsSearchResponse", examples: [Examples.regulationsSearch] })
export type RegulationsSearchResponse = typeof RegulationsSearchResponse.Type
