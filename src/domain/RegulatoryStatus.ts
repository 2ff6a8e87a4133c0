import { Schema } from "effect"

/**
 * The Affiliates Rule (BIS "50 percent" rule extending Entity List, MEU and SDN-related license
 * requirements to entities owned 50% or more by listed parties) as it stands on a given date.
 * The dates and facts live in the RegulatoryStatus data module; this is the shape others rely on.
 */
export const AffiliatesRuleStatus = Schema.Struct({
  state: Schema.Literal("suspended", "in_force"),
  asOf: Schema.String.annotations({ description: "Date the state was computed for (YYYY-MM-DD)" }),
  suspendedThrough: Schema.String,
  snapBackDate: Schema.String,
  daysUntilSnapBack: Schema.NullOr(Schema.Int).annotations({
    description: "Days until the snap-back date; null once it has passed"
  }),
  summary: Schema.String,
  citations: Schema.Array(Schema.String)
}).annotations({ identifier: "AffiliatesRuleStatus" })
export type AffiliatesRuleStatus = typeof AffiliatesRuleStatus.Type
