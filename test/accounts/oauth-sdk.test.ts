import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import {
  discoverAuthorizationServerMetadata,
  exchangeAuthorization,
  refreshAuthorization,
  registerClient,
  startAuthorization
} from "@modelcontextprotocol/sdk/client/auth.js"
import { InvalidGrantError } from "@modelcontextprotocol/sdk/server/auth/errors.js"
import { addUsers, consent, newDataDir, paidUser, principalOf, publicAppWithProbe } from "../support/OAuthDriver.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

// The official MCP SDK's OAuth client helpers against our authorization server, step by step.
describe("authorization server with the MCP SDK client helpers", () => {
  let server: RunningServer
  beforeAll(async () => {
    const dataDir = await newDataDir()
    await addUsers(dataDir, [paidUser])
    server = await startServer({ config: { dataDir }, app: publicAppWithProbe })
  })
  afterAll(() => server.close())

  it("discovers, registers, authorizes, exchanges and refreshes", async () => {
    const issuer = server.url
    const resource = new URL(`${issuer}/mcp`)
    const redirectUrl = "http://127.0.0.1:9/callback"
    const discovered = await discoverAuthorizationServerMetadata(issuer)
    expect(discovered?.issuer).toBe(issuer)
    const metadata = discovered!

    const clientMetadata = {
      client_name: "sdk e2e",
      redirect_uris: [redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      application_type: "native"
    }
    const client = await registerClient(issuer, { metadata, clientMetadata })
    expect(client.client_id).toMatch(/^svc_client_/)
    expect(client.client_secret).toBeUndefined()

    const { authorizationUrl, codeVerifier } = await startAuthorization(issuer, {
      metadata,
      clientInformation: client,
      redirectUrl,
      scope: "mcp",
      state: "sdk-state",
      resource
    })
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256")
    const { location } = await consent(authorizationUrl, paidUser)
    const callback = new URL(location!)
    expect(callback.searchParams.get("iss")).toBe(metadata.issuer)
    expect(callback.searchParams.get("state")).toBe("sdk-state")

    const tokens = await exchangeAuthorization(issuer, {
      metadata,
      clientInformation: client,
      authorizationCode: callback.searchParams.get("code")!,
      codeVerifier,
      redirectUri: redirectUrl,
      resource
    })
    expect(tokens.access_token).toMatch(/^svc_oauth_/)
    expect(await principalOf(issuer, tokens.access_token)).toMatchObject({ _tag: "OAuthUser", tier: "paid" })

    const refreshed = await refreshAuthorization(issuer, {
      metadata,
      clientInformation: client,
      refreshToken: tokens.refresh_token!,
      resource
    })
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)
    expect(await principalOf(issuer, refreshed.access_token)).toMatchObject({ _tag: "OAuthUser" })

    await expect(refreshAuthorization(issuer, {
      metadata,
      clientInformation: client,
      refreshToken: tokens.refresh_token!,
      resource
    })).rejects.toBeInstanceOf(InvalidGrantError)
  })
})
