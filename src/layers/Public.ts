import { FetchHttpClient } from "@effect/platform"
import { Effect, Layer } from "effect"
import { AppRoutes, routeCatalogLayer } from "../http/App.ts"
import { oauthRoutes, OAuthRoutesLive } from "../http/oauth/Routes.ts"
import * as AccessPolicy from "../services/AccessPolicy.ts"
import * as Auth from "../services/Auth.ts"
import * as DataGeneration from "../services/DataGeneration.ts"
import * as Ecfr from "../services/ecfr/Live.ts"
import * as EcfrReachability from "../services/EcfrReachability.ts"
import * as EnforcementFeed from "../services/EnforcementFeed.ts"
import * as EnforcementLake from "../services/EnforcementLake.ts"
import * as OAuthServer from "../services/OAuthServer.ts"
import * as RateLimiter from "../services/RateLimiter.ts"
import * as RegulatoryStatus from "../services/RegulatoryStatus.ts"
import * as Research from "../services/Research.ts"
import * as UserDirectory from "../services/UserDirectory.ts"
import { SkillsFromConfig } from "./Skills.ts"

/** Services every deployment shares; they need only the configuration. */
export const SharedServices = Layer.mergeAll(
  EcfrReachability.layer,
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

/** The authorization server over the embedded development user store. */
const AccountServices = OAuthServer.layer.pipe(Layer.provideMerge(UserDirectory.layerEmbedded))

/** Bearers on the public deployment: OAuth access tokens (`svc_oauth_`). */
const PublicAuth = Layer.effect(
  Auth.Auth,
  Effect.map(OAuthServer.OAuthServer, (oauth) => Auth.fromResolvers([OAuthServer.bearerResolver(oauth)]))
)

/** The public deployment's services: open access policy, OAuth authorization server, anonymous rate limit. */
export const PublicServices = Layer.mergeAll(
  routeCatalogLayer(oauthRoutes),
  AccessPolicy.layerOpen,
  PublicAuth,
  RateLimiter.layer
).pipe(
  Layer.provideMerge(AccountServices),
  Layer.provideMerge(SharedServices)
)

/** The public deployment: free reads, anonymous rate limit, the OAuth authorization server. */
export const PublicApp = Layer.mergeAll(AppRoutes, OAuthRoutesLive).pipe(Layer.provide(PublicServices))
