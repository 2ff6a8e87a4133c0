import type { SqlClient } from "@effect/sql/SqlClient"
import { Clock, Context, Effect, Layer, Option, Schedule } from "effect"
import { type Grant, type OAuthClient, OAuthDocument } from "../domain/Accounts.ts"
import {
  type AuthorizationServerMetadata,
  type ClientRegistrationResponse,
  McpScope,
  OAuthPaths,
  type TokenResponse
} from "../domain/OAuth.ts"
import type { Principal } from "../domain/Principal.ts"
import { StoreUnavailable } from "../domain/Problem.ts"
import { StoreError } from "./accounts/DocumentStore.ts"
import { parseSecret, randomId, secretMatches, sha256 } from "./accounts/Secrets.ts"
import * as SqlDocument from "./accounts/SqlDocument.ts"
import { AppConfig } from "./AppConfig.ts"
import type { BearerResolver } from "./Auth.ts"
import { type AuthorizationRefusal, redirectWith, validateAuthorizationRequest } from "./oauth/AuthorizationRequest.ts"
import { authenticateClient, presentedClientId } from "./oauth/ClientAuthentication.ts"
import * as Clients from "./oauth/Clients.ts"
import { emptyDocument, Prefix, revokeGrants } from "./oauth/Grants.ts"
import { type OAuthFailure, oauthFailure } from "./oauth/OAuthFailure.ts"
import { validateRegistration } from "./oauth/Registration.ts"
import { makeSignIns, type SignInForm, type SignInOutcome } from "./oauth/SignIns.ts"
import { makeSignInThrottle } from "./oauth/SignInThrottle.ts"
import { makeTokenGrants } from "./oauth/TokenGrants.ts"
import { UserDirectory } from "./UserDirectory.ts"

/** What the consent page shows: who asks, for what, and where the browser goes next. */
export interface ConsentRequest {
  readonly handle: string
  readonly clientName: string
  readonly clientUri: string | undefined
  readonly redirectOrigin: string
  readonly scopes: ReadonlyArray<string>
  readonly resource: string
}

export interface ClientSummary {
  readonly client: OAuthClient
  readonly grants: ReadonlyArray<Grant>
}

export interface OAuthServerShape {
  readonly metadata: AuthorizationServerMetadata
  readonly register: (body: unknown) => Effect.Effect<ClientRegistrationResponse, OAuthFailure>
  readonly beginAuthorization: (query: URLSearchParams) => Effect.Effect<ConsentRequest, AuthorizationRefusal>
  readonly completeAuthorization: (form: SignInForm) => Effect.Effect<SignInOutcome<ConsentRequest>, StoreUnavailable>
  readonly token: (
    form: URLSearchParams,
    request: { readonly authorization: string | undefined; readonly userAgent: string | undefined }
  ) => Effect.Effect<TokenResponse, OAuthFailure>
  readonly revoke: (form: URLSearchParams, authorization: string | undefined) => Effect.Effect<void, OAuthFailure>
  /**
   * The principal of a `svc_oauth_` access token, or `None` for anything not live and bound to our
   * resource; `StoreUnavailable` when the token cannot be checked.
   */
  readonly resolveAccessToken: (bearer: string) => Effect.Effect<Option.Option<Principal>, StoreUnavailable>
  readonly listClients: Effect.Effect<ReadonlyArray<ClientSummary>>
  /** Revokes a client and every connection it holds; false when no such client exists. */
  readonly revokeClient: (clientId: string) => Effect.Effect<boolean, StoreError>
  /**
   * Deletes clients registered `OAUTH_UNUSED_CLIENT_HOURS` ago or earlier that never completed an
   * authorization (no connection, none in progress), and forgets sign-in counts past their window.
   * One DELETE with every condition in it, so it is safe on every instance at once.
   */
  readonly sweep: Effect.Effect<{ readonly clients: number; readonly signInSubjects: number }, StoreError>
}

export class OAuthServer extends Context.Tag("app/OAuthServer")<OAuthServer, OAuthServerShape>() {}

