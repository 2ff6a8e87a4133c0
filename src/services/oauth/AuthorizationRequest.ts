import { Either } from "effect"
import type { OAuthClient } from "../../domain/Accounts.ts"
import { McpScope, type OAuthErrorCode } from "../../domain/OAuth.ts"
import { isLoopbackHttp } from "./Registration.ts"

/** A validated authorization request, waiting for the user to sign in and decide. */
export interface AuthorizationRequest {
  readonly clientId: string
  readonly redirectUri: string
  readonly state: string | undefined
  readonly codeChallenge: string
  readonly scopes: ReadonlyArray<string>
  readonly resource: string
}

/**
 * Why a request is refused. Until the client and its redirect URI are known good, the user is shown
 * the error (RFC 6749 §4.1.2.1: never redirect to an unverified URI); after that the refusal goes
 * back to the client on its redirect URI.
 */
export type AuthorizationRefusal =
  | { readonly _tag: "ShowUser"; readonly description: string }
  | { readonly _tag: "Redirect"; readonly location: string }
  /** The account store cannot be read: nothing is known about the client yet, so nothing is redirected. */
  | { readonly _tag: "Unavailable"; readonly description: string }

const single = [
  "client_id",
  "redirect_uri",
  "response_type",
  "code_challenge",
  "code_challenge_method",
  "state",
  "scope"
]

const challengeShape = /^[A-Za-z0-9_-]{43}$/

/**
 * RFC 8252 §7.3: a native app's loopback redirect may use any port, since the port is chosen when
 * the app starts listening. Everything else must match a registered URI exactly.
 */
export const redirectUriRegistered = (client: OAuthClient, candidate: string): boolean =>
  client.metadata.redirect_uris.some((registered) => {
    if (registered === candidate) return true
    if (client.metadata.application_type !== "native" || !URL.canParse(candidate)) return false
    const a = new URL(registered)
    const b = new URL(candidate)
    if (!isLoopbackHttp(a) || !isLoopbackHttp(b)) return false
    a.port = ""
    b.port = ""
    return a.href === b.href
  })

/** The redirect URI with the response parameters added (RFC 9207 `iss` always among them). */
export const redirectWith = (redirectUri: string, parameters: Record<string, string | undefined>): string => {
  const url = new URL(redirectUri)
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined) url.searchParams.set(name, value)
  return url.href
}

export const validateAuthorizationRequest = (
  query: URLSearchParams,
  context: {
    readonly issuer: string
    readonly resource: string
    readonly findClient: (clientId: string) => OAuthClient | undefined
  }
): Either.Either<AuthorizationRequest, AuthorizationRefusal> => {
  const clientId = query.get("client_id")
  const client = clientId === null ? undefined : context.findClient(clientId)
  if (clientId === null || client === undefined || client.revokedAt !== undefined) {
    return Either.left({ _tag: "ShowUser", description: "The application is not registered with this service." })
  }
  const registered = client.metadata.redirect_uris
  const redirectUri = query.get("redirect_uri") ?? (registered.length === 1 ? registered[0] : undefined)
  if (
    redirectUri === undefined || query.getAll("redirect_uri").length > 1 || !redirectUriRegistered(client, redirectUri)
  ) {
    return Either.left({
      _tag: "ShowUser",
      description: "The application asked to return to an address it did not register."
    })
  }
  const state = query.get("state") ?? undefined
  const refuse = (error: OAuthErrorCode, description: string) =>
    Either.left<AuthorizationRefusal>({
      _tag: "Redirect",
      location: redirectWith(redirectUri, { error, error_description: description, state, iss: context.issuer })
    })
  const repeated = single.find((name) => query.getAll(name).length > 1)
  if (repeated !== undefined) return refuse("invalid_request", `${repeated} is repeated`)
  if (query.get("response_type") !== "code") {
    return refuse("unsupported_response_type", "only response_type=code is supported")
  }
  if (!client.metadata.grant_types.includes("authorization_code")) {
    return refuse("unauthorized_client", "the client did not register the authorization_code grant")
  }
  const codeChallenge = query.get("code_challenge")
  if (codeChallenge === null) return refuse("invalid_request", "code_challenge is required (PKCE)")
  if (query.get("code_challenge_method") !== "S256") {
    return refuse("invalid_request", "code_challenge_method must be S256")
  }
  if (!challengeShape.test(codeChallenge)) return refuse("invalid_request", "code_challenge is not an S256 challenge")
  if (state !== undefined && state.length > 1024) {
    return refuse("invalid_request", "state is longer than 1024 characters")
  }
  const resources = query.getAll("resource")
  if (resources.length > 1) return refuse("invalid_target", "one resource per request")
  const resource = resources[0] ?? context.resource
  if (resource !== context.resource) {
    return refuse("invalid_target", `tokens are issued only for ${context.resource}`)
  }
  // RFC 6749 §3.3 lets the server grant other scopes than requested (the token response says which):
  // the one scope is `mcp`, granted whatever a client guessed, so clients naming other scopes still work
  return Either.right({ clientId, redirectUri, state, codeChallenge, scopes: [McpScope], resource })
}
