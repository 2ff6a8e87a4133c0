import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Layer } from "effect"
import { AppRoutes } from "../src/http/App.ts"
import { OAuthRoutesLive } from "../src/http/oauth/Routes.ts"
import { forRuntime } from "../src/layers/Main.ts"
import { PublicServices } from "../src/layers/Public.ts"
import { layerFixed } from "../src/services/Auth.ts"
import { modernMeta } from "./support/mcp/McpTestApp.ts"
import { bearers, principals } from "./support/Principals.ts"
import { type RunningServer, startServer } from "./support/TestServer.ts"

/** A value nested `depth` arrays deep around `inner`: about 2 bytes per level. */
const nested = (depth: number, inner = "0") => `${"[".repeat(depth)}${inner}${"]".repeat(depth)}`

/** A body streamed in chunks without Content-Length (Transfer-Encoding: chunked). */
const chunked = (chunks: number, size: number) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < chunks; i++) controller.enqueue(new Uint8Array(size).fill(32))
      controller.close()
    }
  })

const mcpHeaders = (method: string, name?: string): Record<string, string> => ({
  authorization: `Bearer ${bearers.apiKey}`,
  "content-type": "application/json",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": method,
  ...(name === undefined ? {} : { "mcp-name": name })
})

describe("request bodies are bounded in bytes and nesting before any handler", () => {
  let server: RunningServer
  beforeAll(async () => {
    const app = Layer.mergeAll(AppRoutes, OAuthRoutesLive).pipe(
      Layer.provide(layerFixed(principals)),
      Layer.provide(PublicServices)
    )
    server = await startServer({ app: forRuntime(app, "node test") })
  })
  afterAll(() => server.close())

  const post = (path: string, body: BodyInit, headers: Record<string, string>) =>
    server.get(path, { method: "POST", body, headers, duplex: "half" } as RequestInit)

  it("POST /oauth/register nested 3,000 deep is a 400 registration error", async () => {
    const body = `{"redirect_uris":["https://app.example/cb"],"client_name":${nested(3000)}}`
    const response = await post("/oauth/register", body, { "content-type": "application/json" })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      error: "invalid_client_metadata",
      error_description: "the body nests objects or arrays deeper than 64 levels"
    })
  })

  it("POST /pdf/{slug} nested 3,000 deep is a 400 problem naming the body", async () => {
    const body = `{"DOC_NUMBER":${nested(3000)}}`
    const response = await post("/pdf/classification?draft=1", body, {
      authorization: `Bearer ${bearers.apiKey}`,
      "content-type": "application/json"
    })
    expect(response.status).toBe(400)
    expect(response.headers.get("content-type")).toBe("application/problem+json")
    const problem = await response.json()
    expect(problem.invalidParams).toEqual([
      { name: "body", in: "body", reason: "nests objects or arrays deeper than 64 levels" }
    ])
  })

  it("MCP tools/call with arguments nested 3,000 deep is a 400 JSON-RPC parse error", async () => {
    const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_eccn",` +
      `"arguments":{"eccn":${nested(3000)}},"_meta":${JSON.stringify(modernMeta)}}}`
    for (const path of ["/mcp", "/mcp/pro"]) {
      const response = await post(path, body, mcpHeaders("tools/call", "get_eccn"))
      expect(response.status).toBe(400)
      const reply = await response.json()
      expect(reply.error).toEqual({
        code: -32700,
        message: "Parse error: the body nests objects or arrays deeper than 64 levels"
      })
    }
  })

  it("nesting within the limit is still served", async () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 8,
      method: "tools/list",
      params: { _meta: { ...modernMeta, "example.com/deep": "DEEP" } }
    }).replace("\"DEEP\"", nested(40))
    const response = await post("/mcp", body, mcpHeaders("tools/list"))
    expect(await response.json()).toMatchObject({ id: 8, result: { resultType: "complete" } })
  })

  it("a chunked MCP body over 2 MiB is a 413 JSON-RPC error, not a connection reset", async () => {
    const response = await post("/mcp", chunked(30, 100 * 1024), mcpHeaders("tools/list"))
    expect(response.status).toBe(413)
    expect(response.headers.get("connection")).toBe("close")
    expect((await response.json()).error).toEqual({ code: -32600, message: "Request body exceeds 2097152 bytes" })
  })

  it("chunked OAuth bodies over 16 KiB are a 413 OAuth error", async () => {
    const register = await post("/oauth/register", chunked(20, 1024), { "content-type": "application/json" })
    expect(register.status).toBe(413)
    expect((await register.json()).error).toBe("invalid_request")
    const token = await post("/oauth/token", chunked(20, 1024), {
      "content-type": "application/x-www-form-urlencoded"
    })
    expect(token.status).toBe(413)
  })
})
