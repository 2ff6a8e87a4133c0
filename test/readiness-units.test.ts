import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Readiness from "../src/services/Readiness.ts"

describe("readiness document", () => {
  it.effect("a check that breaks is that dependency unavailable, not a failed document", () =>
    Effect.gen(function*() {
      const readiness = yield* Readiness.Readiness
      const report = yield* readiness.report
      expect(report.checks).toEqual([
        { name: "fine", critical: true, status: "ok", summary: "fine", details: {} },
        {
          name: "broken",
          critical: false,
          status: "unavailable",
          summary: "the check could not run: its data cannot be read (is the store reachable?)",
          details: {}
        }
      ])
      // not critical: the service as a whole is only degraded
      expect(report.status).toBe("degraded")
    }).pipe(Effect.provide(Readiness.layer([
      Readiness.contribution("fine", true, Effect.succeed({ status: "ok" as const, summary: "fine", details: {} })),
      Readiness.contribution("broken", false, Effect.die(new Error("the store refused the query")))
    ]))))
})
