import type { Duration, Effect } from "effect"
import type { EnforcementAction, EnforcementAgency } from "../../domain/Enforcement.ts"
import type { UpstreamError } from "../Upstream.ts"

/** What one source of the live feed found on its last look. */
export interface SourceBatch {
  readonly actions: ReadonlyArray<EnforcementAction>
  /** Upstream records examined (enforcement and otherwise). */
  readonly scanned: number
  /** Publication date of the oldest record examined, YYYY-MM-DD. */
  readonly coverageFrom: string | null
}

/** One upstream of the live enforcement feed; each fails on its own without touching the others. */
export interface FeedSource {
  readonly id: string
  readonly agency: EnforcementAgency
  readonly description: string
  /** How failures name the upstream ("The Federal Register API"). */
  readonly upstreamLabel: string
  readonly fetch: Effect.Effect<SourceBatch, UpstreamError>
  /** How long an answer is kept (SPEC: Federal Register and DOJ about 6 hours, the BIS charging letters 24). */
  readonly ttl?: Duration.DurationInput
  /** The `error` text of a failure, when the generic wording by reason would mislead. */
  readonly describe?: (error: UpstreamError) => string
}

/** The oldest of some YYYY-MM-DD dates. */
export const oldest = (dates: ReadonlyArray<string>): string | null =>
  dates.length === 0 ? null : dates.reduce((a, b) => (b < a ? b : a))
