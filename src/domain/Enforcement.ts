import { Schema } from "effect"
import * as Examples from "./examples/Enforcement.ts"
import { problem } from "./Problem.ts"
import { IsoDate } from "./Research.ts"

/**
 * Enforcement data: a live feed of actions normalized from several sources, and an archive of
 * enforcement documents (metadata, stored PDF, parsed text). Parameter structs are in URL form;
 * their decoded types are what the services (and MCP tools) take.
 */

export const EnforcementAgency = Schema.Literal("BIS", "DDTC", "DOJ")
export type EnforcementAgency = typeof EnforcementAgency.Type

/** The action types the feed assigns; a source that cannot tell leaves the action out rather than guess. */
export const actionTypes = [
  "denial_order",
  "temporary_denial",
  "settlement",
  "charging_letter",
  "criminal",
  "consent_agreement",
  "administrative_order",
  "statutory_debarment",
  "administrative_debarment",
  "debarment",
  "debarment_rescission",
  "civil_penalty"
] as const
export const ActionType = Schema.Literal(...actionTypes)
export type ActionType = typeof ActionType.Type

export const EnforcementAction = Schema.Struct({
  id: Schema.String.annotations({
    description: "Stable id prefixed by its source: `fr:<document number>` (Federal Register), `doj:<uuid>`"
  }),
  agency: EnforcementAgency,
  action_type: ActionType,
  party: Schema.NullOr(Schema.String).annotations({
    description: "The named party when the source states one in a form that can be read without guessing; " +
      "otherwise null (the party is then named in the document itself)"
  }),
  title: Schema.String,
  date: Schema.String.annotations({ description: "Published date, YYYY-MM-DD" }),
  statutes: Schema.Array(Schema.String).annotations({
    description: "Authorities cited in the title, abstract or text (only those stated there)"
  }),
  source_url: Schema.String.annotations({ description: "Human-readable page" }),
  doc_url: Schema.NullOr(Schema.String).annotations({ description: "Upstream PDF, when there is one" })
}).annotations({ identifier: "EnforcementAction" })
export type EnforcementAction = typeof EnforcementAction.Type

export const EnforcementSourceStatus = Schema.Struct({
  id: Schema.String,
  agency: EnforcementAgency,
  description: Schema.String,
  status: Schema.Literal("ok", "stale", "error").annotations({
    description: "`ok` fresh; `stale` the source failed and its last good answer is served; `error` it failed " +
      "and contributes nothing"
  }),
  actions: Schema.Int.annotations({ description: "Actions the source contributed before filtering" }),
  scanned: Schema.Int.annotations({ description: "Upstream records examined to find them" }),
  coverage_from: Schema.NullOr(Schema.String).annotations({
    description: "Publication date of the oldest record examined: the feed says nothing about earlier actions " +
      "from this source"
  }),
  fetched_at: Schema.NullOr(Schema.String),
  error: Schema.optional(Schema.String)
}).annotations({ identifier: "EnforcementSourceStatus" })
export type EnforcementSourceStatus = typeof EnforcementSourceStatus.Type

export const FeedLimitMax = 500

export const EnforcementFeedParams = Schema.Struct({
  agency: Schema.optional(EnforcementAgency),
  action_type: Schema.optional(ActionType),
  party: Schema.optional(
    Schema.Trim.pipe(Schema.minLength(2), Schema.maxLength(200)).annotations({
      description: "Whole words of the party or title (case, accents, punctuation ignored); never logged"
    })
  ),
  statute: Schema.optional(
    Schema.Trim.pipe(Schema.minLength(2), Schema.maxLength(100)).annotations({
      description: "A cited authority: `ECRA`, `IEEPA`, `AECA`, `ITAR`, `EAR` or a citation (`50 U.S.C. 4819`)"
    })
  ),
  since: Schema.optional(IsoDate.annotations({ description: "Only actions published on or after this date" })),
  limit: Schema.optional(
    Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, FeedLimitMax)).annotations({
      description: "Maximum actions (default 50)"
    })
  )
})
export type EnforcementFeedParams = typeof EnforcementFeedParams.Type

