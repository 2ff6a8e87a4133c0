import { FetchHttpClient } from "@effect/platform"
import { Layer } from "effect"
import { AppRoutes, RouteCatalogLive } from "../http/App.ts"
import * as DataGeneration from "../services/DataGeneration.ts"
import * as EcfrReachability from "../services/EcfrReachability.ts"
import * as RateLimiter from "../services/RateLimiter.ts"
import * as RegulatoryStatus from "../services/RegulatoryStatus.ts"
import * as Screening from "../services/Screening.ts"
import { SkillsFromConfig } from "./Skills.ts"

/** Services every deployment shares; they need only the configuration. */
export const SharedServices = Layer.mergeAll(
  RateLimiter.layer,
  EcfrReachability.layer,
  RouteCatalogLive,
  SkillsFromConfig,
  Screening.layer
).pipe(
  Layer.provideMerge(Layer.mergeAll(DataGeneration.layer, RegulatoryStatus.layer)),
  Layer.provide(FetchHttpClient.layer)
)

/** The public deployment: free reads, anonymous rate limit. */
export const PublicApp = AppRoutes.pipe(Layer.provide(SharedServices))
