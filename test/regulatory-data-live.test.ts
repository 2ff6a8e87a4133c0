import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PublicApp } from "../src/layers/Public.ts"
import { ecfrRoutes, tempDataDir } from "./support/EcfrFake.ts"
import { fixtureParts, writeSavedResponses } from "./support/EcfrFixtures.ts"
import * as WebApp from "./support/WebApp.ts"

const suite = WebApp.layerOverUpstream(
  [ecfrRoutes(writeSavedResponses(fixtureParts()))],
  PublicApp,
  (ecfrBaseUrl) => ({ ecfrBaseUrl, dataDir: tempDataDir(), rateLimitPerMinute: 0 })
)

describe("ECCN and Country Chart through the live eCFR mirror", () => {
  it.layer(suite)((it) => {
    it.effect("fetches part 774 once through the mirror and answers entries from it", () =>
      Effect.gen(function*() {
        const { body: entry } = yield* WebApp.fetchJson("/api/eccn/3A001?format=json")
        expect(entry.entry.licenseRequirements.reasonForControl).toEqual(["NS", "RS", "MT", "NP", "AT"])
        expect((yield* WebApp.fetchApp("/api/eccn/5A002.a.1")).status).toBe(200)
        const fake = yield* WebApp.Upstream
        expect([...fake.hits].filter(([path]) => /\/full\//.test(path)).reduce((n, [, hits]) => n + hits, 0)).toBe(1)
      }))

    it.effect("answers the Country Chart from parts 738, 740 and 746 of the mirror", () =>
      Effect.gen(function*() {
        const { body } = yield* WebApp.fetchJson("/api/country-chart?country=China&eccn=3A001")
        expect(body.countryGroups.rowLabel).toBe("China (PRC)")
        expect(body.eccnCheck.licenseRequiredColumns).toContain("NS2")
      }))

    it.effect("lists both endpoints in the index and the public OpenAPI document", () =>
      Effect.gen(function*() {
        const { body: index } = yield* WebApp.fetchJson("/")
        expect(index.endpoints.ecfr.some((line: string) => line.startsWith("GET /api/eccn/{eccn} — "))).toBe(true)
        expect(index.endpoints.ecfr.some((line: string) => line.startsWith("GET /api/country-chart — "))).toBe(true)
        expect(index.endpoints.radar[0]).toMatch(/^GET \/api\/radar — /)
        const { body: openapi } = yield* WebApp.fetchJson("/openapi.json")
        expect(Object.keys(openapi.paths)).toEqual(
          expect.arrayContaining(["/api/eccn/{eccn}", "/api/country-chart", "/api/radar"])
        )
      }))
  })
})
