import { Schema } from "effect"
import { CountryCode, MinScore, PartyName } from "./Screening.ts"

/**
 * A counterparty checked against every enforcement source the service has (each source of the
 * live enforcement feed, the enforcement document archive) and the Denied Persons List: what the
 * MCP tool `check_party_enforcement` takes and answers.
 */

export const MaxAliases = 5
export const DefaultHitsPerSource = 5
export const MaxHitsPerSource = 25

// C0 and C1 controls, and the Unicode line and paragraph separators
const controlCharacter = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/

/** A party name without control characters. Like `PartyName`, its decode errors never echo the value. */
export const CounterpartyName = PartyName.pipe(
  Schema.filter((name) => !controlCharacter.test(name), {
    message: () => "must not contain control characters (tabs, line breaks …)"
  })
)

/**
 * Optional fields are exact (absent, never `undefined`): an optional field's decode error would
 * otherwise also report the `undefined` alternative, quoting the value sent, and it may be a name.
 */
const exact = { exact: true } as const

export const PartyCheckRequest = Schema.Struct({
  name: CounterpartyName.annotations({
    description: "The counterparty: a company or a person, as you know it (any script, any word order)"
  }),
  aliases: Schema.optionalWith(
    Schema.Array(CounterpartyName).annotations({ message: () => "must be a list of names" }).pipe(
      Schema.maxItems(MaxAliases, { message: () => `must list at most ${MaxAliases} other names` })
    ).annotations({
      description: `Up to ${MaxAliases} other names of the same party (former names, trade names, transliterations); ` +
        "each is checked like `name`"
    }),
    exact
  ),
  country: Schema.optionalWith(
    CountryCode.annotations({
      description: "ISO alpha-2 country: narrows only the Denied Persons List check (entries without a country stay)"
    }),
    exact
  ),
  min_score: Schema.optionalWith(MinScore, exact),
  limit: Schema.optionalWith(
    Schema.Int.pipe(
      Schema.between(1, MaxHitsPerSource, { message: () => `must be an integer from 1 to ${MaxHitsPerSource}` })
    ).annotations({ description: `Hits shown per source, 1 to ${MaxHitsPerSource} (default ${DefaultHitsPerSource})` }),
    exact
  )
}).annotations({ identifier: "PartyCheckRequest" })
export type PartyCheckRequest = typeof PartyCheckRequest.Type

export const PartyMatchedIn = Schema.Literal("party", "title", "list_name", "list_alias").annotations({
  description: "`party` the respondent the record names; `title` a passage of the title of a record that names no " +
    "respondent separately (DOJ releases, some notices); `list_name` / `list_alias` the listed name or an alias " +
    "of a Denied Persons List entry"
})

export const PartyHit = Schema.Struct({
  record_id: Schema.String.annotations({
    description: "`fr:<document number>` or `doj:<uuid>` (feed), an archive id for get_enforcement_document, or the " +
      "list entry id (Denied Persons List)"
  }),
  score: Schema.Number.annotations({
    description: "0-100 name similarity (100: the same normalized name); a lead for review, not an identification"
  }),
  matched_name: Schema.String.annotations({ description: "The name or title passage, as the record gives it" }),
  matched_in: PartyMatchedIn,
  query_name: Schema.String.annotations({ description: "Which of the names sent (name or alias) matched" }),
  title: Schema.String.annotations({ description: "The record's title (for a list entry, its listed name)" }),
  date: Schema.NullOr(Schema.String).annotations({ description: "Published date, or the list entry's start date" }),
  action_type: Schema.NullOr(Schema.String),
  citation: Schema.String.annotations({ description: "How to cite the record" }),
  url: Schema.NullOr(Schema.String).annotations({ description: "Where to read it" })
}).annotations({ identifier: "PartyHit" })
export type PartyHit = typeof PartyHit.Type

export const PartySourceStatus = Schema.Literal("ok", "error", "not_configured").annotations({
  description: "`ok` checked; `error` the source failed and was NOT checked; `not_configured` this deployment has " +
    "no data for the source, so it was NOT checked"
})
export type PartySourceStatus = typeof PartySourceStatus.Type

export const PartySourceGroup = Schema.Struct({
  source: Schema.String.annotations({
    description: "Source id: a feed source (`federal-register:bis` …), `enforcement-archive` or `csl:dpl`"
  }),
  label: Schema.String,
  description: Schema.String,
  status: PartySourceStatus,
  stale: Schema.Boolean.annotations({
    description: "true when the source failed just now and its last good copy was checked"
  }),
  detail: Schema.NullOr(Schema.String).annotations({ description: "Why the source was not checked, or is stale" }),
  records_checked: Schema.Int.annotations({ description: "Records (or list entries) whose names were compared" }),
  coverage_from: Schema.NullOr(Schema.String).annotations({
    description: "Oldest publication date the source's records cover: nothing earlier was checked"
  }),
  as_of: Schema.NullOr(Schema.String).annotations({ description: "When the data checked was fetched or published" }),
  total_hits: Schema.Int.annotations({ description: "Records at or above min_score (all, not only those shown)" }),
  hits: Schema.Array(PartyHit).annotations({ description: "Best first, at most `limit`" })
}).annotations({ identifier: "PartySourceGroup" })
export type PartySourceGroup = typeof PartySourceGroup.Type

export const PartyCheckResult = Schema.Literal("possible_match", "no_match_found", "incomplete").annotations({
  description: "`possible_match` some source has a hit; `no_match_found` every source was checked and none has one; " +
    "`incomplete` no hit, but some source could not be checked"
})

export const PartyEnforcementCheck = Schema.Struct({
  query: Schema.Struct({
    names: Schema.Array(Schema.String).annotations({ description: "The name, then the aliases, as checked" }),
    country: Schema.NullOr(Schema.String),
    min_score: Schema.Number,
    limit: Schema.Int
  }),
  result: PartyCheckResult,
  summary: Schema.String.annotations({
    description: "One plain-language line: where possible matches are, where none was found, what was not checked"
  }),
  groups: Schema.Array(PartySourceGroup).annotations({ description: "One per source, in a fixed order" }),
  disclaimer: Schema.String
}).annotations({ identifier: "PartyEnforcementCheck" })
export type PartyEnforcementCheck = typeof PartyEnforcementCheck.Type
