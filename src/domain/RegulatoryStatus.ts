import { Schema } from "effect"
import * as Examples from "./examples/RegulatoryStatus.ts"

export const Citation = Schema.Struct({
  kind: Schema.Literal("federal-register", "cfr", "executive-order", "guidance"),
  reference: Schema.String.annotations({ description: "e.g. `FR Doc 2025-19001 (90 FR 47201)` or `15 CFR 744.11`" }),
  url: Schema.optional(Schema.String)
}).annotations({ identifier: "Citation" })
export type Citation = typeof Citation.Type

export const Transition = Schema.Struct({
  date: Schema.String.annotations({ description: "YYYY-MM-DD, 00:00 UTC" }),
  state: Schema.String
}).annotations({ identifier: "Transition" })

/** One dated regulatory fact as it stands on `asOf`. */
export const StatusItem = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  state: Schema.String.annotations({ description: "Status word, e.g. suspended, in_force, pending, effective" }),
  since: Schema.NullOr(Schema.String).annotations({ description: "Date the current state began, when known" }),
  summary: Schema.String,
  nextTransition: Schema.NullOr(Transition),
  daysUntilNextTransition: Schema.NullOr(Schema.Int),
  eccns: Schema.Array(Schema.String),
  cfr: Schema.Array(Schema.String),
  citations: Schema.Array(Citation)
}).annotations({ identifier: "StatusItem" })
export type StatusItem = typeof StatusItem.Type

/**
 * The Affiliates Rule (BIS "50 percent" rule extending Entity List, MEU and certain SDN-related
 * license requirements to entities owned 50% or more by listed parties) on a given date.
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

export const RegulatoryStatusDocument = Schema.Struct({
  as_of: Schema.String.annotations({ description: "Date (UTC) the states were computed for" }),
  facts_version: Schema.String.annotations({ description: "Version of the dated-facts data module" }),
  banner: Schema.String,
  affiliates_rule: AffiliatesRuleStatus,
  items: Schema.Array(StatusItem),
  disclaimer: Schema.String
}).annotations({ identifier: "RegulatoryStatus", examples: [Examples.regulatoryStatus] })
export type RegulatoryStatusDocument = typeof RegulatoryStatusDocument.Type

/** The regulatory-status object of the MCP discovery document (SPEC, field names exact). */
export const DiscoveryRegulatoryStatus = Schema.Struct({
  as_of: Schema.String,
  affiliates_rule: Schema.String,
  affiliates_snapback: Schema.String,
  days_until_affiliates_snapback: Schema.Int,
  suppressor_transfer: Schema.String,
  suppressor_effective: Schema.String,
  banner: Schema.String,
  tool: Schema.Literal("get_regulatory_status")
}).annotations({ identifier: "DiscoveryRegulatoryStatus" })
export type DiscoveryRegulatoryStatus = typeof DiscoveryRegulatoryStatus.Type
