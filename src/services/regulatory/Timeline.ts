import type { StatusItem } from "../../domain/RegulatoryStatus.ts"
import type { DatedFact, TimelineEntry } from "./Facts.ts"

const dayMillis = 86_400_000

/** The UTC calendar date of an instant, as YYYY-MM-DD. */
export const utcDate = (millis: number): string => new Date(millis).toISOString().slice(0, 10)

/** Whole days from `today` to `date` (both YYYY-MM-DD, UTC). */
export const daysBetween = (today: string, date: string): number =>
  Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / dayMillis)

/** The entry in force on `today` and the next dated one, if any. */
export const stateOn = (timeline: ReadonlyArray<TimelineEntry>, today: string) => {
  let current = timeline[0]!
  let next: TimelineEntry | undefined
  for (const entry of timeline) {
    if (entry.from === undefined || entry.from <= today) current = entry
    else if (next === undefined) next = entry
  }
  return { current, next }
}

export const statusItem = (fact: DatedFact, today: string): StatusItem => {
  const { current, next } = stateOn(fact.timeline, today)
  return {
    id: fact.id,
    title: fact.title,
    state: current.state,
    since: current.from ?? null,
    summary: current.summary,
    nextTransition: next?.from === undefined ? null : { date: next.from, state: next.state },
    daysUntilNextTransition: next?.from === undefined ? null : daysBetween(today, next.from),
    eccns: fact.eccns,
    cfr: fact.cfr,
    citations: fact.citations
  }
}
