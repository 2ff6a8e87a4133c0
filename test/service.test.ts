import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PublicApp } from "../src/layers/Public.ts"
import { fakeUpstream, json } from "./support/FakeUpstream.ts"
import * as WebApp from "./support/WebApp.ts"

const { baseUrl } = WebApp

describe("service endpoints", () => {
  it.scoped("GET / lists the index with the endpoint directory and supported parts", () =>
    Effect.gen(function*() {
      const app = yield* WebApp.make(PublicApp)
      const { body, response } = yield* app.json("/")
      expect(response.status).toBe(200)
      expect(body.version).toBe("2.3.0")
      expect(body.runtime).toMatch(/^node v\d+/)
      expect(body.docs).toBe(`${baseUrl}/docs`)
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
        url: `${baseUrl}/api/ecfr/121`
      })
    }))
})

describe("GET /health", () => {
  it.scoped("reports eCFR reachability from a real probe: ok when titles.json answers", () =>
    Effect.gen(function*() {
      const upstream = yield* fakeUpstream([
        (_, url) => url.pathname === "/api/versioner/v1/titles.json" ? json({ titles: [], meta: {} }) : undefined
      ])
      const app = yield* WebApp.make(PublicApp, { ecfrBaseUrl: upstream.url })
      const { body, response } = yield* app.json("/health")
      expect(response.status).toBe(200)
      expect(response.headers.get("cache-control")).toBe("no-store")
      expect(body).toMatchObject({
        status: "ok",
        version: "2.3.0",
        ecfr: "ok",
        service: "Export Compliance Data Service"
      })
      expect(Date.parse(body.timestamp)).not.toBeNaN()
      expect(body.cache.dataCacheControl).toBe("public, max-age=3600, stale-while-revalidate=86400")
      expect(upstream.hits.get("/api/versioner/v1/titles.json")).toBe(1)
    }))

  it.scoped("reports `error: <detail>` and degraded status when the upstream fails", () =>
    Effect.gen(function*() {
      const upstream = yield* fakeUpstream()
      upstream.down = 503
      const app = yield* WebApp.make(PublicApp, { ecfrBaseUrl: upstream.url })
      const { body } = yield* app.json("/health")
      expect(body.status).toBe("degraded")
      expect(body.ecfr).toMatch(/^error: .*503/)
    }))
})
