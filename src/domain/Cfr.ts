import { Schema } from "effect"
import * as Examples from "./examples/Cfr.ts"
import { InvalidParameterIssue, problem } from "./Problem.ts"
import { SupportedPart, supportedPartNumbers } from "./Service.ts"

/** A node of the eCFR structure tree (title, chapter, part, subpart, section, appendix …). */
export interface CfrTreeNode {
  readonly identifier: string
  readonly label: string
  readonly label_level: string
  readonly label_description: string
  readonly type: string
  readonly reserved?: boolean | undefined
  readonly descendant_range?: string | undefined
  readonly received_on?: string | undefined
  readonly children?: ReadonlyArray<CfrTreeNode> | undefined
}

export const CfrTreeNode: Schema.Schema<CfrTreeNode> = Schema.Struct({
  identifier: Schema.String.annotations({ description: "`740`, `740.1`, `Supplement No. 1 to Part 740`, `A`…" }),
  label: Schema.String,
  label_level: Schema.String,
  label_description: Schema.String,
  type: Schema.String.annotations({
    description: "title, subtitle, chapter, subchapter, part, subpart, " +
      "subject_group, section or appendix"
  }),
  reserved: Schema.optional(Schema.Boolean),
  descendant_range: Schema.optional(Schema.String),
  received_on: Schema.optional(Schema.String.annotations({ description: "When eCFR received this version" })),
  children: Schema.optional(Schema.Array(Schema.suspend((): Schema.Schema<CfrTreeNode> => CfrTreeNode)))
}).annotations({ identifier: "CfrTreeNode", examples: [Examples.partTree] })

/** One section (DIV8) or supplement/appendix (DIV9) of a mirrored part, rendered both ways. */
export interface CfrSection {
  readonly identifier: string
  readonly type: "section" | "appendix"
  /** The heading, e.g. `§ 740.1 Introduction.` */
  readonly label: string
  readonly reserved: boolean
  /** The body as a sanitized HTML fragment, without the heading. */
  readonly html: string
  /** The body as clean readable text, without the heading. */
  readonly plain: string
}

export const CfrSectionEntry = Schema.Struct({
  identifier: Schema.String.annotations({ description: "`740.1`, or `Supplement No. 1 to Part 740`" }),
  label: Schema.String.annotations({ description: "The heading, e.g. `§ 740.1 Introduction.`" }),
  content: Schema.String.annotations({ description: "The full text as clean readable plain text" })
}).annotations({ identifier: "CfrSectionEntry" })

export const SectionsPayload = Schema.Struct({
  part: Schema.Int,
  label: Schema.String,
  count: Schema.Int,
  sections: Schema.Array(CfrSectionEntry)
}).annotations({ identifier: "CfrSections", examples: [Examples.sections] })
export type SectionsPayload = typeof SectionsPayload.Type

/** One page of a part's sections within a result budget (MCP `get_ecfr_sections`). */
export const SectionsPage = Schema.Struct({
  part: Schema.Int,
  label: Schema.String,
  count: Schema.Int.annotations({ description: "Sections and supplements in the part" }),
  offset: Schema.Int.annotations({ description: "Index of the first section on this page" }),
  next_offset: Schema.NullOr(Schema.Int).annotations({ description: "`offset` of the next page; null at the end" }),
  sections: Schema.Array(Schema.Struct({
    ...CfrSectionEntry.fields,
    chars: Schema.Int.annotations({ description: "Length of the whole text" }),
    truncated: Schema.Boolean.annotations({
      description: "true: `content` is the start only; read on with get_ecfr_text and `offset`"
    })
  }))
}).annotations({ identifier: "CfrSectionsPage" })
export type SectionsPage = typeof SectionsPage.Type

export const SectionVersion = Schema.Struct({
  identifier: Schema.String,
  name: Schema.String,
  type: Schema.String.annotations({ description: "section or appendix" }),
  amendmentDate: Schema.String.annotations({ description: "Date of the latest amendment (YYYY-MM-DD)" }),
  issueDate: Schema.String.annotations({ description: "eCFR issue that carried it (YYYY-MM-DD)" }),
  substantive: Schema.Boolean,
  removed: Schema.Boolean
}).annotations({ identifier: "CfrSectionVersion" })
export type SectionVersion = typeof SectionVersion.Type

export const VersionsPayload = Schema.Struct({
  part: Schema.Int,
  title: Schema.Int,
  label: Schema.String,
  latestAmendmentDate: Schema.NullOr(Schema.String),
  count: Schema.Int,
  sections: Schema.Array(SectionVersion).annotations({
    description: "One entry per section or supplement: its latest amendment"
  })
}).annotations({ identifier: "CfrVersions", examples: [Examples.versions] })
export type VersionsPayload = typeof VersionsPayload.Type

