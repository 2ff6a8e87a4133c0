import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import {
  addUsers,
  authorizationUrl,
  consent,
  freeUser,
  nativeClient,
  newDataDir,
  paidUser,
  pkcePair,
  principalOf,
  publicAppWithProbe,
  registerClient,
  signInFlow,
  tokenRequest
} from "../support/OAuthDriver.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

describe("OAuth authorization code flow", () => {
  let server: RunningServer
  let base: string
  let clientId: string
  const redirectUri = nativeClient.redirect_uris[0]!
  beforeAll(async () => {
    const dataDir = await newDataDir()
    await addUsers(dataDir, [freeUser, paidUser])
    server = await startServer({ config: { dataDir }, app: publicAppWithProbe })
    base = server.url
    clientId = (await registerClient(base, nativeClient)).body.client_id
  })
  afterAll(() => server.close())

  const request = (overrides: Record<string, string> = {}) => {
    const pkce = pkcePair()
    const parameters: Record<string, string> = {
      response_type: "code",
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: pkce.challenge,
      code_challenge_method: "S256",
      state: "state-123",
      resource: `${base}/mcp`,
      scope: "mcp",
      ...overrides
    }
    return { url: authorizationUrl(base, parameters), verifier: pkce.verifier }
  }

  const exchange = (code: string, verifier: string, overrides: Record<string, string> = {}) =>
    tokenRequest(base, {
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: clientId,
      ...overrides
    })

  const codeFrom = async (overrides: Record<string, string> = {}, user = freeUser) => {
    const { url, verifier } = request(overrides)
    const { location } = await consent(url, user)
    return { code: new URL(location!).searchParams.get("code")!, verifier }
  }

  it("serves an accessible, frame-proof sign-in and consent page", async () => {
    const page = await fetch(request().url)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(page.headers.get("cache-control")).toBe("no-store")
    expect(page.headers.get("x-frame-options")).toBe("DENY")
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
    const html = await page.text()
    expect(html).toContain("<html lang=\"en\">")
    expect(html).toContain("<label for=\"email\">")
    expect(html).toContain("<label for=\"password\">")
    expect(html).toContain("Test MCP client")
    expect(html).toContain("http://127.0.0.1:9")
    expect(html).not.toContain("<script")
  })

  it("redirects back with a code, the state and the issuer (RFC 9207), then issues bound tokens", async () => {
    const { url, verifier } = request()
    const { location, page } = await consent(url, paidUser)
    expect(page.status).toBe(303)
    const callback = new URL(location!)
    expect(callback.origin + callback.pathname).toBe(redirectUri)
    expect(callback.searchParams.get("state")).toBe("state-123")
    expect(callback.searchParams.get("iss")).toBe(base)
    const code = callback.searchParams.get("code")!
    expect(code).toMatch(/^svc_code_/)

    const tokens = await exchange(code, verifier)
    expect(tokens.status).toBe(200)
    expect(tokens.headers.get("cache-control")).toBe("no-store")
    expect(tokens.body).toEqual({
      access_token: expect.stringMatching(/^svc_oauth_[A-Za-z0-9_-]{65}$/),
      token_type: "Bearer",
      expires_in: 3600,
      scope: "mcp",
      refresh_token: expect.stringMatching(/^svc_refresh_/)
    })
    expect(await principalOf(base, tokens.body.access_token)).toEqual({
      _tag: "OAuthUser",
      userId: expect.stringMatching(/^usr_/),
      clientId,
      tier: "paid",
      scopes: ["mcp"]
    })
  })

  it("gives free-tier users their tier, and treats unknown, malformed and refresh tokens as anonymous", async () => {
    const { tokens } = await signInFlow(base, freeUser)
    expect(await principalOf(base, tokens.access_token)).toMatchObject({ _tag: "OAuthUser", tier: "free" })
    const anonymous = { _tag: "Anonymous" }
    const forged = tokens.access_token.slice(0, -4) + "AAAA"
    expect(await principalOf(base, forged)).toEqual(anonymous)
    expect(await principalOf(base, "svc_oauth_short")).toEqual(anonymous)
    expect(await principalOf(base, tokens.refresh_token)).toEqual(anonymous)
    expect(await principalOf(base, undefined)).toEqual(anonymous)
  })

  it("keeps the page up with an alert after a wrong password, and ends the request after five", async () => {
    const { url } = request()
    const first = await consent(url, { email: freeUser.email, password: "wrong-password" })
    expect(first.page.status).toBe(200)
    expect(first.html).toContain("role=\"alert\"")
    expect(first.html).toContain("aria-describedby=\"sign-in-error\"")
    const handle = /name="handle" value="([^"]+)"/.exec(first.html)![1]!
    const post = () =>
      fetch(`${base}/oauth/authorize`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ handle, email: freeUser.email, password: "still-wrong", decision: "allow" })
      })
    for (let attempt = 2; attempt < 5; attempt++) expect((await post()).status).toBe(200)
    const last = await post()
    expect(last.status).toBe(303)
    expect(new URL(last.headers.get("location")!).searchParams.get("error")).toBe("access_denied")
    expect((await post()).status).toBe(400)
  })

  it("tells an unknown user and a wrong password apart in no way", async () => {
    const unknown = await consent(request().url, { email: "nobody@example.com", password: freeUser.password })
    const wrong = await consent(request().url, { email: freeUser.email, password: "not-the-password" })
    const strip = (html: string) => html.replace(/value="[^"]+"/, "")
    expect(strip(unknown.html)).toBe(strip(wrong.html))
  })

  it("returns access_denied with state and iss when the user denies", async () => {
    const { location } = await consent(request().url, { ...freeUser, decision: "deny" })
    const callback = new URL(location!)
    expect(callback.searchParams.get("error")).toBe("access_denied")
    expect(callback.searchParams.get("state")).toBe("state-123")
    expect(callback.searchParams.get("iss")).toBe(base)
    expect(callback.searchParams.has("code")).toBe(false)
  })

  it("never redirects to an unregistered redirect URI or for an unknown client", async () => {
    for (const overrides of [{ redirect_uri: "https://evil.example/cb" }, { client_id: "svc_client_unknown" }]) {
      const response = await fetch(request(overrides).url, { redirect: "manual" })
      expect(response.status).toBe(400)
      expect(response.headers.get("location")).toBeNull()
      expect(await response.text()).toContain("role=\"alert\"")
    }
  })

  it("accepts any port on a native client's loopback redirect (RFC 8252 §7.3)", async () => {
    const { location } = await consent(request({ redirect_uri: "http://127.0.0.1:53123/callback" }).url, freeUser)
    expect(location).toMatch(/^http:\/\/127\.0\.0\.1:53123\/callback\?code=/)
  })

  it.each([
    ["no code_challenge", { code_challenge: "" }, "invalid_request"],
    ["the plain method", { code_challenge_method: "plain" }, "invalid_request"],
    ["a malformed challenge", { code_challenge: "short" }, "invalid_request"],
    ["response_type=token", { response_type: "token" }, "unsupported_response_type"],
    ["another resource", { resource: "https://other.example/mcp" }, "invalid_target"]
  ])("redirects an error for %s", async (_case, overrides, error) => {
    const parameters = { ...overrides }
    const { url } = request(parameters)
    const cleaned = new URL(url)
    for (const [name, value] of Object.entries(parameters)) if (value === "") cleaned.searchParams.delete(name)
    const response = await fetch(cleaned, { redirect: "manual" })
    expect(response.status).toBe(302)
    const callback = new URL(response.headers.get("location")!)
    expect(callback.searchParams.get("error")).toBe(error)
    expect(callback.searchParams.get("iss")).toBe(base)
    expect(callback.searchParams.get("state")).toBe("state-123")
  })

  it("refuses a wrong or missing code_verifier (PKCE) and burns the code", async () => {
    const { code, verifier } = await codeFrom()
    const wrong = await exchange(code, pkcePair().verifier)
    expect(wrong.status).toBe(400)
    expect(wrong.body.error).toBe("invalid_grant")
    expect((await exchange(code, verifier)).body.error).toBe("invalid_grant")
    const second = await codeFrom()
    const missing = await tokenRequest(base, {
      grant_type: "authorization_code",
      code: second.code,
      redirect_uri: redirectUri,
      client_id: clientId
    })
    expect(missing.body.error).toBe("invalid_grant")
  })

  it("refuses a mismatched redirect_uri or resource at the token endpoint", async () => {
    const one = await codeFrom()
    expect((await exchange(one.code, one.verifier, { redirect_uri: "http://127.0.0.1:9/other" })).body.error)
      .toBe("invalid_grant")
    const two = await codeFrom()
    expect((await exchange(two.code, two.verifier, { resource: "https://other.example/mcp" })).body.error)
      .toBe("invalid_target")
  })

  it("revokes the connection when a code is replayed", async () => {
    const { code, verifier } = await codeFrom()
    const first = await exchange(code, verifier)
    expect(first.status).toBe(200)
    const replay = await exchange(code, verifier)
    expect(replay.body.error).toBe("invalid_grant")
    expect(await principalOf(base, first.body.access_token)).toEqual({ _tag: "Anonymous" })
  })

  it("rotates refresh tokens and revokes the whole connection when a rotated one comes back", async () => {
    const { clientId: owner, tokens } = await signInFlow(base, freeUser)
    const refresh = (token: string) =>
      tokenRequest(base, { grant_type: "refresh_token", refresh_token: token, client_id: owner })
    const rotated = await refresh(tokens.refresh_token)
    expect(rotated.status).toBe(200)
    expect(rotated.body.refresh_token).not.toBe(tokens.refresh_token)
    expect(rotated.body.access_token).not.toBe(tokens.access_token)
    expect(await principalOf(base, rotated.body.access_token)).toMatchObject({ _tag: "OAuthUser" })
    expect(await principalOf(base, tokens.access_token)).toMatchObject({ _tag: "OAuthUser" })

    const reused = await refresh(tokens.refresh_token)
    expect(reused.status).toBe(400)
    expect(reused.body.error).toBe("invalid_grant")
    expect(await principalOf(base, rotated.body.access_token)).toEqual({ _tag: "Anonymous" })
    expect((await refresh(rotated.body.refresh_token)).body.error).toBe("invalid_grant")
  })

  it("refuses refresh with another client's id, a wider scope or another resource", async () => {
    const { clientId: owner, tokens } = await signInFlow(base, freeUser)
    const other = await tokenRequest(base, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: clientId
    })
    expect(other.body.error).toBe("invalid_grant")
    const wider = await tokenRequest(base, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: owner,
      scope: "mcp admin"
    })
    expect(wider.body.error).toBe("invalid_scope")
    const elsewhere = await tokenRequest(base, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: owner,
      resource: "https://other.example/mcp"
    })
    expect(elsewhere.body.error).toBe("invalid_target")
    const fine = await tokenRequest(base, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: owner
    })
    expect(fine.status).toBe(200)
  })

  it("revokes access and refresh tokens (RFC 7009), answering 200 for unknown tokens", async () => {
    const { clientId: owner, tokens } = await signInFlow(base, freeUser)
    const revoke = (token: string, id = owner) =>
      fetch(`${base}/oauth/revoke`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token, client_id: id })
      })
    expect((await revoke("svc_oauth_not_a_token")).status).toBe(200)
    expect((await revoke(tokens.access_token, clientId)).status).toBe(200)
    expect(await principalOf(base, tokens.access_token)).toMatchObject({ _tag: "OAuthUser" })

    expect((await revoke(tokens.access_token)).status).toBe(200)
    expect(await principalOf(base, tokens.access_token)).toEqual({ _tag: "Anonymous" })
    const refreshed = await tokenRequest(base, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: owner
    })
    expect(refreshed.status).toBe(200)
    expect((await revoke(refreshed.body.refresh_token)).status).toBe(200)
    expect(await principalOf(base, refreshed.body.access_token)).toEqual({ _tag: "Anonymous" })
  })

  it("authenticates confidential clients by their secret and refuses everything else with invalid_client", async () => {
    const web = {
      redirect_uris: ["https://app.example.com/cb"],
      application_type: "web",
      grant_types: ["authorization_code", "refresh_token"]
    }
    const registered = await registerClient(base, web)
    const { client_id: id, client_secret: secret } = registered.body
    const { tokens } = await (async () => {
      const pkce = pkcePair()
      const { location } = await consent(
        authorizationUrl(base, {
          response_type: "code",
          client_id: id,
          redirect_uri: web.redirect_uris[0]!,
          code_challenge: pkce.challenge,
          code_challenge_method: "S256"
        }),
        freeUser
      )
      const callback = new URL(location!)
      expect(callback.searchParams.has("state")).toBe(false)
      const code = callback.searchParams.get("code")!
      const form = {
        grant_type: "authorization_code",
        code,
        redirect_uri: web.redirect_uris[0]!,
        code_verifier: pkce.verifier
      }
      const noSecret = await tokenRequest(base, { ...form, client_id: id })
      expect(noSecret.status).toBe(401)
      expect(noSecret.body.error).toBe("invalid_client")
      expect(noSecret.headers.get("www-authenticate")).toContain("Basic")
      const basic = `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`
      return { tokens: (await tokenRequest(base, form, { authorization: basic })).body }
    })()
    expect(tokens.access_token).toMatch(/^svc_oauth_/)
    const wrong = `Basic ${Buffer.from(`${id}:not-the-secret`).toString("base64")}`
    const refused = await tokenRequest(base, { grant_type: "refresh_token", refresh_token: tokens.refresh_token }, {
      authorization: wrong
    })
    expect(refused.status).toBe(401)
    expect(refused.body.error).toBe("invalid_client")
  })

  it("refuses unsupported grants and non-form bodies", async () => {
    const grant = await tokenRequest(base, { grant_type: "password", client_id: clientId })
    expect(grant.body.error).toBe("unsupported_grant_type")
    const json = await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "authorization_code" })
    })
    expect(json.status).toBe(400)
    expect((await json.json()).error).toBe("invalid_request")
  })
})
