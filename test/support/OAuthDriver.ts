import { HttpLayerRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { SqlClient } from "@effect/sql/SqlClient"
import { Effect, Layer } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Tier } from "../../src/domain/Principal.ts"
import { forRuntime } from "../../src/layers/Main.ts"
import { PublicApp, PublicServices } from "../../src/layers/Public.ts"
import type { StoreLayer } from "../../src/layers/Store.ts"
import { Auth } from "../../src/services/Auth.ts"
import type { AuthorizationRequest } from "../../src/services/oauth/AuthorizationRequest.ts"
import { makeEmbedded } from "../../src/services/UserDirectory.ts"
import { storeOf, testStore } from "./TestStore.ts"

export const newDataDir = () => mkdtemp(join(tmpdir(), "svc-accounts-"))

export interface TestUser {
  readonly email: string
  readonly password: string
  readonly tier: Tier
}

export const freeUser: TestUser = { email: "free@example.com", password: "free-user-password-1", tier: "free" }
export const paidUser: TestUser = { email: "paid@example.com", password: "paid-user-password-1", tier: "paid" }

/** Adds users to a store, as the operator CLI does. */
export const addUsersTo = (store: Layer.Layer<SqlClient, unknown>, users: ReadonlyArray<TestUser>) =>
  Effect.runPromise(
    Effect.gen(function*() {
      const directory = yield* makeEmbedded
      for (const user of users) yield* directory.add(user)
    }).pipe(Effect.provide(store))
  )

/** Adds users to the store of `dataDir` (the test store a server on that DATA_DIR uses). */
export const addUsers = async (dataDir: string, users: ReadonlyArray<TestUser>) =>
  addUsersTo(Layer.succeedContext(await storeOf(dataDir)), users)

/** `GET /probe/principal`: the public deployment's Auth verdict on the request's bearer, for tests. */
const PrincipalProbe = Layer.unwrapEffect(Effect.map(Auth, (auth) =>
  HttpLayerRouter.add(
    "GET",
    "/probe/principal",
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      Effect.flatMap(auth.authenticate(request.headers["authorization"]), (principal) =>
        HttpServerResponse.json(principal)))
  )))

/** The public deployment plus the principal probe over a given store. */
export const publicAppWithProbeOn = (store: StoreLayer) =>
  forRuntime(Layer.mergeAll(PublicApp, PrincipalProbe.pipe(Layer.provide(PublicServices))), "node test", store)

/** The public deployment plus the principal probe, sharing the deployment's own services. */
export const publicAppWithProbe = publicAppWithProbeOn(testStore)

export const pkcePair = () => {
  const verifier = randomBytes(32).toString("base64url")
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") }
}

/** A valid authorization request of a registered-looking client, for tests that drive `SignIns` directly. */
export const authorizationRequest = (): AuthorizationRequest => ({
  clientId: "svc_client_x",
  redirectUri: "https://app.example/cb",
  state: undefined,
  codeChallenge: pkcePair().challenge,
  scopes: ["mcp"],
  resource: "https://ecds.example/mcp"
})

export const registerClient = async (base: string, metadata: Record<string, unknown>) => {
  const response = await fetch(`${base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(metadata)
  })
  return { status: response.status, body: await response.json() as Record<string, any> }
}

export const nativeClient = {
  client_name: "Test MCP client",
  redirect_uris: ["http://127.0.0.1:9/callback"],
  application_type: "native",
  grant_types: ["authorization_code", "refresh_token"],
  token_endpoint_auth_method: "none"
}

/** The hidden handle of the consent form on an authorization page. */
export const handleOf = (html: string) => /name="handle" value="([^"]+)"/.exec(html)?.[1]

/**
 * Acts as the user's browser: opens the authorization URL, signs in on the consent page and
 * decides. Returns the page or redirect the server answered with.
 */
export const consent = async (
  authorizationUrl: string | URL,
  answer: { readonly email: string; readonly password: string; readonly decision?: "allow" | "deny" }
) => {
  const page = await fetch(authorizationUrl, { redirect: "manual" })
  const html = await page.text()
  const handle = handleOf(html)
  if (page.status !== 200 || handle === undefined) return { page, html, location: page.headers.get("location") }
  const decided = await fetch(new URL("/oauth/authorize", authorizationUrl), {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      handle,
      email: answer.email,
      password: answer.password,
      decision: answer.decision ?? "allow"
    })
  })
  return { page: decided, html: await decided.text(), location: decided.headers.get("location") }
}

export const authorizationUrl = (base: string, parameters: Record<string, string>) =>
  `${base}/oauth/authorize?${new URLSearchParams(parameters)}`

export const tokenRequest = async (
  base: string,
  form: Record<string, string>,
  headers: Record<string, string> = {}
) => {
  const response = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form)
  })
  return { status: response.status, headers: response.headers, body: await response.json() as Record<string, any> }
}

export const principalOf = async (base: string, token: string | undefined) => {
  const response = await fetch(`${base}/probe/principal`, {
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` }
  })
  return await response.json() as Record<string, unknown>
}

/** Signs a user in for a fresh client and returns the token response (public client, loopback). */
export const signInFlow = async (base: string, user: TestUser, client: Record<string, unknown> = nativeClient) => {
  const registered = await registerClient(base, client)
  const clientId = registered.body.client_id as string
  const redirectUri = (client.redirect_uris as Array<string>)[0]!
  const { challenge, verifier } = pkcePair()
  const { location } = await consent(
    authorizationUrl(base, {
      response_type: "code",
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "xyz",
      resource: `${base}/mcp`
    }),
    user
  )
  const code = new URL(location!).searchParams.get("code")!
  const tokens = await tokenRequest(base, {
    grant_type: "authorization_code",
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
    client_id: clientId
  })
  return { clientId, tokens: tokens.body, redirectUri }
}