export const PartCacheState = Schema.Struct({
  part: Schema.Int,
  title: Schema.Int,
  state: Schema.Literal("empty", "fresh", "expired", "stale").annotations({
    description: "empty: nothing stored yet; fresh: checked against eCFR within the freshness window; " +
      "expired: older, revalidated on next use; stale: the last upstream attempt failed, the snapshot answers"
  }),
  loaded: Schema.Boolean.annotations({ description: "Held in memory (else on disk only, or nowhere)" }),
  refreshing: Schema.Boolean,
  issueDate: Schema.NullOr(Schema.String).annotations({ description: "eCFR issue date of the snapshot" }),
  fetchedAt: Schema.NullOr(Schema.String).annotations({ description: "When the snapshot was downloaded" }),
  verifiedAt: Schema.NullOr(Schema.String).annotations({ description: "Last successful check against eCFR" }),
  lastFailure: Schema.NullOr(Schema.Struct({ at: Schema.String, detail: Schema.String }))
}).annotations({ identifier: "CfrPartCacheState" })
export type PartCacheState = typeof PartCacheState.Type

export const CacheReport = Schema.Struct({
  freshForSeconds: Schema.Int,
  nextDailyRefresh: Schema.String.annotations({ description: "Next scheduled refresh of all parts (ISO time)" }),
  parts: Schema.Array(PartCacheState)
}).annotations({ identifier: "CfrCacheReport" })
export type CacheReport = typeof CacheReport.Type

export const MetaPayload = Schema.Struct({
  supportedParts: Schema.Array(SupportedPart),
  cache: CacheReport,
  refreshSchedule: Schema.String,
  source: Schema.String.annotations({ format: "uri" })
}).annotations({ identifier: "CfrMeta", examples: [Examples.meta] })

export const SearchResult = Schema.Struct({
  type: Schema.String.annotations({ description: "section or appendix" }),
  score: Schema.Number,
  part: Schema.Int,
  section: Schema.String,
  sectionHeading: Schema.String,
  partHeading: Schema.String,
  excerpt: Schema.String.annotations({ description: "HTML-escaped text; matches wrapped in `<strong>`" }),
  startsOn: Schema.String.annotations({ format: "date" }),
  endsOn: Schema.NullOr(Schema.String.annotations({ format: "date" }))
}).annotations({ identifier: "SearchResult" })
export type SearchResult = typeof SearchResult.Type

export const SearchMeta = Schema.Struct({
  page: Schema.Int,
  perPage: Schema.Int,
  totalCount: Schema.Int,
  totalPages: Schema.Int,
  nextCursor: Schema.NullOr(Schema.String).annotations({
    description: "Opaque; pass it back as `cursor` for the next page. Null when there are no more pages."
  }),
  engine: Schema.Literal("ecfr", "local-index").annotations({
    description: "ecfr: the eCFR search service; local-index: the local full-text index over stored " +
      "snapshots, used while eCFR search is unavailable"
  }),
  notice: Schema.optional(Schema.String),
  searchedParts: Schema.optional(Schema.Array(Schema.Int))
}).annotations({ identifier: "SearchMeta" })
export type SearchMeta = typeof SearchMeta.Type

export const PartSearchResponse = Schema.Struct({
  part: Schema.Int,
  title: Schema.Int,
  label: Schema.String,
  query: Schema.String,
  results: Schema.Array(SearchResult),
  meta: SearchMeta,
  source: Schema.String
}).annotations({ identifier: "PartSearchResponse", examples: [Examples.partSearch] })
export type PartSearchResponse = typeof PartSearchResponse.Type

export const TitleSearchResponse = Schema.Struct({
  title: Schema.Int,
  query: Schema.String,
  results: Schema.Array(SearchResult),
  meta: SearchMeta,
  source: Schema.String
}).annotations({ identifier: "TitleSearchResponse", examples: [Examples.titleSearch] })
export type TitleSearchResponse = typeof TitleSearchResponse.Type

/** The page and page size of a search when the caller names none. */
export const SearchDefaults = { page: 1, perPage: 10 } as const

/** Search parameters as they appear in URLs (REST query strings); MCP tools take their JSON form. */
export const SearchParams = {
  q: Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(500)),
  page: Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 10_000)).annotations({
    description: "Page from 1 (eCFR search stops at 10,000 results)"
  }),
  per_page: Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 20)).annotations({
    description: "Results per page (default 10)"
  }),
  cursor: Schema.String.pipe(Schema.maxLength(2048)).annotations({
    description: "`meta.nextCursor` of the previous page, verbatim, with the same query (overrides page)"
  })
}

/** What a search asks for; `cursor`, when present, decides the page and page size. */
export interface SearchRequest {
  readonly q: string
  readonly page: number
  readonly perPage: number
  readonly cursor?: string | undefined
}

const unsupportedPart = problem({
  slug: "unsupported-part",
  status: 400,
  title: "Unsupported CFR part",
  description: "The part is not one of the mirrored parts; `supportedParts` lists them."
})
export class UnsupportedPart extends Schema.TaggedError<UnsupportedPart>()("UnsupportedPart", {
  ...unsupportedPart.fields,
  supportedParts: Schema.Array(Schema.Int),
  invalidParams: Schema.Array(InvalidParameterIssue)
}, unsupportedPart.annotations) {
  static of(value: string): UnsupportedPart {
    const reason = `must be one of ${supportedPartNumbers.join(", ")}`
    return new UnsupportedPart({
      detail: `Part ${JSON.stringify(value)} is not supported; it ${reason}.`,
      supportedParts: supportedPartNumbers,
      invalidParams: [{ name: "part", in: "path", reason }]
    })
  }
}
