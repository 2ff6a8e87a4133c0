import { Layer } from "effect"
import type { Principal } from "../domain/Principal.ts"
import { AppRoutes } from "../http/App.ts"
import { OAuthRoutesLive } from "../http/oauth/Routes.ts"
import * as AccessLog from "../services/AccessLog.ts"
import * as AppConfig from "../services/AppConfig.ts"
import * as Auth from "../services/Auth.ts"
import * as CourtRecords from "../services/CourtRecords.ts"
import * as Credits from "../services/Credits.ts"
import * as DocumentFiles from "../services/DocumentFiles.ts"
import * as DocumentPayers from "../services/DocumentPayers.ts"
import * as Ecfr from "../services/ecfr/Live.ts"
import * as EnforcementCollection from "../services/EnforcementCollection.ts"
import * as EnforcementFeed from "../services/EnforcementFeed.ts"
import * as KeyStore from "../services/KeyStore.ts"
import * as OAuthLimits from "../services/OAuthLimits.ts"
import * as RateLimitCounters from "../services/ratelimit/Counters.ts"
import * as RateLimiter from "../services/RateLimiter.ts"
import * as Renderer from "../services/Renderer.ts"
import * as Research from "../services/Research.ts"
import * as Screening from "../services/Screening.ts"
import * as Pglite from "../services/store/Pglite.ts"
import { EnclaveServices } from "./Enclave.ts"
import { PublicServices } from "./Public.ts"
import { migrated } from "./Store.ts"

/**
 * The fixture layer of each service, in one place. A fixture is the service's own implementation
 * over memory, a given table or a given text, with no network and no files: a test that uses one
 * still runs the code it checks. Services whose only state is the SQL store take the in-memory
 * store (`store`); those calling upstreams take a base URL in their `layerWith` options (point it
 * at a loopback fake).
 */
export const fixtures = {
  /** A fixed bearer → principal table, without the key store or the OAuth server. */
  auth: Auth.layerFixed,
  /** The configuration with overrides, over the defaults of an empty environment. */
  config: AppConfig.layerWith,
  /** A fresh, migrated PostgreSQL-in-WASM store in memory: keys, credits, OAuth, workspace, archives. */
  store: migrated(Pglite.layer({}), "embedded"),
  accessLog: AccessLog.layerSilent,
  keys: KeyStore.layerMemory,
  credits: Credits.layerMemory,
  documentFiles: DocumentFiles.layerMemory,
  oauthLimits: OAuthLimits.layerUnlimited,
  rateLimitCounters: RateLimitCounters.layerMemory,
  /** The anonymous per-client budget counted in memory (`limit` 0 turns it off). */
  rateLimiter: (options: RateLimiter.LimitOptions) =>
    Layer.effect(RateLimiter.RateLimiter, RateLimiter.makeInMemory(options)),
  renderer: Renderer.layerInProcess,
  /** The eCFR read from saved part files (`test/fixtures` holds real ones). */
  ecfr: Ecfr.layerFromDirectory,
  /** Screening over a Consolidated Screening List given as its JSON text. */
  screening: Screening.layerFromText,
  research: Research.layerWith,
  courtRecords: CourtRecords.layerWith,
  enforcementFeed: EnforcementFeed.layerWith,
  enforcementCollection: EnforcementCollection.layerWith,
  documentPayersEnclave: DocumentPayers.layerEnclave
} as const

/**
 * The public deployment's routes (REST, MCP, OAuth) over its real services, with `replacements`
 * provided first, so they win over the services' own layers, for the MCP tools too (the tool
 * catalogue is built with the routes, see `AppRoutes`): what a test builds with `it.layer`
 * instead of starting a server on a port. It still needs the configuration, the store and the
 * runtime's context (`forRuntime` in `Main.ts`).
 */
export const publicAppWith = <ROut, E, RIn>(replacements: Layer.Layer<ROut, E, RIn>) =>
  Layer.mergeAll(AppRoutes, OAuthRoutesLive).pipe(Layer.provide(replacements), Layer.provide(PublicServices))

/** The public deployment where the callers in `principals` resolve without the key store. */
export const publicApp = (principals: Readonly<Record<string, Principal>>) => publicAppWith(Auth.layerFixed(principals))

/** The enclave deployment (service JWTs only) with its own services, and `replacements` provided first. */
export const enclaveAppWith = <ROut, E, RIn>(replacements: Layer.Layer<ROut, E, RIn>) =>
  AppRoutes.pipe(Layer.provide(replacements), Layer.provide(EnclaveServices))

/** The enclave deployment where the callers in `principals` resolve without verifying a JWT. */
export const enclaveApp = (principals: Readonly<Record<string, Principal>>) =>
  enclaveAppWith(Auth.layerFixed(principals))