/** A store failure as the client sees it (503), with the reason (a path, never a secret) in the log. */
const unavailable = (error: StoreError) =>
  Effect.zipRight(
    Effect.logError("account store unavailable", { reason: error.reason }),
    Effect.fail(oauthFailure("temporarily_unavailable", "the account store is unavailable; retry shortly", 503))
  )

const storeUnavailable = new StoreUnavailable({
  detail: "The account store cannot be reached; retry in a few seconds."
})

/** A store failure where the answer is not an OAuth error body: logged with its reason, typed as 503. */
const storeDown = (error: { readonly reason: string } | { readonly _tag: "SqlError" }) =>
  Effect.zipRight(
    Effect.logError("account store unavailable", "reason" in error ? { reason: error.reason } : {}),
    Effect.fail(storeUnavailable)
  )

export const make = Effect.gen(function*() {
  const config = yield* AppConfig
  const users = yield* UserDirectory
  const store = yield* SqlDocument.make({
    name: SqlDocument.DocumentNames.oauth,
    schema: OAuthDocument,
    empty: emptyDocument
  })
  const issuer = config.authUrl
  const resource = `${config.publicBaseUrl}/mcp`
  const limits = config.oauthLimits
  const maxClients = limits.maxClients
  const unusedClientMillis = limits.unusedClientHours * 60 * 60 * 1000
  const throttle = yield* makeSignInThrottle({
    account: {
      freeAttempts: limits.signInFreeAttempts,
      firstDelayMillis: limits.signInFirstDelaySeconds * 1000,
      maxDelayMillis: limits.signInMaxDelaySeconds * 1000
    },
    address: {
      freeAttempts: limits.signInAddressFreeAttempts,
      firstDelayMillis: limits.signInFirstDelaySeconds * 1000,
      maxDelayMillis: limits.signInMaxDelaySeconds * 1000
    },
    windowMillis: limits.signInWindowSeconds * 1000
  })
  const signIns = yield* makeSignIns(users, throttle)
  const clients = yield* Clients.make
  const grants = makeTokenGrants({ store, clients, signIns, unavailable })
  const metadata: AuthorizationServerMetadata = {
    issuer,
    authorization_endpoint: `${issuer}${OAuthPaths.authorize}`,
    token_endpoint: `${issuer}${OAuthPaths.token}`,
    registration_endpoint: `${issuer}${OAuthPaths.register}`,
    revocation_endpoint: `${issuer}${OAuthPaths.revoke}`,
    scopes_supported: [McpScope],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
    revocation_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${config.publicBaseUrl}/docs`
  }

  /** The one client a request names, by primary key, as the synchronous finder the checks take. */
  const clientNamed = (clientId: string | undefined) =>
    Effect.map(
      clientId === undefined ? Effect.succeedNone : clients.find(clientId),
      (found) => (id: string) => Option.isSome(found) && found.value.clientId === id ? found.value : undefined
    )

  const unusedAt = (now: number): Clients.UnusedClients => ({ registeredBefore: now - unusedClientMillis, now })

  const consentFor = (
    client: OAuthClient,
    handle: string,
    request: { redirectUri: string; scopes: ReadonlyArray<string> }
  ) => ({
    handle,
    clientName: client.metadata.client_name ?? "An unnamed application",
    clientUri: client.metadata.client_uri,
    redirectOrigin: new URL(request.redirectUri).origin,
    scopes: request.scopes,
    resource
  })

  const register: OAuthServerShape["register"] = (body) =>
    Effect.gen(function*() {
      const metadata = yield* validateRegistration(body)
      const clientId = `svc_client_${randomId(16)}`
      const secret = metadata.token_endpoint_auth_method === "none" ? undefined : randomId(32)
      // the clock of the sweep's cutoff and of the sign-ins in flight that keep a client (see `unusedAt`)
      const now = yield* Clock.currentTimeMillis
      const client: OAuthClient = {
        clientId,
        issuedAt: now,
        metadata,
        ...(secret === undefined ? {} : { secretHash: sha256(secret) })
      }
      // when full, registrations that never led to a connection make room
      yield* clients.register(client, maxClients, unusedAt(now)).pipe(
        Effect.catchTag("StoreError", unavailable),
        Effect.filterOrFail((stored) => stored, () =>
          oauthFailure("temporarily_unavailable", "registration is full; retry later", 503))
      )
      return {
        client_id: clientId,
        client_id_issued_at: Math.floor(now / 1000),
        ...(secret === undefined ? {} : { client_secret: secret, client_secret_expires_at: 0 }),
        ...metadata
      }
    })

  const beginAuthorization: OAuthServerShape["beginAuthorization"] = (query) =>
    Effect.gen(function*() {
      const findClient = yield* clientNamed(query.get("client_id") ?? undefined).pipe(
        Effect.catchTag("StoreError", (error) =>
          Effect.zipRight(
            Effect.logError("account store unavailable", { reason: error.reason }),
            Effect.fail<AuthorizationRefusal>({
              _tag: "Unavailable",
              description: "The sign-in service cannot reach its account store. Try again in a few seconds."
            })
          ))
      )
      const request = yield* validateAuthorizationRequest(query, { issuer, resource, findClient })
      const handle = yield* signIns.open(request).pipe(
        Effect.mapError((): AuthorizationRefusal => ({
          _tag: "Redirect",
          location: redirectWith(request.redirectUri, {
            error: "temporarily_unavailable",
            error_description: "too many sign-ins in progress; retry shortly",
            state: request.state,
            iss: issuer
          })
        }))
      )
      return consentFor(findClient(request.clientId)!, handle, request)
    })

  const completeAuthorization: OAuthServerShape["completeAuthorization"] = (form) =>
    signIns.decide(form, {
      issuer,
      consent: (handle, request) =>
        Effect.map(
          clients.find(request.clientId),
          Option.match({ onNone: () => undefined, onSome: (client) => consentFor(client, handle, request) })
        )
    }).pipe(Effect.catchTags({ StoreError: storeDown, SqlError: storeDown }))

  const token: OAuthServerShape["token"] = (form, request) =>
    Effect.gen(function*() {
      const findClient = yield* Effect.catchTag(
        clientNamed(presentedClientId(form, request.authorization)),
        "StoreError",
        unavailable
      )
      const client = yield* authenticateClient(form, request.authorization, findClient)
      const grantType = form.get("grant_type")
      if (grantType === "authorization_code") return yield* grants.exchangeCode(client, form, request.userAgent)
      if (grantType === "refresh_token") return yield* grants.refresh(client, form)
      return yield* oauthFailure(
        grantType === null ? "invalid_request" : "unsupported_grant_type",
        "grant_type must be authorization_code or refresh_token"
      )
    })

  const revoke: OAuthServerShape["revoke"] = (form, authorization) =>
    Effect.gen(function*() {
      const findClient = yield* Effect.catchTag(
        clientNamed(presentedClientId(form, authorization)),
        "StoreError",
        unavailable
      )
      const client = yield* authenticateClient(form, authorization, findClient)
      const value = form.get("token")
      if (value === null) return yield* oauthFailure("invalid_request", "token is required")
      const presented = parseSecret(Prefix.access, value) ?? parseSecret(Prefix.refresh, value)
      if (presented === undefined) return
      const isRefresh = value.startsWith(Prefix.refresh)
      const now = yield* Clock.currentTimeMillis
      // RFC 7009 §2.2: unknown, expired or foreign tokens are not an error; the answer is the same 200
      yield* store.update((latest) => {
        const table = isRefresh ? latest.refreshTokens : latest.accessTokens
        const stored = Object.hasOwn(table, presented.id) ? table[presented.id] : undefined
        const grant = stored === undefined ? undefined : latest.grants[stored.grantId]
        if (
          stored === undefined || grant === undefined || grant.clientId !== client.clientId ||
          !secretMatches(presented.secret, stored.secretHash)
        ) return [undefined, latest] as const
        if (isRefresh) {
          return [undefined, revokeGrants(latest, new Set([grant.id]), "revoked by the client", now)]
        }
        const { [presented.id]: _revoked, ...accessTokens } = latest.accessTokens
        return [undefined, { ...latest, accessTokens }] as const
      }).pipe(Effect.catchTag("StoreError", unavailable))
    })

  const resolveAccessToken: OAuthServerShape["resolveAccessToken"] = (bearer) => {
    const presented = parseSecret(Prefix.access, bearer)
    if (presented === undefined) return Effect.succeedNone
    const read = Effect.all([Effect.catchTag(store.current, "StoreError", storeDown), Clock.currentTimeMillis])
    return Effect.flatMap(read, ([document, now]) => {
      const stored = Object.hasOwn(document.accessTokens, presented.id)
        ? document.accessTokens[presented.id]
        : undefined
      if (stored === undefined || !secretMatches(presented.secret, stored.secretHash) || stored.expiresAt <= now) {
        return Effect.succeedNone
      }
      // no look-up of the client: revoking a client revokes its connections in the same transaction
      const grant = document.grants[stored.grantId]
      if (grant === undefined || grant.revokedAt !== undefined || grant.resource !== resource) {
        return Effect.succeedNone
      }
      return Effect.map(
        users.find(grant.userId),
        Option.map((account): Principal => ({
          _tag: "OAuthUser",
          userId: account.id,
          clientId: grant.clientId,
          tier: account.tier,
          scopes: grant.scopes
        }))
      )
    })
  }

  const listClients = Effect.map(
    Effect.orDie(Effect.all([clients.list, store.current])),
    ([registered, document]) =>
      registered.map((client) => ({
        client,
        grants: Object.values(document.grants).filter((grant) => grant.clientId === client.clientId)
      }))
  )

  // the client's row and its connections change in one transaction (see resolveAccessToken)
  const revokeClient = (clientId: string) =>
    clients.withTransaction(Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      if (!(yield* clients.markRevoked(clientId, now))) return false
      yield* store.update((document) => {
        const grantIds = new Set(
          Object.values(document.grants).filter((grant) => grant.clientId === clientId).map((grant) => grant.id)
        )
        return [undefined, revokeGrants(document, grantIds, "client revoked by the operator", now)] as const
      })
      return true
    })).pipe(
      Effect.catchTag("SqlError", () => Effect.fail(new StoreError({ reason: "cannot revoke the OAuth client" })))
    )

  const sweep: OAuthServerShape["sweep"] = Effect.gen(function*() {
    const unreadable = (what: string) => () => new StoreError({ reason: `cannot read ${what}` })
    const swept = yield* clients.sweep(unusedAt(yield* Clock.currentTimeMillis))
    const signInSubjects = yield* Effect.mapError(throttle.sweep, unreadable("the sign-in throttle"))
    return { clients: swept, signInSubjects }
  })

  return {
    metadata,
    register,
    beginAuthorization,
    completeAuthorization,
    token,
    revoke,
    resolveAccessToken,
    listClients,
    revokeClient,
    sweep
  } satisfies OAuthServerShape
})

/** How often each instance sweeps unused clients and old sign-in counts. */
const sweepEvery = "1 hour"

export const layer: Layer.Layer<OAuthServer, never, AppConfig | UserDirectory | SqlClient> = Layer.scoped(
  OAuthServer,
  Effect.tap(make, (server) =>
    server.sweep.pipe(
      Effect.tap(({ clients }) =>
        clients === 0 ? Effect.void : Effect.logInfo("deleted unused OAuth clients", { clients })
      ),
      Effect.catchAll((error) => Effect.logWarning("OAuth sweep failed", { reason: error.reason })),
      Effect.repeat(Schedule.spaced(sweepEvery)),
      Effect.forkScoped
    ))
)

/** The OAuth part of the public deployment's Auth chain: `svc_oauth_` access tokens. */
export const bearerResolver = (server: OAuthServerShape): BearerResolver => ({
  accepts: (bearer) => bearer.startsWith(Prefix.access),
  resolve: server.resolveAccessToken
})
