import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { json, startFakeUpstream } from "./support/FakeUpstream.ts"
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

describe("GET /health", () => {
  it("reports eCFR reachability from a real probe: ok when titles.json answers", async () => {
    const upstream = await startFakeUpstream([
      (_, url) => url.pathname === "/api/versioner/v1/titles.json" ? json({ titles: [], meta: {} }) : undefined
    ])
    const server = await startServer({ config: { ecfrBaseUrl: upstream.url } })
    try {
      const response = await server.get("/health")
      expect(response.status).toBe(200)
      expect(response.headers.get("cache-control")).toBe("no-store")
      const body = await response.json()
      expect(body).toMatchObject({
        status: "ok",
        version: "2.3.0",
        ecfr: "ok",
        service: "Export Compliance Data Service"
      })
      expect(Date.parse(body.timestamp)).not.toBeNaN()
      expect(body.cache.dataCacheControl).toBe("public, max-age=3600, stale-while-revalidate=86400")
      expect(upstream.hits.get("/api/versioner/v1/titles.json")).toBe(1)
    } finally {
      await server.close()
      await upstream.close()
    }
  })

  it("reports `error: <detail>` and degraded status when the upstream fails", async () => {
    const upstream = await startFakeUpstream()
    upstream.down = 503
    const server = await startServer({ config: { ecfrBaseUrl: upstream.url } })
    try {
      const body = await (await server.get("/health")).json()
      expect(body.status).toBe("degraded")
      expect(body.ecfr).toMatch(/^error: .*503/)
    } finally {
      await server.close()
      await upstream.close()
    }
  })
})
