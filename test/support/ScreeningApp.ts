import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { Effect, Layer } from "effect"
import { readFileSync } from "node:fs"
import type { AffiliatesRuleStatus } from "../../src/domain/RegulatoryStatus.ts"
import { AppRoutes, RouteCatalogLive } from "../../src/http/App.ts"
import { forRuntime } from "../../src/layers/Main.ts"
import { SkillsFromConfig } from "../../src/layers/Skills.ts"
import type { AppConfig } from "../../src/services/AppConfig.ts"
import * as DataGeneration from "../../src/services/DataGeneration.ts"
import * as EcfrReachability from "../../src/services/EcfrReachability.ts"
import * as RateLimiter from "../../src/services/RateLimiter.ts"
import * as RegulatoryStatus from "../../src/services/RegulatoryStatus.ts"
import type * as Screening from "../../src/services/Screening.ts"

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

type ScreeningNeeds =
  | DataGeneration.DataGeneration
  | RegulatoryStatus.RegulatoryStatus
  | AppConfig
  | HttpClient.HttpClient

/** The public app with the given Screening and RegulatoryStatus layers. */
export const screeningApp = (
  screening: Layer.Layer<Screening.Screening, never, ScreeningNeeds>,
  regulatory: Layer.Layer<RegulatoryStatus.RegulatoryStatus> = fixedRegulatoryStatus(suspendedAffiliatesRule)
) =>
  forRuntime(
    AppRoutes.pipe(
      Layer.provide(
        Layer.mergeAll(RateLimiter.layer, EcfrReachability.layer, RouteCatalogLive, SkillsFromConfig, screening).pipe(
          Layer.provideMerge(Layer.mergeAll(DataGeneration.layer, regulatory)),
          Layer.provide(FetchHttpClient.layer)
        )
      )
    ),
    "node test"
  )
