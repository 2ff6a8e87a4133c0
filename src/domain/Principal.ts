import { Context, Effect, Option, Schema } from "effect"
import type { StoreUnavailable } from "./Problem.ts"

/**
 * Who is calling, as the Auth service resolved the bearer. Unknown and malformed bearers resolve
 * to `Anonymous`, so callers cannot tell them apart from a missing one.
 */
export const Anonymous = Schema.TaggedStruct("Anonymous", {})

export const ApiKeyPrincipal = Schema.TaggedStruct("ApiKey", {
  keyId: Schema.String,
  status: Schema.Literal("active", "inactive", "billing_issue"),
  plan: Schema.String
})

/** The plan of a signed-in OAuth user: free users see enterprise tools but pay per use; paid users are plan-metered. */
export const Tier = Schema.Literal("free", "paid")
export type Tier = typeof Tier.Type

export const OAuthUser = Schema.TaggedStruct("OAuthUser", {
  userId: Schema.String,
  clientId: Schema.String,
  tier: Tier,
  scopes: Schema.Array(Schema.String)
})

export const ServicePrincipal = Schema.TaggedStruct("Service", {
  subject: Schema.String,
  entitlements: Schema.Array(Schema.String),
  /** The `svc_workspace` claim: whose workspace records the service acts on (default: its subject). */
  workspace: Schema.optional(Schema.String)
})

export const Principal = Schema.Union(Anonymous, ApiKeyPrincipal, OAuthUser, ServicePrincipal)
export type Principal = typeof Principal.Type

export const anonymous: Principal = { _tag: "Anonymous" }

export const isAuthenticated = (principal: Principal): boolean => principal._tag !== "Anonymous"

/**
 * A valid OAuth token, service JWT or API key that is not deactivated: such callers see the
 * enterprise surface (SPEC Authentication rule 3) and are not held to the anonymous rate limit
 * (rule 4).
 */
export const hasUsableCredential = (principal: Principal): boolean =>
  principal._tag === "ApiKey" ? principal.status !== "inactive" : isAuthenticated(principal)

/**
 * The caller of the request in flight, resolved from its `Authorization` header once, by the global
 * middleware, before the access policy runs; the access policy, the rate limit, MCP and OpenAPI
 * disclosure and the document payers all read this one value.
 */
export class CurrentPrincipal extends Context.Tag("app/CurrentPrincipal")<CurrentPrincipal, Principal>() {}

/**
 * Present in a request's context when its bearer could not be checked because the account store is
 * unreachable. `CurrentPrincipal` is then anonymous, so free reads are still served (under the
 * anonymous limits); whatever needs the credential (MCP calls, paid renders) answers with this
 * error (503 store-unavailable) instead of refusing a credential that may well be valid.
 */
export class UnverifiedCredential extends Context.Tag("app/UnverifiedCredential")<
  UnverifiedCredential,
  StoreUnavailable
>() {}

/** Fails with the request's `UnverifiedCredential`, when there is one; succeeds otherwise. */
export const credentialChecked: Effect.Effect<void, StoreUnavailable> = Effect.flatMap(
  Effect.serviceOption(UnverifiedCredential),
  Option.match({ onNone: () => Effect.void, onSome: Effect.fail })
)
