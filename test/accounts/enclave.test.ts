import { afterAll, beforeAll, describe, expect, it, vi } from "@effect/vitest"
import { Option } from "effect"
import { SignJWT } from "jose"
import { request } from "node:http"
import { startFakeUpstream } from "../support/FakeUpstream.ts"
import { newDataDir } from "../support/OAuthDriver.ts"
import { audience, enclaveConfig, issuer, makeIssuer, unsecured } from "../support/ServiceTokens.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

type Issuer = Awaited<ReturnType<typeof makeIssuer>>

describe("enclave deployment", () => {
  let server: RunningServer
  let tokens: Issuer
  const lines: Array<string> = []
  beforeAll(async () => {
    tokens = await makeIssuer()
    vi.spyOn(console, "log").mockImplementation((text: unknown) => {
      lines.push(...String(text).split("\n"))
    })
    server = await startServer({
      config: { ...enclaveConfig(tokens.config()), dataDir: await newDataDir(), logLevel: "all" }
    })
  })
  afterAll(async () => {
    await server.close()
    vi.restoreAllMocks()
  })

  const get = (path: string, token?: string) =>
    server.get(path, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } })

  it("answers 401 with a problem document and a Bearer challenge when the service JWT is missing", async () => {
    for (
      const path of [
        "/api/regulatory-status",
        "/skills",
        "/skills/svc-classify",
        "/mcp",
        "/pdf/classification/contract"
      ]
    ) {
      const response = await get(path)
      expect(response.status, path).toBe(401)
      expect(response.headers.get("content-type")).toBe("application/problem+json")
      expect(response.headers.get("www-authenticate")).toBe(`Bearer realm="${new URL(server.url).host}"`)
      const body = await response.json()
      expect(body).toMatchObject({
        type: `${server.url}/problems/unauthenticated`,
        title: "Authentication required",
        status: 401,
        instance: response.headers.get("x-request-id")
      })
    }
  })

  it("guards every spelling of a path that the router would still route", async () => {
    const { port } = new URL(server.url)
    const status = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const sent = request({ host: "127.0.0.1", port, path, method: "GET" }, (response) => {
          response.resume()
          resolve(response.statusCode!)
        })
        sent.on("error", reject)
        sent.end()
      })
    for (
      const path of [
        "/API/regulatory-status",
        "//api/regulatory-status",
        "/%61pi/regulatory-status",
        "/api/regulatory-status/",
        "/api/regulatory-status;x=1",
        "/%73kills",
        "/Skills/svc-classify",
        `http://127.0.0.1:${port}/api/regulatory-status`
      ]
    ) expect(await status(path), path).toBe(401)
  })

  it("serves the regulatory data to a valid service JWT", async () => {
    const response = await get("/api/regulatory-status", await tokens.sign())
    expect(response.status).toBe(200)
    expect(response.headers.get("ratelimit-limit")).toBeNull()
    const ec = await get("/api/regulatory-status", await tokens.sign({}, { alg: "ES256" }))
    expect(ec.status).toBe(200)
  })

  it("lets entitled services through to /mcp and /pdf/*, and answers 403 naming the missing entitlement", async () => {
    const entitled = await tokens.sign()
    expect((await get("/mcp", entitled)).status).not.toBe(401)
    expect((await get("/pdf/classification/contract", entitled)).status).not.toBe(403)
    const dataOnly = await tokens.sign({ svc_entitlements: [] })
    for (const [path, entitlement] of [["/mcp", "mcp"], ["/pdf/classification/contract", "pdf"]] as const) {
      const response = await get(path, dataOnly)
      expect(response.status).toBe(403)
      expect(response.headers.get("www-authenticate")).toContain("error=\"insufficient_scope\"")
      expect(await response.json()).toMatchObject({ status: 403, title: "Not entitled", entitlement })
    }
    expect((await get("/api/regulatory-status", dataOnly)).status).toBe(200)
  })

  it.each<[string, (issuer: Issuer) => Promise<string> | string]>([
    ["expired", (t) => t.sign({ exp: Math.floor(Date.now() / 1000) - 120 })],
    ["not yet valid", (t) => t.sign({ nbf: Math.floor(Date.now() / 1000) + 600 })],
    ["for another audience", (t) => t.sign({ aud: "urn:svc:elsewhere" })],
    ["from another issuer", (t) => t.sign({ iss: "https://attacker.example" })],
    ["without a subject", (t) => t.sign({ sub: undefined })],
    ["without an expiry", (t) => t.sign({ exp: undefined })],
    ["with alg none", () => unsecured({})],
    [
      "HS256 signed with the public key",
      (t) =>
        new SignJWT({ svc_entitlements: ["mcp"] }).setProtectedHeader({ alg: "HS256", kid: "rsa-1" })
          .setIssuer(issuer).setAudience(audience).setSubject("svc-caller").setExpirationTime("5m")
          .sign(new TextEncoder().encode(t.rsaPem))
    ],
    [
      "without a kid (jose alone would try the set's only RS256 key)",
      (t) =>
        new SignJWT({ svc_entitlements: ["mcp"] }).setProtectedHeader({ alg: "RS256" })
          .setIssuer(issuer).setAudience(audience).setSubject("svc-caller").setExpirationTime("5m")
          .sign(t.rsa.privateKey)
    ],
    ["with an unknown kid", (t) => t.sign({}, { kid: "rotated-away", key: t.stranger.privateKey })],
    ["signed by an unknown key under a known kid", (t) => t.sign({}, { key: t.stranger.privateKey })],
    ["tampered", async (t) => {
      const [header, , signature] = (await t.sign()).split(".")
      const payload = Buffer.from(JSON.stringify({ iss: issuer, aud: audience, sub: "root", exp: 9_999_999_999 }))
        .toString("base64url")
      return `${header}.${payload}.${signature}`
    }],
    ["not a JWT at all", () => "svc_live_not_for_this_deployment"]
  ])("refuses a token %s with 401 and invalid_token", async (_case, make) => {
    const response = await get("/api/regulatory-status", await make(tokens))
    expect(response.status).toBe(401)
    expect(response.headers.get("www-authenticate")).toContain("error=\"invalid_token\"")
    expect((await response.json()).title).toBe("Authentication required")
  })

  it("keeps the index, health and OpenAPI open, and the index adds host, auth and docs", async () => {
    const index = await (await get("/")).json()
    expect(index.host).toBe(new URL(server.url).host)
    expect(index.auth).toContain("Authorization: Bearer <SERVICE_JWT>")
    expect(index.auth).toContain("svc_entitlements")
    expect(index.docs).toBe(`${server.url}/docs`)
    expect((await get("/health")).status).toBe(200)
    expect((await get("/openapi.json")).status).toBe(200)
    for (const slug of ["unauthenticated", "not-entitled"]) {
      expect(await (await get(`/problems/${slug}`)).json()).toMatchObject({ type: `${server.url}/problems/${slug}` })
    }
  })

  it("has no OAuth authorization server", async () => {
    const directory = JSON.stringify((await (await get("/")).json()).endpoints)
    expect(directory).not.toContain("oauth-authorization-server")
    expect(directory).not.toContain("/oauth/")
    expect((await get("/.well-known/oauth-authorization-server")).status).toBe(404)
    const register = await server.get("/oauth/register", { method: "POST", body: "{}" })
    expect(register.status).toBe(404)
  })

  it("advertises service JWTs from their issuer, not OAuth, in the MCP metadata", async () => {
    const resource = await (await get("/.well-known/oauth-protected-resource/mcp")).json()
    expect(resource.authorization_servers).toEqual([issuer])
    const discovery = await (await get("/.well-known/mcp")).json()
    expect(discovery.auth.authorizationServers).toEqual([issuer])
    expect(discovery.auth.bearerFormats).toEqual([expect.stringMatching(/^service JWT \(audience urn:svc:enclave/)])
    expect(JSON.stringify(discovery)).not.toMatch(/svc_oauth_|svc_live_/)
  })

  it("tells anonymous discovery readers to send a service JWT, not to sign in with OAuth or an API key", async () => {
    const discovery = await (await get("/.well-known/mcp")).json()
    expect(discovery.enterprise.disclosed).toBe(false)
    expect(discovery.enterprise.note).toContain("send a service JWT carrying the `mcp` entitlement")
    expect(discovery.enterprise.note).not.toMatch(/sign in with OAuth|send an API key/)
  })

  it("declares the service JWT on every guarded operation of /openapi.json", async () => {
    const check = (document: any, guarded: ReadonlyArray<string>) => {
      expect(document.components.securitySchemes).toEqual({
        serviceJwt: expect.objectContaining({ type: "http", scheme: "bearer", bearerFormat: "JWT" })
      })
      for (const path of guarded) {
        for (const operation of Object.values<any>(document.paths[path])) {
          expect(operation.security, path).toEqual([{ serviceJwt: [] }])
        }
      }
      for (const path of ["/", "/health", "/openapi.json"]) {
        for (const operation of Object.values<any>(document.paths[path])) {
          expect(operation.security ?? [], path).toEqual([])
        }
      }
    }
    check(await (await get("/openapi.json")).json(), ["/api/regulatory-status", "/skills", "/mcp/server-card"])
    const full = await (await get("/openapi.json", await tokens.sign())).json()
    check(full, ["/api/regulatory-status", "/pdf/{slug}", "/pdf/{slug}/contract"])
    expect(JSON.stringify(full)).not.toContain("\"apiKey\"")
  })

  it("never answers an unauthenticated request from what an authenticated one was served", async () => {
    const token = await tokens.sign()
    expect((await get("/api/regulatory-status", token)).status).toBe(200)
    expect((await get("/api/regulatory-status", token)).status).toBe(200)
    expect((await get("/api/regulatory-status")).status).toBe(401)
  })

  it("never logs a service token", async () => {
    const token = await tokens.sign()
    const expired = await tokens.sign({ exp: Math.floor(Date.now() / 1000) - 120 })
    await get("/api/regulatory-status", token)
    await get("/mcp", expired)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const everything = lines.join("\n")
    expect(everything).toContain("service JWT rejected")
    for (const value of [token, expired]) {
      for (const part of value.split(".")) expect(everything).not.toContain(part)
    }
  })
})

