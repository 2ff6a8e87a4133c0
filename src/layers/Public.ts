import { FetchHttpClient } from "@effect/platform"
import { Layer } from "effect"
import { AppRoutes, RouteCatalogLive } from "../http/App.ts"
import * as ApiKeyAuth from "../services/ApiKeyAuth.ts"
import * as Credits from "../services/Credits.ts"
import * as DataGeneration from "../services/DataGeneration.ts"
import * as EcfrReachability from "../services/EcfrReachability.ts"
import * as EnforcementFeed from "../services/EnforcementFeed.ts"
import * as EnforcementLake from "../services/EnforcementLake.ts"
import * as KeyStore from "../services/KeyStore.ts"
import * as RateLimiter from "../services/RateLimiter.ts"
import * as RegulatoryStatus from "../services/RegulatoryStatus.ts"
import * as Renderer from "../services/Renderer.ts"
import * as Research from "../services/Research.ts"
import { SkillsFromConfig } from "./Skills.ts"

/**
 * API keys and prepaid credits in the embedded store under DATA_DIR, and the `Auth` that resolves
 * `svc_live_` bearers against it. OAuth tokens and the enclave's service JWTs will be further
 * `Auth` layers over the same contract.
 */
export const ApiKeyAccounts = Layer.mergeAll(ApiKeyAuth.layer, Credits.layer).pipe(Layer.provideMerge(KeyStore.layer))

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
  Renderer.layer,
  ApiKeyAccounts
).pipe(
  Layer.provideMerge(DataGeneration.layer),
  Layer.provide(FetchHttpClient.layer)
)

/** The public deployment: free reads, anonymous rate limit, API-key documents. */
export const PublicApp = AppRoutes.pipe(Layer.provide(SharedServices))
