import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { modernMeta, modernPost, rawPost, startFixtureServer } from "../support/mcp/McpTestApp.ts"
import { bearers } from "../support/Principals.ts"
import type { RunningServer } from "../support/TestServer.ts"

const auth = (bearer: string) => ({ authorization: `Bearer ${bearer}` })

describe("MCP transport and envelope", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startFixtureServer()
  })
  afterAll(() => server.close())

  it("answers a parse error with 400 and -32700", async () => {
    const response = await rawPost(server, "{not json")
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error: the body is not valid JSON" }
    })
  })

  it.each([
    ["a batch", [{ jsonrpc: "2.0", id: 1, method: "ping" }], null],
    ["a wrong jsonrpc version", { jsonrpc: "1.0", id: 7, method: "ping" }, 7],
    ["a missing method", { jsonrpc: "2.0", id: 8 }, 8],
    ["non-object params", { jsonrpc: "2.0", id: 9, method: "ping", params: [1] }, 9],
    ["a null id", { jsonrpc: "2.0", id: null, method: "ping" }, null]
  ])("rejects %s as an invalid request (400, -32600)", async (_, body, id) => {
    const response = await rawPost(server, body)
    expect(response.status).toBe(400)
    const json = await response.json()
    expect(json.id).toBe(id)
    expect(json.error.code).toBe(-32600)
  })

  it("accepts notifications with 202 and no body", async () => {
    const response = await rawPost(server, { jsonrpc: "2.0", method: "notifications/initialized" })
    expect(response.status).toBe(202)
    expect(await response.text()).toBe("")
  })

  it("answers GET /mcp with 405 naming POST", async () => {
    const response = await server.get("/mcp")
    expect(response.status).toBe(405)
    expect(response.headers.get("allow")).toBe("POST")
  })

  it("serves the deprecated alias /mcp/pro with deprecation headers", async () => {
    const response = await rawPost(server, { jsonrpc: "2.0", id: 1, method: "ping" }, {}, "/mcp/pro")
    expect(response.status).toBe(200)
    expect(response.headers.get("deprecation")).toBe("true")
    expect(response.headers.get("link")).toBe(`<${server.url}/mcp>; rel="successor-version"`)
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 1, result: {} })
  })

  it("rejects a foreign Origin or Host (DNS rebinding) with 403", async () => {
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" }
    // the second round meets verdicts the server remembers
    for (let round = 0; round < 2; round++) {
      expect((await rawPost(server, ping, { origin: "http://evil.example" })).status).toBe(403)
      expect((await rawPost(server, ping, { origin: server.url })).status).toBe(200)
    }
    // more distinct values than it remembers: each one is still judged
    for (let index = 0; index < 70; index++) {
      expect((await rawPost(server, ping, { origin: `http://evil${index}.example` })).status).toBe(403)
    }
    expect((await rawPost(server, ping, { origin: "http://LOCALHOST:1" })).status).toBe(200)
  })

  it("sends the reply as JSON with its length in bytes, multi-byte characters included", async () => {
    const response = await rawPost(server, { jsonrpc: "2.0", id: "ü", method: "pïng/ünknown" })
    const bytes = new Uint8Array(await response.arrayBuffer())
    expect(response.headers.get("content-type")).toBe("application/json")
    expect(Number(response.headers.get("content-length"))).toBe(bytes.length)
    const reply = JSON.parse(new TextDecoder().decode(bytes))
    expect(reply.id).toBe("ü")
    expect(reply.error.message).toContain("pïng/ünknown")
  })

  it("refuses bodies over the size cap with 413", async () => {
    const padding = "x".repeat(2 * 1024 * 1024 + 1)
    const response = await rawPost(server, { jsonrpc: "2.0", id: 1, method: "ping", params: { padding } })
    expect(response.status).toBe(413)
    expect((await response.json()).error.code).toBe(-32600)
  })
})

