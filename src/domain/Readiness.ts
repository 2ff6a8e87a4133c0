import { Schema } from "effect"
import * as Examples from "./examples/Service.ts"

/**
 * The readiness document (`GET /ready`): one check per dependency, each contributed by the service
 * that owns it, and an overall status a load balancer can act on (`unavailable` answers 503).
 */
export const CheckStatus = Schema.Literal("ok", "degraded", "unavailable").annotations({
  description: "`ok`; `degraded`: answers are served but something needs attention; `unavailable`: cannot answer"
})
export type CheckStatus = typeof CheckStatus.Type

export const ReadinessCheck = Schema.Struct({
  name: Schema.String.annotations({ description: "the dependency", examples: ["ecfr"] }),
  status: CheckStatus,
  critical: Schema.Boolean.annotations({
    description: "true when the service as a whole is unavailable while this check is"
  }),
  summary: Schema.String.annotations({
    description: "what the state means and, when not ok, what to do",
    examples: ["12 of 12 parts stored; newest issue 2026-11-18"]
  }),
  details: Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
    jsonSchema: {
      type: "object",
      description: "the facts behind the status (ages in seconds, counts, sources)",
      examples: [{ upstream: "ok", stored_parts: 12 }]
    }
  })
}).annotations({ identifier: "ReadinessCheck" })
export type ReadinessCheck = typeof ReadinessCheck.Type

export const ReadinessReport = Schema.Struct({
  status: CheckStatus.annotations({
    description: "`unavailable` when a critical check is, else `degraded` when any check is not ok, else `ok`"
  }),
  service: Schema.String,
  version: Schema.String,
  timestamp: Schema.String.annotations({ format: "date-time" }),
  checks: Schema.Array(ReadinessCheck)
}).annotations({ identifier: "ReadinessReport", examples: [Examples.readiness] })
export type ReadinessReport = typeof ReadinessReport.Type

const rank: Record<CheckStatus, number> = { ok: 0, degraded: 1, unavailable: 2 }

/** The overall status: an unavailable non-critical dependency only degrades the service. */
export const overallStatus = (checks: ReadonlyArray<ReadinessCheck>): CheckStatus =>
  checks.reduce<CheckStatus>((worst, check) => {
    const status = check.status === "unavailable" && !check.critical ? "degraded" : check.status
    return rank[status] > rank[worst] ? status : worst
  }, "ok")
