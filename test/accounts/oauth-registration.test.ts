import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { nativeClient, newDataDir, publicAppWithProbe, registerClient } from "../support/OAuthDriver.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

describe("OAuth authorization server metadata and dynamic client registration", () => {
  let server: RunningServer
  const authUrl = "https://auth.example.test"
  beforeAll(async () => {
    server = await startServer({ config: { dataDir: await newDataDir(), authUrl }, app: publicAppWithProbe })
  })
  afterAll(() => server.close())

  it("publishes RFC 8414 metadata whose issuer is exactly AUTH_URL", async () => {
    const response = await server.get("/.well-known/oauth-authorization-server")
    expect(response.status).toBe(200)
    expect(response.headers.get("access-control-allow-origin")).toBe("*")
    expect(response.headers.get("etag")).toMatch(/^W\//)
    const metadata = await response.json()
    expect(metadata).toEqual({
      issuer: authUrl,
      authorization_endpoint: `${authUrl}/oauth/authorize`,
      token_endpoint: `${authUrl}/oauth/token`,
      registration_endpoint: `${authUrl}/oauth/register`,
      revocation_endpoint: `${authUrl}/oauth/revoke`,
      scopes_supported: ["mcp"],
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
      revocation_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${server.url}/docs`
    })
  })

  it("lists the metadata and registration endpoints in the index under mcp", async () => {
    const index = await (await server.get("/")).json()
    expect(index.endpoints.mcp).toEqual(expect.arrayContaining([
      "GET /.well-known/oauth-authorization-server — OAuth 2.1 authorization server metadata (RFC 8414)",
      "POST /oauth/register — OAuth dynamic client registration (RFC 7591)"
    ]))
  })

  it("registers a public native client and returns exactly what was registered, never null", async () => {
    const { body, status } = await registerClient(server.url, { ...nativeClient, unknown_field: "ignored" })
    expect(status).toBe(201)
    expect(body.client_id).toMatch(/^svc_client_/)
    expect(body.client_id_issued_at).toBeGreaterThan(1_700_000_000)
    expect(body).toEqual({
      client_id: body.client_id,
      client_id_issued_at: body.client_id_issued_at,
      client_name: "Test MCP client",
      redirect_uris: ["http://127.0.0.1:9/callback"],
      application_type: "native",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none"
    })
    for (const field of ["client_secret", "software_id", "software_version", "client_uri", "logo_uri", "scope"]) {
      expect(body).not.toHaveProperty(field)
    }
    expect(Object.values(body)).not.toContain(null)
  })

  it("issues a secret to a confidential web client, defaulting to client_secret_basic, and echoes optional fields", async () => {
    const { body, status } = await registerClient(server.url, {
      redirect_uris: ["https://app.example.com/oauth/callback"],
      application_type: "web",
      client_name: "Web dashboard",
      client_uri: "https://app.example.com",
      software_id: "dashboard",
      software_version: "4.2.0",
      logo_uri: ""
    })
    expect(status).toBe(201)
    expect(body.token_endpoint_auth_method).toBe("client_secret_basic")
    expect(body.grant_types).toEqual(["authorization_code"])
    expect(body.client_secret).toEqual(expect.any(String))
    expect(body.client_secret_expires_at).toBe(0)
    expect(body).toMatchObject({
      client_uri: "https://app.example.com",
      software_id: "dashboard",
      software_version: "4.2.0"
    })
    expect(body).not.toHaveProperty("logo_uri")
  })

  it("accepts a reverse-domain private-use scheme for native apps only", async () => {
    const native = await registerClient(server.url, {
      redirect_uris: ["com.example.agent:/oauth/callback"],
      application_type: "native",
      token_endpoint_auth_method: "none"
    })
    expect(native.status).toBe(201)
    const web = await registerClient(server.url, {
      redirect_uris: ["com.example.agent:/oauth/callback"],
      application_type: "web"
    })
    expect(web.status).toBe(400)
    expect(web.body.error).toBe("invalid_redirect_uri")
  })

  it("registers a client without application_type as a web client (RFC 7591 makes it optional)", async () => {
    const { body, status } = await registerClient(server.url, { redirect_uris: ["https://app.example.com/cb"] })
    expect(status).toBe(201)
    expect(body.application_type).toBe("web")
    expect(body.redirect_uris).toEqual(["https://app.example.com/cb"])
  })

  it.each([
    ["no redirect_uris", { application_type: "native" }, "invalid_redirect_uri"],
    ["an empty redirect_uris", { redirect_uris: [], application_type: "native" }, "invalid_redirect_uri"],
    [
      "http on a public host",
      { redirect_uris: ["http://app.example.com/cb"], application_type: "web" },
      "invalid_redirect_uri"
    ],
    [
      "a fragment",
      { redirect_uris: ["https://app.example.com/cb#x"], application_type: "web" },
      "invalid_redirect_uri"
    ],
    [
      "embedded credentials",
      { redirect_uris: ["https://user:pw@app.example.com/cb"], application_type: "web" },
      "invalid_redirect_uri"
    ],
    ["a relative URI", { redirect_uris: ["/callback"], application_type: "web" }, "invalid_redirect_uri"],
    ["javascript:", { redirect_uris: ["javascript:alert(1)"], application_type: "native" }, "invalid_redirect_uri"],
    [
      "an https URI without a host",
      { redirect_uris: ["https:///cb"], application_type: "web" },
      "invalid_redirect_uri"
    ],
    ["https:/cb (one slash)", { redirect_uris: ["https:/cb"], application_type: "web" }, "invalid_redirect_uri"],
    [
      "a backslash authority",
      { redirect_uris: ["https:\\\\evil.example\\cb"], application_type: "web" },
      "invalid_redirect_uri"
    ],
    [
      "an unknown application_type",
      { redirect_uris: ["https://a.example/cb"], application_type: "desktop" },
      "invalid_client_metadata"
    ],
    ["an unsupported grant", { ...nativeClient, grant_types: ["client_credentials"] }, "invalid_client_metadata"],
    ["only refresh_token", { ...nativeClient, grant_types: ["refresh_token"] }, "invalid_client_metadata"],
    ["an implicit response type", { ...nativeClient, response_types: ["token"] }, "invalid_client_metadata"],
    ["private_key_jwt", { ...nativeClient, token_endpoint_auth_method: "private_key_jwt" }, "invalid_client_metadata"],
    ["an http client_uri", { ...nativeClient, client_uri: "http://app.example.com" }, "invalid_client_metadata"],
    ["a non-string client_name", { ...nativeClient, client_name: 42 }, "invalid_client_metadata"]
  ])("refuses %s", async (_case, metadata, error) => {
    const { body, status } = await registerClient(server.url, metadata)
    expect(status).toBe(400)
    expect(body.error).toBe(error)
    expect(body.error_description).toEqual(expect.any(String))
  })

  it("refuses bodies that are not JSON objects or are too large", async () => {
    const notJson = await fetch(`${server.url}/oauth/register`, {
      method: "POST",
      body: "{",
      headers: { "content-type": "application/json" }
    })
    expect(notJson.status).toBe(400)
    expect((await notJson.json()).error).toBe("invalid_client_metadata")
    const huge = await fetch(`${server.url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...nativeClient, client_name: "x".repeat(20_000) })
    })
    expect(huge.status).toBe(413)
  })

  it("answers CORS preflights for browser-based clients", async () => {
    const response = await fetch(`${server.url}/oauth/register`, {
      method: "OPTIONS",
      headers: { origin: "https://inspector.example", "access-control-request-method": "POST" }
    })
    expect(response.status).toBe(204)
    expect(response.headers.get("access-control-allow-origin")).toBe("*")
    expect(response.headers.get("access-control-allow-headers")).toContain("content-type")
  })
})
