import { FetchHttpClient } from "@effect/platform"
import { Data, Effect, Option } from "effect"
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  exportJWK,
  importSPKI,
  type JSONWebKeySet,
  jwtVerify,
  type JWTVerifyGetKey
} from "jose"
import type { Principal } from "../domain/Principal.ts"
import type { ServiceJwtConfig } from "./AppConfig.ts"
import type { BearerResolver } from "./Auth.ts"

/**
 * Enclave service JWTs. Claims: `iss` and `aud` as configured, `exp` and `sub` required, `nbf`
 * honoured when present, the entitlements in `svc_entitlements` (an array of strings), and the
 * workspace the service acts on in `svc_workspace` (a string; default: the subject).
 */
export const EntitlementsClaim = "svc_entitlements"

export const WorkspaceClaim = "svc_workspace"

export const Entitlement = {
  /** `POST /mcp` and the enterprise MCP tools. */
  mcp: "mcp",
  /** `/pdf/*` rendering, covered by the plan (no credits). */
  pdf: "pdf"
} as const

export class ServiceJwtConfigError extends Data.TaggedError("ServiceJwtConfigError")<{ readonly reason: string }> {
  override get message() {
    return this.reason
  }
}

/** Seconds of clock skew tolerated on `exp` and `nbf`. */
const clockToleranceSeconds = 30

const compactJws = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/

/** One PEM public key, imported for whichever allowed algorithm a token names. */
const pemKey = (pem: string, algorithms: ReadonlyArray<string>): JWTVerifyGetKey => {
  const imported = new Map<string, Promise<CryptoKey>>()
  return (header) => {
    const alg = header.alg
    if (!algorithms.includes(alg)) throw new Error("algorithm not allowed")
    let key = imported.get(alg)
    if (key === undefined) {
      key = importSPKI(pem, alg)
      imported.set(alg, key)
    }
    return key
  }
}

/** Refuses a token whose header names no key: with a key set, jose would otherwise try its only key. */
class MissingKeyId extends Error {
  readonly code = "ERR_JWKS_NO_KID"
}

/**
 * A key set selects its key by the token's `kid` only (the deployment guide promises a known `kid`):
 * jose alone accepts a token without one when the set holds a single key of the algorithm.
 */
const requiringKid = (keys: JWTVerifyGetKey): JWTVerifyGetKey => (header, token) => {
  if (typeof header.kid !== "string" || header.kid.length === 0) throw new MissingKeyId("kid required")
  return keys(header, token)
}

const keySetFrom = (config: ServiceJwtConfig): Effect.Effect<JWTVerifyGetKey, ServiceJwtConfigError> => {
  if (Option.isSome(config.jwksUrl)) {
    const url = new URL(config.jwksUrl.value)
    // the runtime's outbound fetch (proxy-aware on Node) when one is provided, else jose's default
    return Effect.map(Effect.serviceOption(FetchHttpClient.Fetch), (fetch) =>
      requiringKid(createRemoteJWKSet(url, {
        timeoutDuration: 5_000,
        cooldownDuration: 30_000,
        cacheMaxAge: 10 * 60_000,
        ...Option.match(fetch, { onNone: () => ({}), onSome: (implementation) => ({ [customFetch]: implementation }) })
      })))
  }
  if (Option.isNone(config.publicKeys)) {
    return Effect.fail(
      new ServiceJwtConfigError({ reason: "the enclave needs SERVICE_JWT_JWKS_URL or SERVICE_JWT_PUBLIC_KEYS" })
    )
  }
  const text = config.publicKeys.value.trim()
  if (text.startsWith("-----BEGIN PUBLIC KEY-----")) {
    // checked once at start-up: a key that imports under no allowed algorithm is a configuration error
    return Effect.tryPromise({
      try: () =>
        Promise.any(config.algorithms.map((alg) => importSPKI(text, alg, { extractable: true }).then(exportJWK))),
      catch: () =>
        new ServiceJwtConfigError({ reason: "SERVICE_JWT_PUBLIC_KEYS is not a public key for SERVICE_JWT_ALGORITHMS" })
    }).pipe(Effect.as(pemKey(text, config.algorithms)))
  }
  return Effect.try({
    try: () => requiringKid(createLocalJWKSet(JSON.parse(text) as JSONWebKeySet)),
    catch: () =>
      new ServiceJwtConfigError({ reason: "SERVICE_JWT_PUBLIC_KEYS must be a JWKS document or a PEM public key" })
  })
}

const entitlementsOf = (claim: unknown): ReadonlyArray<string> =>
  Array.isArray(claim) ? claim.filter((value): value is string => typeof value === "string") : []

const workspaceOf = (claim: unknown): { readonly workspace?: string } =>
  typeof claim === "string" && claim.length > 0 && claim.length <= 200 ? { workspace: claim } : {}

/**
 * The enclave's bearer resolver: a compact JWS verified with `jose` against the configured keys,
 * with the algorithm allow-list, issuer, audience, expiry and not-before checked. Any failure
 * (bad signature, unknown `kid`, expired, key set unreachable) resolves to nothing; the reason is
 * logged at debug level by its jose error code, never with the token.
 */
export const makeResolver = (config: ServiceJwtConfig): Effect.Effect<BearerResolver, ServiceJwtConfigError> =>
  Effect.gen(function*() {
    if (Option.isNone(config.issuer)) {
      return yield* new ServiceJwtConfigError({ reason: "the enclave needs SERVICE_JWT_ISSUER" })
    }
    const issuer = config.issuer.value
    const keys = yield* keySetFrom(config)
    const options = {
      issuer,
      audience: config.audience,
      algorithms: [...config.algorithms],
      clockTolerance: clockToleranceSeconds,
      requiredClaims: ["exp", "sub"]
    }
    return {
      accepts: (bearer) => compactJws.test(bearer),
      resolve: (bearer) =>
        Effect.tryPromise(() => jwtVerify(bearer, keys, options)).pipe(
          Effect.map(({ payload }) =>
            Option.some<Principal>({
              _tag: "Service",
              subject: payload.sub!,
              entitlements: entitlementsOf(payload[EntitlementsClaim]),
              ...workspaceOf(payload[WorkspaceClaim])
            })
          ),
          Effect.catchAll((failure) => {
            const code = (failure.error as { code?: string } | undefined)?.code ?? "ERR_UNKNOWN"

            return Effect.as(Effect.logDebug("service JWT rejected", { reason: code }), Option.none())
          })
        )
    }
  })
