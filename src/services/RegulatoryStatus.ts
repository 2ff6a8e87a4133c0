import { Clock, Context, Effect, Layer } from "effect"
import type {
  AffiliatesRuleStatus,
  DiscoveryRegulatoryStatus,
  RegulatoryStatusDocument
} from "../domain/RegulatoryStatus.ts"
import { affiliatesRule, factsVersion, notes, suppressorTransfer } from "./regulatory/Facts.ts"
import { daysBetween, stateOn, statusItem, utcDate } from "./regulatory/Timeline.ts"

/**
 * Dated regulatory facts as they stand today, driven by the Effect `Clock` (so tests move time
 * with TestClock). One source feeds `/api/regulatory-status`, the MCP discovery document and the
 * `affiliates_rule` object of screening responses.
 */
export interface RegulatoryStatusShape {
  readonly affiliatesRule: Effect.Effect<AffiliatesRuleStatus>
  readonly document: Effect.Effect<RegulatoryStatusDocument>
  readonly discovery: Effect.Effect<DiscoveryRegulatoryStatus>
}

export class RegulatoryStatus extends Context.Tag("app/RegulatoryStatus")<RegulatoryStatus, RegulatoryStatusShape>() {}

const disclaimer = "Status notes summarize public rules for orientation; they are not legal advice. " +
  "Confirm against the cited Federal Register documents and the current eCFR text before relying on them."

const affiliatesOn = (today: string): AffiliatesRuleStatus => {
  const { current } = stateOn(affiliatesRule.timeline, today)
  const days = daysBetween(today, affiliatesRule.snapBackDate)
  return {
    state: current.state === "suspended" ? "suspended" : "in_force",
    asOf: today,
    suspendedThrough: affiliatesRule.suspendedThrough,
    snapBackDate: affiliatesRule.snapBackDate,
    daysUntilSnapBack: days > 0 ? days : null,
    summary: current.summary,
    citations: affiliatesRule.citations.map((citation) => citation.reference)
  }
}

const bannerOn = (today: string): string => {
  const affiliates = affiliatesOn(today)
  const suppressors = stateOn(suppressorTransfer.timeline, today).current.state
  const affiliatesText = affiliates.state === "suspended"
    ? `Affiliates Rule suspended through ${affiliates.suspendedThrough}; snap-back ${affiliates.snapBackDate} ` +
      `(${affiliates.daysUntilSnapBack} days) unless extended.`
    : `Affiliates Rule in force again since ${affiliates.snapBackDate} (suspension ended ${affiliates.suspendedThrough}).`
  const suppressorText = suppressors === "effective"
    ? `Suppressors controlled under ${
      suppressorTransfer.eccns.join(" and ")
    } since ${suppressorTransfer.effectiveDate}.`
    : `Suppressor transfer to ${
      suppressorTransfer.eccns.join(" and ")
    } pending until ${suppressorTransfer.effectiveDate}.`
  return `${affiliatesText} ${suppressorText} Details: get_regulatory_status.`
}

export const make: RegulatoryStatusShape = (() => {
  const today = Effect.map(Clock.currentTimeMillis, utcDate)
  return {
    affiliatesRule: Effect.map(today, affiliatesOn),
    document: Effect.map(today, (date) => ({
      as_of: date,
      facts_version: factsVersion,
      banner: bannerOn(date),
      affiliates_rule: affiliatesOn(date),
      items: [
        statusItem(affiliatesRule, date),
        statusItem(suppressorTransfer, date),
        ...notes.map((fact) => statusItem(fact, date))
      ],
      disclaimer
    })),
    discovery: Effect.map(today, (date) => ({
      as_of: date,
      affiliates_rule: stateOn(affiliatesRule.timeline, date).current.state,
      affiliates_snapback: affiliatesRule.snapBackDate,
      days_until_affiliates_snapback: Math.max(0, daysBetween(date, affiliatesRule.snapBackDate)),
      suppressor_transfer: stateOn(suppressorTransfer.timeline, date).current.state,
      suppressor_effective: suppressorTransfer.effectiveDate,
      banner: bannerOn(date),
      tool: "get_regulatory_status" as const
    }))
  }
})()

export const layer: Layer.Layer<RegulatoryStatus> = Layer.succeed(RegulatoryStatus, make)
