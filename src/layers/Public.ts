import { FetchHttpClient } from "@effect/platform"
import { Layer } from "effect"
import { AppRoutes, RouteCatalogLive } from "../http/App.ts"
import { McpCatalogLive } from "../mcp/ToolCatalog.ts"
import * as ApiKeyAuth from "../services/ApiKeyAuth.ts"
import * as CclIndex from "../services/CclIndex.ts"
import * as CountryChart from "../services/CountryChart.ts"
import * as Credits from "../services/Credits.ts"
import * as DataGeneration from "../services/DataGeneration.ts"
import * as Ecfr from "../services/ecfr/Live.ts"
import * as EcfrReachability from "../services/EcfrReachability.ts"
import type { EcfrSource } from "../services/EcfrSource.ts"
import * as EnforcementFeed from "../services/EnforcementFeed.ts"
import * as EnforcementLake from "../services/EnforcementLake.ts"
import * as KeyStore from "../services/KeyStore.ts"
import * as Radar from "../services/Radar.ts"
import * as RateLimiter from "../services/RateLimiter.ts"
import * as RegulatoryStatus from "../services/RegulatoryStatus.ts"
import * as Renderer from "../services/Renderer.ts"
import * as Research from "../services/Research.ts"
import * as Screening from "../services/Screening.ts"
import { SkillsFromConfig } from "./Skills.ts"

/**
 * API keys and prepaid credits in the embedded store under DATA_DIR, and the `Auth` that resolves
 * `svc_live_` bearers against it. OAuth tokens and the enclave's service JWTs will be further
 * `Auth` layers over the same contract.
 */
export const ApiKeyAccounts = Layer.mergeAll(ApiKeyAuth.layer, Credits.layer).pipe(Layer.provideMerge(KeyStore.layer))

/** The eCFR source with the answers parsed from it (ECCN entries, Country Chart and Groups). */
const regulatoryData = <E, R>(ecfrSource: Layer.Layer<EcfrSource, E, R>) =>
  CountryChart.layer.pipe(Layer.provideMerge(CclIndex.layer), Layer.provideMerge(ecfrSource))

/** The data services: what REST handlers and MCP tools both call. One DataGeneration counts all of them. */
const dataServices = <E, R>(ecfrSource: Layer.Layer<EcfrSource, E, R>) =>
  Layer.mergeAll(
    regulatoryData(ecfrSource),
    Radar.layer,
    SkillsFromConfig,
    Research.layer,
    EnforcementFeed.layer,
    EnforcementLake.layer,
    Screening.layer,
    Renderer.layer
  ).pipe(Layer.provideMerge(Layer.mergeAll(DataGeneration.layer, RegulatoryStatus.layer)))

/** Services every deployment shares over the given eCFR source; they need only the configuration. */
export const sharedServicesOver = <E, R>(ecfrSource: Layer.Layer<EcfrSource, E, R>) =>
  Layer.mergeAll(
    RateLimiter.layer,
    EcfrReachability.layer,
    RouteCatalogLive,
    McpCatalogLive,
    ApiKeyAccounts
  ).pipe(
    Layer.provideMerge(dataServices(ecfrSource)),
    Layer.provide(FetchHttpClient.layer)
  )

/** Services every deployment shares, over the live eCFR mirror. */
export const SharedServices = sharedServicesOver(Ecfr.layer)

/** The public deployment: free reads, anonymous rate limit, API-key documents, MCP. */
export const PublicApp = AppRoutes.pipe(Layer.provide(SharedServices))
