import { Clock, Effect, Either } from "effect"
import type { ClientSource, Grant, OAuthClient, OAuthDocument } from "../../domain/Accounts.ts"
import type { TokenResponse } from "../../domain/OAuth.ts"
import { type DocumentStore, StoreError } from "../accounts/DocumentStore.ts"
import { parseSecret, pkceMatches, secretMatches } from "../accounts/Secrets.ts"
import type { Clients } from "./Clients.ts"
import { issueTokens, Prefix, prune, revokeGrants } from "./Grants.ts"
import { type OAuthFailure, oauthFailure } from "./OAuthFailure.ts"
import type { SignIns } from "./SignIns.ts"

const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  value === undefined ? {} : { [key]: value } as { [P in K]: V }

/**
 * The two grants of the token endpoint, for an already authenticated client: the authorization
 * code (single use, PKCE S256, same redirect URI and resource) and the rotating refresh token.
 */
export const makeTokenGrants = (context: {
  readonly store: DocumentStore<OAuthDocument>
  readonly clients: Clients
  readonly signIns: SignIns
  readonly unavailable: (error: StoreError) => Effect.Effect<never, OAuthFailure>
}) => {
  const { clients, signIns, store, unavailable } = context

  const exchangeCode = (client: OAuthClient, form: URLSearchParams, userAgent: string | undefined) =>
    Effect.gen(function*() {
      const presented = parseSecret(Prefix.code, form.get("code") ?? "")
      const taken = presented === undefined ? undefined : yield* signIns.takeCode(presented.id, presented.secret).pipe(
        Effect.catchTag("SqlError", () => unavailable(new StoreError({ reason: "cannot read the issued codes" })))
      )
      if (taken === undefined) return yield* oauthFailure("invalid_grant", "the authorization code is not valid")
      const { code } = taken
      // every time here is on the Effect clock, the one SignIns issued the code on
      const now = yield* Clock.currentTimeMillis
      if (taken.reused) {
        // a second use of a code: the first may have been an attacker, so its connection ends too
        const grantIds = new Set([code.grantId])
        yield* store.update((document) => [undefined, revokeGrants(document, grantIds, "code reused", now)])
          .pipe(Effect.catchTag("StoreError", unavailable))
        return yield* oauthFailure("invalid_grant", "the authorization code was already used")
      }
      const request = code.request
      if (code.expiresAt <= now || request.clientId !== client.clientId) {
        return yield* oauthFailure("invalid_grant", "the authorization code is not valid")
      }
      if (form.get("redirect_uri") !== request.redirectUri) {
        return yield* oauthFailure("invalid_grant", "redirect_uri does not match the authorization request")
      }
      const verifier = form.get("code_verifier")
      if (verifier === null || !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) {
        return yield* oauthFailure("invalid_grant", "code_verifier is missing or malformed")
      }
      if (!pkceMatches(verifier, request.codeChallenge)) {
        return yield* oauthFailure("invalid_grant", "code_verifier does not match the code_challenge")
      }
      yield* checkResource(form, request.resource)
      const source: ClientSource = {
        applicationType: client.metadata.application_type,
        redirectUri: request.redirectUri,
        ...optional("clientName", client.metadata.client_name),
        ...optional("softwareId", client.metadata.software_id),
        ...optional("softwareVersion", client.metadata.software_version),
        ...optional("userAgent", userAgent?.slice(0, 200))
      }
      const grant: Grant = {
        id: code.grantId,
        clientId: client.clientId,
        userId: code.userId,
        scopes: request.scopes,
        resource: request.resource,
        source,
        createdAt: now
      }
      const withRefresh = client.metadata.grant_types.includes("refresh_token")
      // the client's row stays locked until the connection is stored: a revocation of the client
      // either came first (no connection) or waits and then ends this connection with the others
      return yield* clients.withTransaction(Effect.gen(function*() {
        if (!(yield* clients.markConnected(client.clientId, now))) {
          return yield* oauthFailure("invalid_client", "client authentication failed", 401)
        }
        return yield* store.update((document) =>
          issueTokens(
            prune({ ...document, grants: { ...document.grants, [grant.id]: grant } }, now),
            grant,
            withRefresh,
            now
          )
        )
      })).pipe(
        Effect.catchTag("SqlError", () => Effect.fail(new StoreError({ reason: "cannot write the OAuth clients" }))),
        Effect.catchTag("StoreError", unavailable)
      )
    })

  const checkResource = (form: URLSearchParams, bound: string) => {
    const requested = form.getAll("resource")
    return requested.length === 0 || (requested.length === 1 && requested[0] === bound)
      ? Effect.void
      : Effect.fail(oauthFailure("invalid_target", `this grant is bound to ${bound}`))
  }

  const refresh = (client: OAuthClient, form: URLSearchParams) =>
    Effect.gen(function*() {
      if (!client.metadata.grant_types.includes("refresh_token")) {
        return yield* oauthFailure("unauthorized_client", "the client did not register the refresh_token grant")
      }
      const presented = parseSecret(Prefix.refresh, form.get("refresh_token") ?? "")
      const invalid = oauthFailure("invalid_grant", "the refresh token is not valid")
      if (presented === undefined) return yield* invalid
      const requestedScopes = (form.get("scope") ?? "").split(" ").filter((scope) => scope !== "")
      type Outcome = readonly [Either.Either<TokenResponse, OAuthFailure>, OAuthDocument]
      const now = yield* Clock.currentTimeMillis
      const outcome = yield* store.update((document): Outcome => {
        const token = Object.hasOwn(document.refreshTokens, presented.id)
          ? document.refreshTokens[presented.id]
          : undefined
        const grant = token === undefined ? undefined : document.grants[token.grantId]
        if (
          token === undefined || grant === undefined || !secretMatches(presented.secret, token.secretHash) ||
          grant.clientId !== client.clientId || grant.revokedAt !== undefined || token.expiresAt <= now
        ) return [Either.left(invalid), document] as const
        if (token.rotatedAt !== undefined) {
          // RFC 9700 §4.14.2: a rotated refresh token came back, so one of its holders is not the client
          const revoked = revokeGrants(document, new Set([grant.id]), "refresh token reused", now)
          return [Either.left(oauthFailure("invalid_grant", "the refresh token was already used")), revoked] as const
        }
        if (!requestedScopes.every((scope) => grant.scopes.includes(scope))) {
          return [
            Either.left(oauthFailure("invalid_scope", "a refresh cannot widen the granted scope")),
            document
          ] as const
        }
        const requestedResources = form.getAll("resource")
        if (requestedResources.some((value) => value !== grant.resource) || requestedResources.length > 1) {
          return [
            Either.left(oauthFailure("invalid_target", `this grant is bound to ${grant.resource}`)),
            document
          ] as const
        }
        const rotated = {
          ...document,
          grants: { ...document.grants, [grant.id]: { ...grant, refreshedAt: now } },
          refreshTokens: { ...document.refreshTokens, [presented.id]: { ...token, rotatedAt: now } }
        }
        const [response, next] = issueTokens(prune(rotated, now), grant, true, now)
        return [Either.right(response), next] as const
      }).pipe(Effect.catchTag("StoreError", unavailable))
      return yield* outcome
    })

  return { exchangeCode, refresh }
}
