import { FetchHttpClient } from "@effect/platform"
import { Effect, Layer } from "effect"
import { readFileSync } from "node:fs"
import type { AffiliatesRuleStatus } from "../../src/domain/RegulatoryStatus.ts"
import { AppRoutes } from "../../src/http/App.ts"
import { forRuntime } from "../../src/layers/Main.ts"
import { PublicServices } from "../../src/layers/Public.ts"
import * as DataGeneration from "../../src/services/DataGeneration.ts"
import * as RegulatoryStatus from "../../src/services/RegulatoryStatus.ts"
import type * as Screening from "../../src/services/Screening.ts"
import * as ScreeningChanges from "../../src/services/ScreeningChanges.ts"
import { testStore } from "./TestStore.ts"

export const fixtureText = readFileSync("test/fixtures/screening/consolidated.json", "utf8")

export const suspendedAffiliatesRule: AffiliatesRuleStatus = {
  state: "suspended",
  asOf: "2026-06-01",
  suspendedThrough: "2026-11-09",
  snapBackDate: "2026-11-10",
  daysUntilSnapBack: 162,
  summary: "Suspended for the test.",
  citations: ["FR Doc 2025-19001 (90 FR 47201)"]
}

/** RegulatoryStatus with a fixed Affiliates Rule state; the other documents come from the real module. */
export const fixedRegulatoryStatus = (affiliatesRule: AffiliatesRuleStatus) =>
  Layer.succeed(RegulatoryStatus.RegulatoryStatus, {
    ...RegulatoryStatus.make,
    affiliatesRule: Effect.succeed(affiliatesRule)
  })

/**
 * The public app with the given Screening layer (built over a fixed Affiliates Rule state) in place
 * of the live one. `DataGeneration.layer` is memoized per build, so the screening service and the
 * response microcache share one counter.
 */
export const screeningApp = <R>(
  screening: Layer.Layer<Screening.Screening, never, R>,
  regulatory: Layer.Layer<RegulatoryStatus.RegulatoryStatus> = fixedRegulatoryStatus(suspendedAffiliatesRule)
) =>
  forRuntime(
    AppRoutes.pipe(
      Layer.provide(Layer.merge(
        PublicServices,
        screening.pipe(
          Layer.provide(Layer.mergeAll(DataGeneration.layer, regulatory, FetchHttpClient.layer, ScreeningChanges.layer))
        )
      ))
    ),
    "node test",
    testStore
  )
