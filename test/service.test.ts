import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type RunningServer, startServer } from "./support/TestServer.ts"

describe("service endpoints", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.close())

  it("GET / lists the index with the endpoint directory and supported parts", async () => {
    const response = await server.get("/")
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body.version).toBe("2.3.0")
    expect(body.runtime).toMatch(/^node v\d+/)
    expect(body.docs).toBe(`${server.url}/docs`)
    expect(Object.keys(body.endpoints)).toEqual([
      "ecfr",
      "radar",
      "enforcement",
      "intel",
      "skills",
      "mcp",
      "documents",
      "spec"
    ])
    expect(body.endpoints.spec).toContain("GET /health — health, version and eCFR reachability (not cached)")
    expect(body.supportedParts).toHaveLength(12)
    expect(body.supportedParts[0]).toEqual({
      part: 121,
      title: 22,
      label: "US Munitions List (USML)",
      url: `${server.url}/api/ecfr/121`
    })
  })
})