describe("enclave key configuration", () => {
  it("verifies against a JWKS URL and refuses (401, not 5xx) while the key set is unreachable", async () => {
    const tokens = await makeIssuer()
    const jwks = await startFakeUpstream([
      (_request, url) =>
        url.pathname === "/jwks.json"
          ? { headers: { "content-type": "application/json" }, body: JSON.stringify(tokens.jwks) }
          : undefined
    ])
    const server = await startServer({
      config: enclaveConfig(tokens.config({ jwksUrl: Option.some(`${jwks.url}/jwks.json`), publicKeys: Option.none() }))
    })
    try {
      const token = await tokens.sign()
      const ok = await server.get("/api/regulatory-status", { headers: { authorization: `Bearer ${token}` } })
      expect(ok.status).toBe(200)
      expect(jwks.hits.get("/jwks.json")).toBe(1)
      jwks.down = 503
      const unknownKid = await tokens.sign({}, { kid: "new-key", key: tokens.stranger.privateKey })
      const refused = await server.get("/api/regulatory-status", { headers: { authorization: `Bearer ${unknownKid}` } })
      expect(refused.status).toBe(401)
    } finally {
      await server.close()
      await jwks.close()
    }
  })

  it("accepts one PEM public key", async () => {
    const tokens = await makeIssuer()
    const server = await startServer({
      config: enclaveConfig(tokens.config({ publicKeys: Option.some(tokens.rsaPem), algorithms: ["RS256"] }))
    })
    try {
      const token = await tokens.sign({}, { kid: "any" })
      expect((await server.get("/api/regulatory-status", { headers: { authorization: `Bearer ${token}` } })).status)
        .toBe(200)
      const ec = await tokens.sign({}, { alg: "ES256" })
      expect((await server.get("/api/regulatory-status", { headers: { authorization: `Bearer ${ec}` } })).status)
        .toBe(401)
    } finally {
      await server.close()
    }
  })

  it("refuses to start without an issuer or keys", async () => {
    const tokens = await makeIssuer()
    await expect(startServer({ config: enclaveConfig(tokens.config({ issuer: Option.none() })) })).rejects.toBeDefined()
    await expect(startServer({ config: enclaveConfig(tokens.config({ publicKeys: Option.none() })) })).rejects
      .toBeDefined()
    await expect(startServer({ config: enclaveConfig(tokens.config({ publicKeys: Option.some("not keys") })) })).rejects
      .toBeDefined()
  }, 120_000)
})