export const EnforcementFeed = Schema.Struct({
  actions: Schema.Array(EnforcementAction),
  count: Schema.Int,
  sources: Schema.Array(EnforcementSourceStatus)
}).annotations({ identifier: "EnforcementFeed", examples: [Examples.feed] })
export type EnforcementFeed = typeof EnforcementFeed.Type

// ---- document archive ----

export const documentIdPattern =
  /^(?:bis-case:[A-Za-z0-9][A-Za-z0-9_-]{0,63}|bis-media:\d{1,12}|ddtc:[0-9a-f]{32}|doj:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/

export const EnforcementDocumentId = Schema.String.pipe(Schema.pattern(documentIdPattern)).annotations({
  description: "`bis-case:<case id>`, `bis-media:<number>`, `ddtc:<32-hex sys_id>` or `doj:<uuid>` (lower-case " +
    "hex); URL-encode the colon (%3A) in paths",
  examples: ["bis-case:E1234", "doj:0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b"]
})

/** The agency an id's prefix belongs to. */
export const agencyOfId = (id: string): EnforcementAgency =>
  id.startsWith("bis-") ? "BIS" : id.startsWith("ddtc:") ? "DDTC" : "DOJ"

export const ParseStatus = Schema.Literal("parsed", "no_text", "pending", "no_pdf", "failed").annotations({
  description: "`parsed` PDF stored and its text extracted; `no_text` PDF stored but it holds no extractable text " +
    "(a scan: read the file); `pending` a PDF exists upstream (`original_doc_url`) but is not in the archive yet; " +
    "`no_pdf` the source publishes no PDF (typical for `doj:`); `failed` the file could not be fetched or read " +
    "(the coverage statistics say why)"
})
export type ParseStatus = typeof ParseStatus.Type
export const parseStatuses = ParseStatus.literals

export const EnforcementDocument = Schema.Struct({
  id: Schema.String,
  agency: EnforcementAgency,
  party: Schema.NullOr(Schema.String),
  title: Schema.String,
  date: Schema.NullOr(Schema.String),
  parse_status: ParseStatus,
  file_url: Schema.NullOr(Schema.String).annotations({ description: "The stored PDF" }),
  text_url: Schema.NullOr(Schema.String).annotations({ description: "The parsed text (markdown)" }),
  original_doc_url: Schema.NullOr(Schema.String).annotations({ description: "The upstream PDF, when known" }),
  source_url: Schema.NullOr(Schema.String).annotations({ description: "The upstream page describing the case" }),
  pages: Schema.NullOr(Schema.Int),
  text_chars: Schema.NullOr(Schema.Int)
}).annotations({ identifier: "EnforcementDocument" })
export type EnforcementDocument = typeof EnforcementDocument.Type

export const EnforcementDocumentHit = Schema.Struct({
  ...EnforcementDocument.fields,
  score: Schema.NullOr(Schema.Number).annotations({ description: "Relevance (null in a plain listing)" }),
  match_snippet: Schema.NullOr(Schema.String).annotations({
    description: "In search hits, the passage around the first match (null in a plain listing)"
  })
}).annotations({ identifier: "EnforcementDocumentHit" })
export type EnforcementDocumentHit = typeof EnforcementDocumentHit.Type

export const EnforcementDocumentList = Schema.Struct({
  query: Schema.NullOr(Schema.String),
  agency: Schema.NullOr(EnforcementAgency),
  count: Schema.Int.annotations({ description: "Documents in this answer" }),
  total: Schema.Int.annotations({ description: "Documents matching in all" }),
  documents: Schema.Array(EnforcementDocumentHit)
}).annotations({ identifier: "EnforcementDocumentList", examples: [Examples.documentList] })
export type EnforcementDocumentList = typeof EnforcementDocumentList.Type

export const EnforcementSourceCoverage = Schema.Struct({
  source: Schema.String.annotations({ description: "A collector's id, or `import` for operator imports" }),
  documents: Schema.Int,
  by_parse_status: Schema.Record({ key: ParseStatus, value: Schema.Int }),
  removed_upstream: Schema.Int.annotations({
    description: "Documents the source no longer lists; they stay in the archive"
  }),
  listed: Schema.NullOr(Schema.Int).annotations({ description: "Items the last successful listing held" }),
  last_success_at: Schema.NullOr(Schema.String),
  last_attempt_at: Schema.NullOr(Schema.String),
  last_error: Schema.NullOr(Schema.String).annotations({
    description: "Why the latest collection failed (null once a later one succeeded)"
  }),
  last_error_at: Schema.NullOr(Schema.String)
}).annotations({ identifier: "EnforcementSourceCoverage" })
export type EnforcementSourceCoverage = typeof EnforcementSourceCoverage.Type

export const EnforcementArchiveStats = Schema.Struct({
  total: Schema.Int,
  by_parse_status: Schema.Record({ key: ParseStatus, value: Schema.Int }),
  by_agency: Schema.Record({ key: EnforcementAgency, value: Schema.Int }),
  imported_at: Schema.NullOr(Schema.String).annotations({
    description: "When the archive last changed (an import or a collection)"
  }),
  by_source: Schema.optional(Schema.Array(EnforcementSourceCoverage)).annotations({
    description: "Coverage per source: counts by parse status, last successful collection, last error"
  })
}).annotations({ identifier: "EnforcementArchiveStats" })
export type EnforcementArchiveStats = typeof EnforcementArchiveStats.Type

export const DocumentsLimitMax = 100

export const EnforcementDocumentsParams = Schema.Struct({
  q: Schema.optional(
    Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(300)).annotations({
      description: "Keywords in party, title or text (all must match; the last may be a prefix); none: newest"
    })
  ),
  agency: Schema.optional(EnforcementAgency),
  limit: Schema.optional(
    Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, DocumentsLimitMax)).annotations({
      description: "Maximum documents (default 20)"
    })
  ),
  stats: Schema.optional(
    Schema.Literal("1", "true", "0", "false").annotations({
      description: "`1`: answer archive coverage (counts by parse status and agency) instead of documents"
    })
  )
})
export type EnforcementDocumentsParams = typeof EnforcementDocumentsParams.Type

