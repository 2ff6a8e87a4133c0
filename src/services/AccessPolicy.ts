import type { OpenApi } from "@effect/platform"
import { Context, Effect, Layer, Option } from "effect"
import { NotEntitled, Unauthenticated } from "../domain/Access.ts"
import type { Principal } from "../domain/Principal.ts"
import { AppConfig } from "./AppConfig.ts"
import { Entitlement, EntitlementsClaim } from "./ServiceJwt.ts"

export interface AccessDenied {
  readonly error: Unauthenticated | NotEntitled
  readonly headers: Record<string, string>
}

/**
 * Who may reach a path at all, decided before rate limits, caches and routes. Deployments differ
 * only in the layer: the public deployment is open (per-endpoint rules such as the 402 of `/pdf/*`
 * and the 401 of `/mcp` live with those endpoints), the enclave demands a service JWT.
 */
export interface AccessPolicyShape {
  /** A denial for a caller who may not reach this path, or `undefined`; decided without I/O. */
  readonly check: (
    /** The path as the router matches it (lower-cased, decoded: see `routedPath`). */
    routedPath: string,
    /** The request's principal (see `CurrentPrincipal`). */
    principal: Principal,
    /** Whether the request carried an `Authorization` header at all (it shapes the 401 message). */
    presented: boolean
  ) => AccessDenied | undefined
  /** Fields the service index adds to describe access (`host`, `auth`). */
  readonly indexFields: { readonly host?: string; readonly auth?: string }
  /** The bearer credentials this deployment accepts, as MCP discovery and RFC 9728 metadata advertise them. */
  readonly bearers: BearerCredentials
  /** Declares in an OpenAPI document the security this policy demands of the paths it guards. */
  readonly describeSecurity: (document: OpenApi.OpenAPISpec) => OpenApi.OpenAPISpec
}

export interface BearerCredentials {
  readonly formats: ReadonlyArray<string>
  /** Issuers of those credentials (RFC 8414 issuer identifiers); empty when none is configured. */
  readonly authorizationServers: ReadonlyArray<string>
  /** How a caller obtains and sends one, as a clause for discovery's notes ("send a service JWT …"). */
  readonly howToAuthenticate: string
}

export class AccessPolicy extends Context.Tag("app/AccessPolicy")<AccessPolicy, AccessPolicyShape>() {}

/** The public deployment: no path is guarded here; API keys and OAuth tokens from `AUTH_URL`. */
export const layerOpen: Layer.Layer<AccessPolicy, never, AppConfig> = Layer.effect(
  AccessPolicy,
  Effect.map(AppConfig, (config) => ({
    check: () => undefined,
    indexFields: {},
    describeSecurity: (document) => document,
    bearers: {
      formats: ["svc_oauth_… (OAuth 2.1 access token)", "svc_live_… (API key)"],
      authorizationServers: [config.authUrl],
      howToAuthenticate: "sign in with OAuth or send an API key as a bearer token"
    }
  }))
)

interface Rule {
  readonly matches: (path: string) => boolean
  /** The entitlement a service must hold beyond a valid token. */
  readonly entitlement?: string
}

const under = (prefix: string) => (path: string) =>
  path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}.`)

const enclaveRules: ReadonlyArray<Rule> = [
  { matches: under("/mcp"), entitlement: Entitlement.mcp },
  { matches: under("/pdf"), entitlement: Entitlement.pdf },
  { matches: under("/api") },
  { matches: under("/skills") }
]

const ServiceJwtScheme = "serviceJwt"

const httpMethods = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"])

/**
 * Every operation under a guarded path needs the service JWT (and nothing else: API keys are not
 * accepted here), declared as an HTTP bearer scheme with the entitlements it must carry.
 */
const describeEnclaveSecurity = (audience: string) => (document: OpenApi.OpenAPISpec): OpenApi.OpenAPISpec => {
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => {
      const routed = path.toLowerCase()
      const rule = enclaveRules.find((candidate) => candidate.matches(routed))
      if (rule === undefined) return [path, item]
      const operations = Object.entries(item).map(([method, operation]) =>
        httpMethods.has(method) && typeof operation === "object" && operation !== null
          ? [method, { ...operation, security: [{ [ServiceJwtScheme]: [] }] }]
          : [method, operation]
      )
      return [path, Object.fromEntries(operations)]
    })
  )
  return {
    ...document,
    paths,
    components: {
      ...document.components,
      securitySchemes: {
        [ServiceJwtScheme]: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: `A service JWT for the audience ${audience}; /mcp needs the \`${Entitlement.mcp}\` and ` +
            `/pdf/* the \`${Entitlement.pdf}\` entitlement in the \`${EntitlementsClaim}\` claim.`
        }
      }
    }
  }
}

const describeEnclave = (issuer: string, audience: string) =>
  "Service JWT required: send `Authorization: Bearer <SERVICE_JWT>` on /mcp, /api/*, /skills* and /pdf/*. " +
  `Tokens are signed by ${issuer} for the audience ${audience}, carry sub and exp, and list entitlements in the ` +
  `\`${EntitlementsClaim}\` claim: \`${Entitlement.mcp}\` for /mcp, \`${Entitlement.pdf}\` for /pdf/*.`

/**
 * The enclave deployment: every guarded path needs a verified service principal (401 otherwise),
 * and `/mcp` and `/pdf/*` the matching entitlement (403 otherwise).
 */
export const layerServiceJwt: Layer.Layer<AccessPolicy, never, AppConfig> = Layer.effect(
  AccessPolicy,
  Effect.gen(function*() {
    const config = yield* AppConfig
    const host = new URL(config.publicBaseUrl).host
    const realm = `Bearer realm="${host}"`
    const decide = (rule: Rule, presented: boolean) => (principal: Principal): AccessDenied | undefined => {
      if (principal._tag !== "Service") {
        return {
          error: new Unauthenticated({
            detail: presented
              ? "The bearer token is not a valid service JWT for this deployment."
              : "Send a service JWT: Authorization: Bearer <SERVICE_JWT>."
          }),
          headers: { "www-authenticate": presented ? `${realm}, error="invalid_token"` : realm }
        }
      }
      if (rule.entitlement !== undefined && !principal.entitlements.includes(rule.entitlement)) {
        return {
          error: new NotEntitled({
            detail: `This path needs the \`${rule.entitlement}\` entitlement in the ${EntitlementsClaim} claim.`,
            entitlement: rule.entitlement
          }),
          headers: { "www-authenticate": `${realm}, error="insufficient_scope"` }
        }
      }
      return undefined
    }
    return {
      check: (path, principal, presented) => {
        const rule = enclaveRules.find((candidate) => candidate.matches(path))
        return rule === undefined ? undefined : decide(rule, presented)(principal)
      },
      describeSecurity: describeEnclaveSecurity(config.serviceJwt.audience),
      indexFields: {
        host,
        auth: describeEnclave(
          Option.getOrElse(config.serviceJwt.issuer, () => "the configured issuer"),
          config.serviceJwt.audience
        )
      },
      bearers: {
        formats: [`service JWT (audience ${config.serviceJwt.audience}, \`${Entitlement.mcp}\` entitlement for /mcp)`],
        authorizationServers: Option.toArray(config.serviceJwt.issuer),
        howToAuthenticate: `send a service JWT carrying the \`${Entitlement.mcp}\` entitlement as a bearer token ` +
          "(OAuth and API keys are not accepted on this deployment)"
      }
    }
  })
)
