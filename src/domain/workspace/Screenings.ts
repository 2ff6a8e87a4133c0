import { Schema } from "effect"
import { Country, CursorField, exact, Instant, Limit, numberIn, Text, upTo } from "./Fields.ts"

/**
 * The screening registry: each screening of a party a team decided on, with the list hits it
 * looked at (by `search_csl` entry id), so the next analyst and the auditor can see who decided
 * what, when, against which list.
 */

/** Days after which a party is due for re-screening when the caller names no interval. */
export const DefaultRescreenDays = 90

export const Decision = Schema.Literal("clear", "match", "false_positive", "escalated")

export const ListHit = Schema.Struct({
  id: Text(100),
  score: Schema.optionalWith(numberIn(0, 100), exact)
})

/** The ownership diligence behind the decision (a clear name screen is not ownership diligence). */
export const Ownership = Schema.Struct({
  checked: Schema.Boolean,
  aggregate_listed_percent: Schema.optionalWith(numberIn(0, 100), exact),
  notes: Schema.optionalWith(Text(2000), exact)
})

/** How the BIS Affiliates rule (50 percent rule) was disposed of for this party. */
export const AffiliatesDisposition = Schema.Struct({
  disposition: Schema.Literal("not_applicable", "no_listed_owner", "covered_50_percent", "under_review"),
  notes: Schema.optionalWith(Text(2000), exact)
})

export const PartyField = Text(512)

export const ScreeningInput = Schema.Struct({
  party: PartyField,
  country: Schema.optionalWith(Country, exact),
  decision: Decision,
  analyst: Text(200),
  hits: Schema.optionalWith(upTo(ListHit, 50), exact),
  lists: Schema.optionalWith(
    upTo(Text(50), 30),
    exact
  ),
  rationale: Schema.optionalWith(Text(4000), exact),
  ownership: Schema.optionalWith(Ownership, exact),
  affiliates_rule: Schema.optionalWith(AffiliatesDisposition, exact)
})
export type ScreeningInput = typeof ScreeningInput.Type

export const Screening = Schema.Struct({
  id: Schema.String,
  ...ScreeningInput.fields,
  screened_at: Instant,
  list_published_at: Schema.NullOr(Schema.String).annotations({
    description: "Publication time of the screening list the service held when this was recorded"
  })
})
export type Screening = typeof Screening.Type

export const PartyStatusParams = Schema.Struct({
  party: PartyField,
  rescreen_days: Schema.optionalWith(
    Limit(3650),
    exact
  )
})
export type PartyStatusParams = typeof PartyStatusParams.Type

export const PartyStatus = Schema.Struct({
  party: Schema.String,
  screened: Schema.Boolean,
  latest: Schema.NullOr(Screening),
  history: Schema.Array(Screening),
  rescreen_due: Schema.Boolean,
  rescreen_reasons: Schema.Array(Schema.String)
})
export type PartyStatus = typeof PartyStatus.Type

export const ScreeningListParams = Schema.Struct({
  decision: Schema.optionalWith(Decision, exact),
  limit: Schema.optionalWith(Limit(100), exact),
  cursor: Schema.optionalWith(CursorField, exact)
})
export type ScreeningListParams = typeof ScreeningListParams.Type

export const ScreeningPage = Schema.Struct({
  screenings: Schema.Array(Screening),
  count: Schema.Int,
  next_cursor: Schema.NullOr(Schema.String)
})
export type ScreeningPage = typeof ScreeningPage.Type

/** The key screenings of one party share: case, punctuation and spacing do not split a party's history. */
export const partyKey = (party: string): string => {
  const lower = party.normalize("NFKC").toLowerCase()
  const key = lower.replace(/[\p{P}\p{S}]+/gu, " ").replace(/\s+/g, " ").trim()
  return key === "" ? lower : key
}
