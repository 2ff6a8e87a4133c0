import { Effect, Layer } from "effect"
import { AppRoutes, routeCatalogLayer } from "../http/App.ts"
import { DocumentsAuthByEntitlement } from "../http/documents/Payers.ts"
import * as AccessPolicy from "../services/AccessPolicy.ts"
import { AppConfig } from "../services/AppConfig.ts"
import * as Auth from "../services/Auth.ts"
import * as DocumentPayers from "../services/DocumentPayers.ts"
import * as RateLimitCounters from "../services/ratelimit/Counters.ts"
import * as RateLimiter from "../services/RateLimiter.ts"
import * as ServiceJwt from "../services/ServiceJwt.ts"
import { SharedServices } from "./Public.ts"

/** Bearers on the enclave: service JWTs only (no API keys, no OAuth). */
const EnclaveAuth = Layer.effect(
  Auth.Auth,
  Effect.flatMap(
    AppConfig,
    (config) => Effect.map(ServiceJwt.makeResolver(config.serviceJwt), (resolver) => Auth.fromResolvers([resolver]))
  )
)

/** Every guarded path is authenticated before it is counted, so the anonymous per-IP limit is off. */
const NoAnonymousLimit = Layer.merge(
  Layer.effect(RateLimiter.RateLimiter, RateLimiter.makeInMemory({ limit: 0, windowSeconds: 60 })),
  RateLimitCounters.layerMemory
)

/**
 * The enclave deployment: the same routes minus the OAuth authorization server, a service JWT
 * required on /mcp, /api/*, /skills* and /pdf/*, documents rendered under the plan of services
 * entitled to them (over REST and MCP), and the index describing host and access.
 */
export const EnclaveServices = Layer.mergeAll(
  routeCatalogLayer([]),
  AccessPolicy.layerServiceJwt,
  DocumentsAuthByEntitlement
).pipe(
  Layer.provideMerge(EnclaveAuth),
  Layer.provideMerge(SharedServices),
  Layer.provideMerge(NoAnonymousLimit),
  Layer.provideMerge(DocumentPayers.layerEnclave)
)

export const EnclaveApp = AppRoutes.pipe(Layer.provide(EnclaveServices))
