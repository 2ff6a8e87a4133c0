import { afterAll, beforeAll, describe, expect, it, vi } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { Principal } from "../../src/domain/Principal.ts"
import { Auth, type BearerResolver, fromResolvers, layerFixed } from "../../src/services/Auth.ts"
import {
  addUsers,
  authorizationUrl,
  consent,
  freeUser,
  nativeClient,
  newDataDir,
  pkcePair,
  publicAppWithProbe,
  registerClient,
  signInFlow,
  tokenRequest
} from "../support/OAuthDriver.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

const key: Principal = { _tag: "ApiKey", keyId: "k1", status: "active", plan: "pro" }
const user: Principal = { _tag: "OAuthUser", userId: "u1", clientId: "c1", tier: "free", scopes: ["mcp"] }

const resolver = (prefix: string, table: Record<string, Principal>, calls: Array<string>): BearerResolver => ({
  accepts: (bearer) => bearer.startsWith(prefix),
  resolve: (bearer) =>
    Effect.sync(() => {
      calls.push(prefix)
      return Object.hasOwn(table, bearer) ? Option.some(table[bearer]!) : Option.none()
    })
})

describe("Auth as a chain of bearer resolvers", () => {
  const calls: Array<string> = []
  const auth = fromResolvers([
    resolver("svc_live_", { svc_live_good: key }, calls),
    resolver("svc_oauth_", { svc_oauth_good: user }, calls)
  ])

  it.effect("resolves each credential kind through the resolver that accepts its shape only", () =>
    Effect.gen(function*() {
      calls.length = 0
      expect(yield* auth.authenticate("Bearer svc_live_good")).toEqual(key)
      expect(yield* auth.authenticate("bearer   svc_oauth_good")).toEqual(user)
      expect(calls).toEqual(["svc_live_", "svc_oauth_"])
    }))

  it.effect("makes missing, malformed, unknown and foreign bearers all anonymous", () =>
    Effect.gen(function*() {
      calls.length = 0
      for (
        const header of [undefined, "", "Basic abc", "Bearer", "Bearer a b", "Bearer svc_live_bad", "Bearer other"]
      ) {
        expect(yield* auth.authenticate(header)).toEqual({ _tag: "Anonymous" })
      }
      expect(calls).toEqual(["svc_live_"])
    }))

  it.effect("falls through to the next accepting resolver when one does not know the bearer", () =>
    Effect.gen(function*() {
      const chained = fromResolvers([
        resolver("svc_", {}, calls),
        resolver("svc_oauth_", { svc_oauth_good: user }, calls)
      ])
      expect(yield* chained.authenticate("Bearer svc_oauth_good")).toEqual(user)
    }))

  it.effect("keeps layerFixed for tests", () =>
    Effect.gen(function*() {
      const fixed = yield* Effect.provide(Auth, layerFixed({ token: key }))
      expect(yield* fixed.authenticate("Bearer token")).toEqual(key)
      expect(yield* fixed.authenticate("Bearer other")).toEqual({ _tag: "Anonymous" })
    }))
})

describe("OAuth logs", () => {
  let server: RunningServer
  const lines: Array<string> = []
  beforeAll(async () => {
    const dataDir = await newDataDir()
    await addUsers(dataDir, [freeUser])
    vi.spyOn(console, "log").mockImplementation((text: unknown) => {
      lines.push(...String(text).split("\n"))
    })
    server = await startServer({ config: { dataDir, logLevel: "all" }, app: publicAppWithProbe })
  })
  afterAll(async () => {
    await server.close()
    vi.restoreAllMocks()
  })

  it("never contain a token, code, client secret, verifier or password", async () => {
    const secrets: Array<string> = [freeUser.password, "wrong-password-123"]
    const { clientId, tokens } = await signInFlow(server.url, freeUser)
    secrets.push(tokens.access_token, tokens.refresh_token)
    const refreshed = await tokenRequest(server.url, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: clientId
    })
    secrets.push(refreshed.body.access_token, refreshed.body.refresh_token)
    await tokenRequest(server.url, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: clientId
    })

    const confidential = await registerClient(server.url, {
      ...nativeClient,
      token_endpoint_auth_method: "client_secret_post"
    })
    secrets.push(confidential.body.client_secret)
    const pkce = pkcePair()
    secrets.push(pkce.verifier)
    const signInUrl = authorizationUrl(server.url, {
      response_type: "code",
      client_id: confidential.body.client_id,
      redirect_uri: nativeClient.redirect_uris[0]!,
      code_challenge: pkce.challenge,
      code_challenge_method: "S256"
    })
    const { location } = await consent(signInUrl, freeUser)
    const code = new URL(location!).searchParams.get("code")!
    secrets.push(code)
    await tokenRequest(server.url, {
      grant_type: "authorization_code",
      code,
      redirect_uri: nativeClient.redirect_uris[0]!,
      code_verifier: pkce.verifier,
      client_id: confidential.body.client_id,
      client_secret: "not-the-secret"
    })
    await consent(signInUrl, { email: freeUser.email, password: "wrong-password-123" })
    await new Promise((resolve) => setTimeout(resolve, 50))

    const everything = lines.join("\n")
    expect(everything).toContain("\"route\":\"/oauth/token\"")
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(10)
      expect(everything).not.toContain(secret)
      expect(everything).not.toContain(secret.slice(-30))
    }
  })
})
