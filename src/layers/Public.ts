import { FetchHttpClient } from "@effect/platform"
import { Layer } from "effect"
import { AppRoutes, RouteCatalogLive } from "../http/App.ts"
import * as DataGeneration from "../services/DataGeneration.ts"
import * as Ecfr from "../services/ecfr/Live.ts"
import * as EcfrReachability from "../services/EcfrReachability.ts"
import * as EnforcementFeed from "../services/EnforcementFeed.ts"
import * as EnforcementLake from "../services/EnforcementLake.ts"
import * as RateLimiter from "../services/RateLimiter.ts"
import * as RegulatoryStatus from "../services/RegulatoryStatus.ts"
import * as Research from "../services/Research.ts"
import { SkillsFromConfig } from "./Skills.ts"

/** Services every deployment shares; they need only the configuration. */
export const SharedServices = Layer.mergeAll(
  RateLimiter.layer,
  EcfrReachability.layer,
  RouteCatalogLive,
  RegulatoryStatus.layer,
  SkillsFromConfig,
  Research.layer,
  EnforcementFeed.layer,
  EnforcementLake.layer,
  Ecfr.layer
).pipe(
  Layer.provideMerge(DataGeneration.layer),
  Layer.provide(FetchHttpClient.layer)
)

/** The public deployment: free reads, anonymous rate limit. */
export const PublicApp = AppRoutes.pipe(Layer.provide(SharedServices))