describe("MCP eras and header validation", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startFixtureServer()
  })
  afterAll(() => server.close())

  const discover = (params: Record<string, unknown>, headers: Record<string, string>) =>
    rawPost(server, { jsonrpc: "2.0", id: 41, method: "server/discover", params }, {
      "mcp-method": "server/discover",
      ...headers
    })

  it("serves server/discover statelessly with caching hints and serverInfo in _meta", async () => {
    const response = await modernPost(server, "server/discover")
    expect(response.status).toBe(200)
    const { result } = await response.json()
    expect(result).toMatchObject({
      resultType: "complete",
      supportedVersions: ["2026-07-28", "2025-11-25", "2025-06-18"],
      capabilities: { tools: {}, resources: {}, prompts: {} },
      ttlMs: 3_600_000,
      cacheScope: "public",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "export-compliance-data-service", version: "2.3.0" } }
    })
    expect(result.instructions).toContain("not legal advice")
  })

  it("rejects missing _meta fields with 400 and -32602 even when the headers are valid", async () => {
    const header = { "mcp-protocol-version": "2026-07-28" }
    for (
      const params of [
        {},
        { _meta: { "io.modelcontextprotocol/clientCapabilities": {} } },
        { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } }
      ]
    ) {
      const response = await discover(params, header)
      expect(response.status).toBe(400)
      const json = await response.json()
      expect(json.id).toBe(41)
      expect(json.error.code).toBe(-32602)
    }
  })

  it("serves a request whose _meta omits clientInfo", async () => {
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {}
    }
    const response = await discover({ _meta: meta }, { "mcp-protocol-version": "2026-07-28" })
    expect(response.status).toBe(200)
  })

  it("checks header mismatch before the version: header 2026-07-28, body v999 gives -32020", async () => {
    const meta = { ...modernMeta, "io.modelcontextprotocol/protocolVersion": "v999.0.0" }
    const response = await discover({ _meta: meta }, { "mcp-protocol-version": "2026-07-28" })
    expect(response.status).toBe(400)
    expect((await response.json()).error.code).toBe(-32020)
  })

  it("answers an unsupported version with -32022 listing supported and requested", async () => {
    const meta = { ...modernMeta, "io.modelcontextprotocol/protocolVersion": "1900-01-01" }
    const response = await discover({ _meta: meta }, { "mcp-protocol-version": "1900-01-01" })
    expect(response.status).toBe(400)
    expect((await response.json()).error).toEqual({
      code: -32022,
      message: "Unsupported protocol version",
      data: { supported: ["2026-07-28", "2025-11-25", "2025-06-18"], requested: "1900-01-01" }
    })
  })

  it.each([
    ["a missing MCP-Protocol-Version", "server/discover", {}, { "mcp-protocol-version": undefined }],
    ["a missing Mcp-Method", "tools/list", {}, { "mcp-method": undefined }],
    ["a mismatched Mcp-Method", "tools/list", {}, { "mcp-method": "prompts/list" }],
    ["an upper-case Mcp-Method value", "tools/list", {}, { "mcp-method": "TOOLS/LIST" }],
    ["a mismatched Mcp-Name", "tools/call", { name: "lookup_term", arguments: {} }, { "mcp-name": "other" }],
    ["a missing Mcp-Name", "tools/call", { name: "lookup_term", arguments: {} }, { "mcp-name": undefined }],
    ["a missing Mcp-Name on resources/read", "resources/read", { uri: "glossary://terms/export" }, {
      "mcp-name": undefined
    }],
    ["a malformed base64 Mcp-Name", "tools/call", { name: "lookup_term", arguments: {} }, {
      "mcp-name": "=?base64?not base64?="
    }]
  ])("rejects %s with 400 and -32020", async (_, method, params, headers) => {
    const response = await modernPost(server, method, params, { ...headers, ...auth(bearers.apiKey) })
    expect(response.status).toBe(400)
    const json = await response.json()
    expect(json.id).toBe(1)
    expect(json.error.code).toBe(-32020)
  })

  it("accepts header names in any case, a padded Mcp-Name and a base64-encoded one", async () => {
    const params = { name: "lookup_term", arguments: { term: "export" } }
    const padded = await modernPost(server, "tools/call", params, {
      "mcp-name": "  lookup_term  ",
      "mcp-method": undefined,
      "MCP-METHOD": "tools/call",
      ...auth(bearers.apiKey)
    })
    expect(padded.status).toBe(200)
    const encoded = await modernPost(server, "tools/call", params, {
      "mcp-name": `=?base64?${btoa("lookup_term")}?=`,
      ...auth(bearers.apiKey)
    })
    expect(encoded.status).toBe(200)
    expect((await encoded.json()).result.structuredContent.term).toBe("export")
  })

  it.each(["initialize", "ping", "logging/setLevel", "resources/subscribe", "unknown/method"])(
    "answers %s on 2026-07-28 with 404 and -32601",
    async (method) => {
      const response = await modernPost(server, method)
      expect(response.status).toBe(404)
      expect((await response.json()).error.code).toBe(-32601)
    }
  )

  it("negotiates the legacy handshake without minting a session", async () => {
    const initialize = (protocolVersion: string) =>
      rawPost(server, {
        jsonrpc: "2.0",
        id: "init",
        method: "initialize",
        params: { protocolVersion, capabilities: {}, clientInfo: { name: "t", version: "0" } }
      })
    for (
      const [offered, answered] of [
        ["2025-06-18", "2025-06-18"],
        ["2025-11-25", "2025-11-25"],
        ["2024-11-05", "2025-11-25"],
        ["2026-07-28", "2025-11-25"]
      ]
    ) {
      const response = await initialize(offered!)
      expect(response.status).toBe(200)
      expect(response.headers.get("mcp-session-id")).toBeNull()
      const { result } = await response.json()
      expect(result).toMatchObject({
        resultType: "complete",
        protocolVersion: answered,
        serverInfo: { name: "export-compliance-data-service", version: "2.3.0" },
        capabilities: { tools: {}, resources: {} }
      })
    }
  })

  it("serves legacy requests with or without the version header, and refuses an unsupported one", async () => {
    const ping = { jsonrpc: "2.0", id: 3, method: "ping" }
    expect((await rawPost(server, ping)).status).toBe(200)
    expect((await rawPost(server, ping, { "mcp-protocol-version": "2025-06-18" })).status).toBe(200)
    const old = await rawPost(server, ping, { "mcp-protocol-version": "2024-11-05" })
    expect(old.status).toBe(400)
    expect((await old.json()).error.code).toBe(-32022)
  })

  it("answers unknown legacy methods with -32601 inside a 200", async () => {
    const response = await rawPost(server, { jsonrpc: "2.0", id: 5, method: "resources/subscribe", params: {} })
    expect(response.status).toBe(200)
    expect((await response.json()).error.code).toBe(-32601)
  })

  it("accepts a legacy log level (no log messages are ever sent) and keeps empty results empty", async () => {
    const set = (level: string) =>
      rawPost(server, { jsonrpc: "2.0", id: 6, method: "logging/setLevel", params: { level } }).then((r) => r.json())
    expect(await set("warning")).toEqual({ jsonrpc: "2.0", id: 6, result: {} })
    expect((await set("loud")).error.code).toBe(-32602)
  })
})
