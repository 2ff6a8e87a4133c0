import { afterEach, describe, expect, it } from "@effect/vitest"
import { Layer } from "effect"
import { AppRoutes } from "../../src/http/App.ts"
import { forRuntime } from "../../src/layers/Main.ts"
import { PublicServices } from "../../src/layers/Public.ts"
import { layerFixed } from "../../src/services/Auth.ts"
import { makeInMemory, RateLimiter } from "../../src/services/RateLimiter.ts"
import { bearers, principals } from "../support/Principals.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"
import { testStore } from "../support/TestStore.ts"

const app = forRuntime(
  AppRoutes.pipe(
    Layer.provide(
      Layer.merge(layerFixed(principals), Layer.effect(RateLimiter, makeInMemory({ limit: 2, windowSeconds: 60 })))
    ),
    Layer.provide(PublicServices)
  ),
  "node test",
  testStore
)

const mcpCall = (authorization?: string): RequestInit => ({
  method: "POST",
  headers: {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-06-18",
    ...(authorization === undefined ? {} : { authorization })
  },
  body: JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "get_regulatory_status", arguments: {} }
  })
})

const mcpList: RequestInit = {
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json", "mcp-protocol-version": "2025-06-18" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
}

/**
 * Keys and tokens guessed at `/mcp` and `/pdf/*` were answered 401 and 402 without end: those paths
 * are outside the anonymous budget, and a refused bearer counted nowhere. A refused bearer now
 * counts against the caller's anonymous budget on every path.
 */
describe("refused bearers count against the anonymous budget on every path", () => {
  let server: RunningServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  const statuses = async (count: number, path: string, init: () => RequestInit) => {
    const seen: Array<number> = []
    for (let i = 0; i < count; i++) {
      const response = await server!.get(path, init())
      await response.arrayBuffer()
      seen.push(response.status)
    }
    return seen
  }

  it("MCP calls with unknown bearers: 401, then 429 with Retry-After once the budget is spent", async () => {
    server = await startServer({ app })
    expect(await statuses(2, "/mcp", () => mcpCall("Bearer svc_live_guess_1"))).toEqual([401, 401])
    const limited = await server.get("/mcp", mcpCall("Bearer svc_oauth_guess_2"))
    expect(limited.status).toBe(429)
    expect(limited.headers.get("content-type")).toBe("application/problem+json")
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
  })

  it("document routes with unknown keys share that budget", async () => {
    server = await startServer({ app })
    expect(
      await statuses(3, "/pdf/classification/contract", () => ({ headers: { authorization: "Bearer svc_live_x" } }))
    )
      .toEqual([402, 402, 429])
    expect(await statuses(1, "/mcp", () => mcpCall("Bearer svc_live_y"))).toEqual([429])
  })

  it("leaves callers without a bearer, and callers with a usable one, uncounted off the limited paths", async () => {
    server = await startServer({ app })
    expect(await statuses(4, "/mcp", () => mcpList)).toEqual([200, 200, 200, 200])
    expect(await statuses(4, "/mcp", () => mcpCall())).toEqual([401, 401, 401, 401])
    expect(await statuses(4, "/mcp", () => mcpCall(`Bearer ${bearers.apiKey}`))).toEqual([200, 200, 200, 200])
  })
})
