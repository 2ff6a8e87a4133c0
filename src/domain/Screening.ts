import { Schema } from "effect"
import * as Examples from "./examples/Screening.ts"
import { AffiliatesRuleStatus } from "./RegulatoryStatus.ts"
import { ScreeningMatch } from "./screening/Match.ts"
import { PartyType } from "./screening/Request.ts"

export * from "./screening/Match.ts"
export * from "./screening/Request.ts"

/**
 * Denied-party screening against the Consolidated Screening List: the request both REST
 * (`GET /api/csl`) and MCP (`search_csl`) accept (`screening/Request.ts`), and the response they
 * return (here, with its matches in `screening/Match.ts`).
 */

/** The request as it was applied, defaults filled in. */
export const ScreeningQuery = Schema.Struct({
  name: Schema.String,
  fuzzy_name: Schema.Boolean,
  sources: Schema.Array(Schema.String).annotations({ description: "Lists searched (codes)" }),
  countries: Schema.NullOr(Schema.Array(Schema.String)),
  type: Schema.NullOr(PartyType),
  country: Schema.NullOr(Schema.String),
  id: Schema.NullOr(Schema.String),
  min_score: Schema.Number,
  size: Schema.Int,
  offset: Schema.Int
}).annotations({ identifier: "ScreeningQuery" })

export const ScreenedList = Schema.Struct({
  code: Schema.String,
  name: Schema.String.annotations({ description: "Full list name and agency, as published" }),
  entries: Schema.Int,
  source_last_updated: Schema.NullOr(Schema.String),
  last_imported: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ScreenedList" })

export const ScreeningDataset = Schema.Struct({
  published_at: Schema.NullOr(Schema.String).annotations({
    description: "When trade.gov generated the bulk file (`search_performed_at`)"
  }),
  loaded_at: Schema.String.annotations({ description: "When this service indexed it" }),
  entries: Schema.Int,
  stale: Schema.Boolean.annotations({
    description: "true when the latest refresh failed and the last good list answers"
  })
}).annotations({ identifier: "ScreeningDataset" })

/** The Affiliates Rule as it stands today, and what it means for entities a listed party owns. */
export const ScreeningAffiliatesRule = Schema.Struct({
  ...AffiliatesRuleStatus.fields,
  owned_entities: Schema.String.annotations({
    description: "What the current state means for entities owned by listed parties"
  }),
  name_contained: Schema.String.annotations({
    description: "What an entry in the name_contained group (a listed corporate family member) means"
  })
}).annotations({ identifier: "ScreeningAffiliatesRule" })

/**
 * The query's corporate family: listed entries whose names contain every identifying word of the
 * query ("Huawei" → "Huawei Technologies (Bolivia) S.R.L."), whatever they scored, apart from the
 * matches. Paged by the request's `size` and `offset`, ranked by score.
 */
export const NameContainedGroup = Schema.Struct({
  match_type: Schema.Literal("name_contained"),
  words: Schema.Array(Schema.String).annotations({
    description:
      "The query words (normalized) every entry's name contains; titles, legal forms and very common words are not required"
  }),
  total: Schema.Int.annotations({ description: "Entries in the group (all pages), those in matches not counted" }),
  too_broad: Schema.Boolean.annotations({
    description: "More than 2,000 listed names contain the words: not listed (total counts them all); narrow the query"
  }),
  matches: Schema.Array(ScreeningMatch)
}).annotations({ identifier: "ScreeningNameContained" })

export const OwnershipTrace = Schema.Struct({
  performed: Schema.Literal(false),
  summary: Schema.String,
  checks: Schema.Array(Schema.String).annotations({ description: "What a person should check next" })
}).annotations({ identifier: "OwnershipTrace" })

export const ScreeningResponse = Schema.Struct({
  query: ScreeningQuery,
  total: Schema.Int.annotations({ description: "Entries at or above min_score (all pages)" }),
  result: Schema.Literal("potential_match", "no_match").annotations({
    description: "potential_match when any entry scored at or above min_score; hits need human adjudication"
  }),
  lists: Schema.Array(ScreenedList).annotations({ description: "The lists searched" }),
  dataset: ScreeningDataset,
  matches: Schema.Array(ScreeningMatch),
  name_contained: Schema.optional(NameContainedGroup).annotations({
    description: "Listed names containing the query (corporate family), apart from matches; absent when the " +
      "query has no identifying word"
  }),
  affiliates_rule: ScreeningAffiliatesRule,
  ownership_trace: OwnershipTrace,
  disclaimer: Schema.String
}).annotations({ identifier: "ScreeningResponse", examples: [Examples.screeningResponse] })
export type ScreeningResponse = typeof ScreeningResponse.Type
