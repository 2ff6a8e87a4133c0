import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ecfrRoutes, tempDataDir } from "./support/EcfrFake.ts"
import { fixtureParts, writeSavedResponses } from "./support/EcfrFixtures.ts"
import { type FakeUpstream, startFakeUpstream } from "./support/FakeUpstream.ts"
import { type RunningServer, startServer } from "./support/TestServer.ts"

describe("ECCN and Country Chart through the live eCFR mirror", () => {
  let fake: FakeUpstream
  let server: RunningServer
  beforeAll(async () => {
    fake = await startFakeUpstream([ecfrRoutes(writeSavedResponses(fixtureParts()))])
    server = await startServer({ config: { ecfrBaseUrl: fake.url, dataDir: tempDataDir(), rateLimitPerMinute: 0 } })
  })
  afterAll(async () => {
    await server.close()
    await fake.close()
  })

  it("fetches part 774 once through the mirror and answers entries from it", async () => {
    const entry = await (await server.get("/api/eccn/3A001?format=json")).json()
    expect(entry.entry.licenseRequirements.reasonForControl).toEqual(["NS", "RS", "MT", "NP", "AT"])
    expect((await server.get("/api/eccn/5A002.a.1")).status).toBe(200)
    expect([...fake.hits].filter(([path]) => /\/full\//.test(path)).reduce((n, [, hits]) => n + hits, 0)).toBe(1)
  })

  it("answers the Country Chart from parts 738, 740 and 746 of the mirror", async () => {
    const body = await (await server.get("/api/country-chart?country=China&eccn=3A001")).json()
    expect(body.countryGroups.rowLabel).toBe("China (PRC)")
    expect(body.eccnCheck.licenseRequiredColumns).toContain("NS2")
  })

  it("lists both endpoints in the index and the public OpenAPI document", async () => {
    const index = await (await server.get("/")).json()
    expect(index.endpoints.ecfr.some((line: string) => line.startsWith("GET /api/eccn/{eccn} — "))).toBe(true)
    expect(index.endpoints.ecfr.some((line: string) => line.startsWith("GET /api/country-chart — "))).toBe(true)
    expect(index.endpoints.radar[0]).toMatch(/^GET \/api\/radar — /)
    const openapi = await (await server.get("/openapi.json")).json()
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining(["/api/eccn/{eccn}", "/api/country-chart", "/api/radar"])
    )
  })
})
