import { FetchHttpClient } from "@effect/platform"
import { Layer } from "effect"
import { AppRoutes, RouteCatalogLive } from "../http/App.ts"
import { McpCatalogLive } from "../mcp/ToolCatalog.ts"
import * as Auth from "../services/Auth.ts"
import * as CclIndex from "../services/CclIndex.ts"
import * as CountryChart from "../services/CountryChart.ts"
import * as DataGeneration from "../services/DataGeneration.ts"
import * as Ecfr from "../services/ecfr/Live.ts"
import * as EcfrReachability from "../services/EcfrReachability.ts"
import type { EcfrSource } from "../services/EcfrSource.ts"
import * as EnforcementFeed from "../services/EnforcementFeed.ts"
import * as EnforcementLake from "../services/EnforcementLake.ts"
import * as Radar from "../services/Radar.ts"
import * as RateLimiter from "../services/RateLimiter.ts"
import * as RegulatoryStatus from "../services/RegulatoryStatus.ts"
import * as Research from "../services/Research.ts"
import { SkillsFromConfig } from "./Skills.ts"

/** The eCFR source with the answers parsed from it (ECCN entries, Country Chart and Groups). */
const regulatoryData = <E, R>(ecfrSource: Layer.Layer<EcfrSource, E, R>) =>
  CountryChart.layer.pipe(Layer.provideMerge(CclIndex.layer), Layer.provideMerge(ecfrSource))

/** The data services: what REST handlers and MCP tools both call. One DataGeneration counts all of them. */
const dataServices = <E, R>(ecfrSource: Layer.Layer<EcfrSource, E, R>) =>
  Layer.mergeAll(
    regulatoryData(ecfrSource),
    RegulatoryStatus.layer,
    Radar.layer,
    SkillsFromConfig,
    Research.layer,
    EnforcementFeed.layer,
    EnforcementLake.layer
  ).pipe(Layer.provideMerge(DataGeneration.layer))

/** Services every deployment shares over the given eCFR source; they need only the configuration. */
export const sharedServicesOver = <E, R>(ecfrSource: Layer.Layer<EcfrSource, E, R>) =>
  Layer.mergeAll(
    RateLimiter.layer,
    EcfrReachability.layer,
    RouteCatalogLive,
    McpCatalogLive
  ).pipe(
    Layer.provideMerge(dataServices(ecfrSource)),
    Layer.provide(FetchHttpClient.layer)
  )

/** Services every deployment shares, over the live eCFR mirror. */
export const SharedServices = sharedServicesOver(Ecfr.layer)

/** The public deployment's services: no credentials are configured yet, so every bearer is anonymous. */
export const publicServicesOver = <E, R>(ecfrSource: Layer.Layer<EcfrSource, E, R>) =>
  Layer.merge(sharedServicesOver(ecfrSource), Auth.layerFixed({}))

export const PublicServices = publicServicesOver(Ecfr.layer)

/** The public deployment: free reads, anonymous rate limit, MCP. */
export const PublicApp = AppRoutes.pipe(Layer.provide(PublicServices))
