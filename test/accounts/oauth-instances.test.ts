import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Redacted, Scope } from "effect"
import { migrated } from "../../src/layers/Store.ts"
import * as Postgres from "../../src/services/store/Postgres.ts"
import {
  addUsersTo,
  authorizationUrl,
  freeUser,
  handleOf,
  nativeClient,
  newDataDir,
  pkcePair,
  principalOf,
  publicAppWithProbeOn,
  registerClient,
  tokenRequest
} from "../support/OAuthDriver.ts"
import { databaseConfig, scratchDatabase } from "../support/SqlEngines.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

/** What a load balancer in front of both instances is called: one issuer and one resource for both. */
const publicUrl = "http://127.0.0.1:9"

// Two service instances, each with its own DATA_DIR and connection pool, on one PostgreSQL database:
// every step of the OAuth flow may land on either.
describe("OAuth across two instances on one PostgreSQL", () => {
  const scope = Effect.runSync(Scope.make())
  let databaseUrl: string
  let a: RunningServer
  let b: RunningServer
  const instance = async () => {
    const store = migrated(Postgres.layer(Redacted.make(databaseUrl), databaseConfig(databaseUrl)), "postgresql")
    const built = await Effect.runPromise(Layer.buildWithScope(store, scope))
    return {
      built,
      server: await startServer({
        config: { dataDir: await newDataDir(), publicBaseUrl: publicUrl, authUrl: publicUrl },
        app: publicAppWithProbeOn(Layer.succeedContext(built))
      })
    }
  }
  beforeAll(async () => {
    databaseUrl = (await Effect.runPromise(Scope.extend(scratchDatabase, scope))).url
    const first = await instance()
    a = first.server
    b = (await instance()).server
    await addUsersTo(Layer.succeedContext(first.built), [freeUser])
  }, 180_000)
  afterAll(async () => {
    await a.close()
    await b.close()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })

  /** Opens the consent page on one instance; returns the form handle and what the code exchange needs. */
  const begin = async (on: RunningServer) => {
    const registered = await registerClient(on.url, nativeClient)
    const clientId = registered.body.client_id as string
    const redirectUri = nativeClient.redirect_uris[0]!
    const { challenge, verifier } = pkcePair()
    const page = await fetch(
      authorizationUrl(on.url, {
        response_type: "code",
        client_id: clientId,
        redirect_uri: redirectUri,
        code_challenge: challenge,
        code_challenge_method: "S256",
        state: "xyz",
        resource: `${publicUrl}/mcp`
      })
    )
    expect(page.status).toBe(200)
    return { clientId, redirectUri, verifier, handle: handleOf(await page.text())! }
  }

  const signIn = async (on: RunningServer, handle: string) => {
    const decided = await fetch(`${on.url}/oauth/authorize`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ handle, email: freeUser.email, password: freeUser.password, decision: "allow" })
    })
    expect(decided.status).toBe(303)
    return new URL(decided.headers.get("location")!).searchParams.get("code")
  }

  it("a sign-in begun at A is completed at B, its code redeemed at A, and the token accepted at B", async () => {
    const flow = await begin(a)
    const code = await signIn(b, flow.handle)
    expect(code).toMatch(/^svc_code_/)
    const exchange = {
      grant_type: "authorization_code",
      code: code!,
      redirect_uri: flow.redirectUri,
      code_verifier: flow.verifier,
      client_id: flow.clientId
    }
    const tokens = await tokenRequest(a.url, exchange)
    expect(tokens.status).toBe(200)
    expect(await principalOf(b.url, tokens.body.access_token)).toMatchObject({
      _tag: "OAuthUser",
      clientId: flow.clientId
    })
    // the code is spent everywhere: replayed at B it fails and ends the connection it made
    const replayed = await tokenRequest(b.url, exchange)
    expect(replayed.body).toMatchObject({ error: "invalid_grant" })
    expect(await principalOf(a.url, tokens.body.access_token)).toMatchObject({ _tag: "Anonymous" })
  }, 180_000)

  it("a refresh token rotated at A and replayed at B revokes the whole family", async () => {
    const flow = await begin(b)
    const code = await signIn(a, flow.handle)
    const first = await tokenRequest(b.url, {
      grant_type: "authorization_code",
      code: code!,
      redirect_uri: flow.redirectUri,
      code_verifier: flow.verifier,
      client_id: flow.clientId
    })
    const refresh = { grant_type: "refresh_token", refresh_token: first.body.refresh_token, client_id: flow.clientId }
    const rotated = await tokenRequest(a.url, refresh)
    expect(rotated.status).toBe(200)
    expect(rotated.body.refresh_token).not.toBe(first.body.refresh_token)
    const replay = await tokenRequest(b.url, refresh)
    expect(replay.body).toMatchObject({
      error: "invalid_grant",
      error_description: "the refresh token was already used"
    })
    // the successor tokens die with the family, on both instances
    expect(await principalOf(a.url, rotated.body.access_token)).toMatchObject({ _tag: "Anonymous" })
    const successor = await tokenRequest(b.url, { ...refresh, refresh_token: rotated.body.refresh_token })
    expect(successor.body).toMatchObject({ error: "invalid_grant" })
  }, 180_000)

  it("a restart loses no pending sign-in: the consent page opened before it is completed after it", async () => {
    const flow = await begin(a)
    await a.close()
    a = (await instance()).server
    const code = await signIn(a, flow.handle)
    const tokens = await tokenRequest(b.url, {
      grant_type: "authorization_code",
      code: code!,
      redirect_uri: flow.redirectUri,
      code_verifier: flow.verifier,
      client_id: flow.clientId
    })
    expect(tokens.status).toBe(200)
  }, 180_000)
})
