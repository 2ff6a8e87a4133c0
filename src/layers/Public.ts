import { FetchHttpClient } from "@effect/platform"
import { Layer } from "effect"
import { AppRoutes, RouteCatalogLive } from "../http/App.ts"
import { McpCatalogLive } from "../mcp/ToolCatalog.ts"
import * as Auth from "../services/Auth.ts"
import * as DataGeneration from "../services/DataGeneration.ts"
import * as Ecfr from "../services/ecfr/Live.ts"
import * as EcfrReachability from "../services/EcfrReachability.ts"
import * as EnforcementFeed from "../services/EnforcementFeed.ts"
import * as EnforcementLake from "../services/EnforcementLake.ts"
import * as RateLimiter from "../services/RateLimiter.ts"
import * as RegulatoryStatus from "../services/RegulatoryStatus.ts"
import * as Research from "../services/Research.ts"
import { SkillsFromConfig } from "./Skills.ts"

/** The data services: what REST handlers and MCP tools both call. One DataGeneration counts all of them. */
const DataServices = Layer.mergeAll(
  RegulatoryStatus.layer,
  SkillsFromConfig,
  Research.layer,
  EnforcementFeed.layer,
  EnforcementLake.layer,
  Ecfr.layer
).pipe(Layer.provideMerge(DataGeneration.layer))

/** Services every deployment shares; they need only the configuration. */
export const SharedServices = Layer.mergeAll(
  RateLimiter.layer,
  EcfrReachability.layer,
  RouteCatalogLive,
  McpCatalogLive
).pipe(
  Layer.provideMerge(DataServices),
  Layer.provide(FetchHttpClient.layer)
)

/** The public deployment's services: no credentials are configured yet, so every bearer is anonymous. */
export const PublicServices = Layer.merge(SharedServices, Auth.layerFixed({}))

/** The public deployment: free reads, anonymous rate limit, MCP. */
export const PublicApp = AppRoutes.pipe(Layer.provide(PublicServices))
