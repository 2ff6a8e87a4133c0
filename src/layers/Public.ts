import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { Layer } from "effect"
import { AppRoutes, RouteCatalogLive } from "../http/App.ts"
import type { AppConfig } from "../services/AppConfig.ts"
import * as DataGeneration from "../services/DataGeneration.ts"
import * as EcfrReachability from "../services/EcfrReachability.ts"
import * as RateLimiter from "../services/RateLimiter.ts"
import type { SkillsMirror } from "../services/SkillsMirror.ts"
import { SkillsFromConfig } from "./Skills.ts"

/** Services every deployment shares; they need only the configuration. */
export const SharedServices = Layer.mergeAll(
  RateLimiter.layer,
  EcfrReachability.layer,
  RouteCatalogLive,
  DataGeneration.layer
).pipe(
  Layer.provideMerge(FetchHttpClient.layer)
)

/** The public deployment: free reads, anonymous rate limit; skill content from `skills` (`SKILLS_SOURCE`). */
export const makePublicApp = (
  skills: Layer.Layer<SkillsMirror, never, AppConfig | DataGeneration.DataGeneration | HttpClient.HttpClient>
) => AppRoutes.pipe(Layer.provide(skills), Layer.provide(SharedServices))

export const PublicApp = makePublicApp(SkillsFromConfig)
