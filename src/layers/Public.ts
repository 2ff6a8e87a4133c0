import { FetchHttpClient } from "@effect/platform"
import { Effect, Layer } from "effect"
import { AppRoutes, routeCatalogLayer } from "../http/App.ts"
import { DocumentsAuthByApiKey } from "../http/documents/Payers.ts"
import { oauthRoutes, OAuthRoutesLive } from "../http/oauth/Routes.ts"
import * as AccessPolicy from "../services/AccessPolicy.ts"
import * as JsonImport from "../services/accounts/JsonImport.ts"
import * as SqlCredits from "../services/accounts/SqlCredits.ts"
import * as SqlKeys from "../services/accounts/SqlKeys.ts"
import * as ApiKeyAuth from "../services/ApiKeyAuth.ts"
import * as Auth from "../services/Auth.ts"
import * as CclIndex from "../services/CclIndex.ts"
import * as CountryChart from "../services/CountryChart.ts"
import * as DataGeneration from "../services/DataGeneration.ts"
import * as DocumentPayers from "../services/DocumentPayers.ts"
import * as Ecfr from "../services/ecfr/Live.ts"
import * as EcfrReachability from "../services/EcfrReachability.ts"
import type { EcfrSource } from "../services/EcfrSource.ts"
import * as ArchiveUpgrade from "../services/enforcement/ArchiveUpgrade.ts"
import * as EnforcementCollection from "../services/EnforcementCollection.ts"
import * as EnforcementFeed from "../services/EnforcementFeed.ts"
import * as EnforcementLake from "../services/EnforcementLake.ts"
import * as KeyStore from "../services/KeyStore.ts"
import * as OAuthServer from "../services/OAuthServer.ts"
import * as PartyEnforcement from "../services/PartyEnforcement.ts"
import * as Radar from "../services/Radar.ts"
import { RateLimitCounters } from "../services/ratelimit/Counters.ts"
import * as Readiness from "../services/Readiness.ts"
import * as ReadinessChecks from "../services/readiness/Checks.ts"
import * as RegulatoryStatus from "../services/RegulatoryStatus.ts"
import * as Renderer from "../services/Renderer.ts"
import * as Research from "../services/Research.ts"
import * as Screening from "../services/Screening.ts"
import * as ScreeningChanges from "../services/ScreeningChanges.ts"
import * as DocumentFiles from "../services/store/DocumentFilesSql.ts"
import * as UserDirectory from "../services/UserDirectory.ts"
import * as RateLimit from "./RateLimit.ts"
import { SkillsFromConfig } from "./Skills.ts"
import { WorkspaceServices } from "./Workspace.ts"

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
    EnforcementFeed.layer.pipe(Layer.provideMerge(EnforcementLake.layer)),
    EnforcementCollection.layer,
    Screening.layer.pipe(Layer.provideMerge(ScreeningChanges.layer)),
    Renderer.layer,
    DocumentFiles.layer
  ).pipe(
    // the previous version's archive files are imported before the archive is read or collected into
    Layer.provideMerge(Layer.mergeAll(DataGeneration.layer, RegulatoryStatus.layer, ArchiveUpgrade.layer))
  )

/** The readiness checks of the shared services, the store, and whatever the rate limit's counters add (Redis). */
const readiness = Layer.unwrapEffect(
  Effect.map(
    RateLimitCounters,
    (counters) => Readiness.layer([...ReadinessChecks.shared, ReadinessChecks.store, ...counters.readiness])
  )
)

/**
 * Services every deployment shares over the given eCFR source; they need the configuration, the
 * deployment's rule of who pays for documents (`DocumentPayers`) and its rate limit's counters.
 * The MCP catalogue is not among them: it is bound above them with the routes (`AppRoutes`).
 */
export const sharedServicesOver = <E, R>(ecfrSource: Layer.Layer<EcfrSource, E, R>) =>
  readiness.pipe(
    Layer.provideMerge(EcfrReachability.layer),
    Layer.provideMerge(Layer.merge(PartyEnforcement.layer, WorkspaceServices)),
    Layer.provideMerge(dataServices(ecfrSource)),
    Layer.provide(FetchHttpClient.layer)
  )

/** Services every deployment shares, over the live eCFR mirror. */
export const SharedServices = sharedServicesOver(Ecfr.layer)

/**
 * Accounts: API keys with their prepaid credits in the SQL store (after the one-time import of the
 * DATA_DIR JSON files), and the OAuth authorization server over the development user store.
 */
const AccountServices = Layer.mergeAll(OAuthServer.layer, SqlCredits.layerFromConfig, SqlKeys.layer).pipe(
  Layer.provideMerge(UserDirectory.layerEmbedded),
  Layer.provide(JsonImport.layer)
)

/** Bearers on the public deployment: API keys (`svc_live_`), then OAuth access tokens (`svc_oauth_`). */
const PublicAuth = Layer.effect(
  Auth.Auth,
  Effect.gen(function*() {
    const keys = yield* KeyStore.KeyStore
    const oauth = yield* OAuthServer.OAuthServer
    return Auth.fromResolvers([ApiKeyAuth.bearerResolver(keys), OAuthServer.bearerResolver(oauth)])
  })
)

/**
 * The public deployment's services over the given eCFR source: open access policy, API keys and
 * OAuth users paying for documents with credits or their plan, the OAuth authorization server,
 * anonymous rate limit.
 */
export const publicServicesOver = <E, R>(ecfrSource: Layer.Layer<EcfrSource, E, R>) =>
  Layer.mergeAll(routeCatalogLayer(oauthRoutes), AccessPolicy.layerOpen, DocumentsAuthByApiKey).pipe(
    Layer.provideMerge(PublicAuth),
    Layer.provideMerge(sharedServicesOver(ecfrSource)),
    Layer.provideMerge(RateLimit.fromConfig),
    Layer.provideMerge(DocumentPayers.layerPublic),
    Layer.provideMerge(AccountServices)
  )

export const PublicServices = publicServicesOver(Ecfr.layer)

/** The public deployment: free reads, anonymous rate limit, API-key documents, MCP, the OAuth authorization server. */
export const PublicApp = Layer.mergeAll(AppRoutes, OAuthRoutesLive).pipe(Layer.provide(PublicServices))