export const EnforcementDocumentPath = Schema.Struct({ id: EnforcementDocumentId })

/** Metadata, and the parsed text when asked for (the MCP tool's `include_text`). */
export const EnforcementExtracted = Schema.Struct({
  parties: Schema.Array(Schema.String),
  dates: Schema.Array(Schema.String),
  statutes: Schema.Array(Schema.String),
  penalties: Schema.Array(Schema.String),
  eccns: Schema.Array(Schema.String)
}).annotations({
  identifier: "EnforcementExtracted",
  description: "Respondents, dates, cited authorities, penalty amounts and ECCNs the document states"
})

/** One document's metadata with what the parse pipeline recorded about it. */
export const EnforcementDocumentRecord = Schema.Struct({
  ...EnforcementDocument.fields,
  parse_reason: Schema.optional(Schema.NullOr(Schema.String)).annotations({
    description: "Why the document is `failed`, `pending` or `no_text`"
  }),
  parse_attempts: Schema.optional(Schema.Int),
  extracted: Schema.optional(EnforcementExtracted)
}).annotations({ identifier: "EnforcementDocumentRecord", examples: [Examples.documentRecord] })

export const EnforcementDocumentDetail = Schema.Struct({
  ...EnforcementDocumentRecord.fields,
  text: Schema.optional(Schema.NullOr(Schema.String))
}).annotations({ identifier: "EnforcementDocumentDetail" })
export type EnforcementDocumentDetail = typeof EnforcementDocumentDetail.Type

const documentNotFound = problem({
  slug: "enforcement-document-not-found",
  status: 404,
  title: "Enforcement document not found",
  description: "The archive holds no document with this id."
})
export class EnforcementDocumentNotFound
  extends Schema.TaggedError<EnforcementDocumentNotFound>()("EnforcementDocumentNotFound", {
    ...documentNotFound.fields,
    id: Schema.String
  }, documentNotFound.annotations)
{}

const contentUnavailable = problem({
  slug: "enforcement-content-unavailable",
  status: 404,
  title: "Document content unavailable",
  description: "The document is in the archive, but not this representation of it: `parse_status` says why " +
    "(no stored PDF, or no extractable text)."
})
export class EnforcementContentUnavailable
  extends Schema.TaggedError<EnforcementContentUnavailable>()("EnforcementContentUnavailable", {
    ...contentUnavailable.fields,
    id: Schema.String,
    parse_status: ParseStatus
  }, contentUnavailable.annotations)
{}
