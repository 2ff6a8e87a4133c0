import { FetchHttpClient } from "@effect/platform"
import { Effect, Layer } from "effect"
import { AppRoutes, routeCatalogLayer } from "../http/App.ts"
import { oauthRoutes, OAuthRoutesLive } from "../http/oauth/Routes.ts"
import * as AccessPolicy from "../services/AccessPolicy.ts"
import * as Auth from "../services/Auth.ts"
import * as CclIndex from "../services/CclIndex.ts"
import * as CountryChart from "../services/CountryChart.ts"
import * as DataGeneration from "../services/DataGeneration.ts"
import * as Ecfr from "../services/ecfr/Live.ts"
import * as EcfrReachability from "../services/EcfrReachability.ts"
import type { EcfrSource } from "../services/EcfrSource.ts"
import * as EnforcementFeed from "../services/EnforcementFeed.ts"
import * as EnforcementLake from "../services/EnforcementLake.ts"
import * as OAuthServer from "../services/OAuthServer.ts"
import * as Radar from "../services/Radar.ts"
import * as RateLimiter from "../services/RateLimiter.ts"
import * as RegulatoryStatus from "../services/RegulatoryStatus.ts"
import * as Research from "../services/Research.ts"
import * as Screening from "../services/Screening.ts"
import * as UserDirectory from "../services/UserDirectory.ts"
import { SkillsFromConfig } from "./Skills.ts"

/** The eCFR source with the answers parsed from it (ECCN entries, Country Chart and Groups). */
const regulatoryData = <E, R>(ecfrSource: Layer.Layer<EcfrSource, E, R>) =>
  CountryChart.layer.pipe(Layer.provideMerge(CclIndex.layer), Layer.provideMerge(ecfrSource))

/** Services every deployment shares over the given eCFR source; they need only the configuration. */
export const sharedServicesOver = <E, R>(ecfrSource: Layer.Layer<EcfrSource, E, R>) =>
  Layer.mergeAll(
    EcfrReachability.layer,
    regulatoryData(ecfrSource),
    Radar.layer,
    SkillsFromConfig,
    Research.layer,
    EnforcementFeed.layer,
    EnforcementLake.layer,
    Screening.layer
  ).pipe(
    Layer.provideMerge(Layer.mergeAll(DataGeneration.layer, RegulatoryStatus.layer)),
    Layer.provide(FetchHttpClient.layer)
  )

/** Services every deployment shares, over the live eCFR mirror. */
export const SharedServices = sharedServicesOver(Ecfr.layer)

/** The authorization server over the embedded development user store. */
const AccountServices = OAuthServer.layer.pipe(Layer.provideMerge(UserDirectory.layerEmbedded))

/** Bearers on the public deployment: OAuth access tokens (`svc_oauth_`). */
const PublicAuth = Layer.effect(
  Auth.Auth,
  Effect.map(OAuthServer.OAuthServer, (oauth) => Auth.fromResolvers([OAuthServer.bearerResolver(oauth)]))
)

/**
 * The public deployment's services over the given eCFR source: open access policy, OAuth
 * authorization server, anonymous rate limit.
 */
export const publicServicesOver = <E, R>(ecfrSource: Layer.Layer<EcfrSource, E, R>) =>
  Layer.mergeAll(routeCatalogLayer(oauthRoutes), AccessPolicy.layerOpen, PublicAuth, RateLimiter.layer).pipe(
    Layer.provideMerge(AccountServices),
    Layer.provideMerge(sharedServicesOver(ecfrSource))
  )

export const PublicServices = publicServicesOver(Ecfr.layer)

/** The public deployment: free reads, anonymous rate limit, the OAuth authorization server. */
export const PublicApp = Layer.mergeAll(AppRoutes, OAuthRoutesLive).pipe(Layer.provide(PublicServices))
