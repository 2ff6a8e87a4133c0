import { FetchHttpClient } from "@effect/platform"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Option, TestClock } from "effect"
import { existsSync, readFileSync } from "node:fs"
import * as AppConfig from "../src/services/AppConfig.ts"
import * as Radar from "../src/services/Radar.ts"
import { type FakeUpstream, startFakeUpstream } from "./support/FakeUpstream.ts"
import { type RunningServer, startServer } from "./support/TestServer.ts"

const fixture = (name: string) => readFileSync(new URL(`fixtures/radar/${name}`, import.meta.url), "utf8")
const jsonReply = (body: string) => ({ headers: { "content-type": "application/json" }, body })

describe("GET /api/radar", () => {
  let fake: FakeUpstream
  let server: RunningServer
  let reply = fixture("documents-newest.json")
  beforeAll(async () => {
    fake = await startFakeUpstream([
      (_request, url) => url.pathname === "/api/v1/documents.json" ? jsonReply(reply) : undefined
    ])
    server = await startServer({ config: { federalRegisterBaseUrl: fake.url, rateLimitPerMinute: 0 } })
  })
  afterAll(async () => {
    await server.close()
    await fake.close()
  })

  it("lists recent documents with the ECCNs and CFR parts they touch", async () => {
    const response = await server.get("/api/radar?topic=semiconductors")
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body).toMatchObject({ topic: "semiconductors", count: 2, stale: false })
    expect(body.error).toBeUndefined()
    expect(body.query).toEqual({
      agencies: ["industry-and-security-bureau"],
      types: ["RULE", "PRORULE"],
      term: "semiconductor"
    })
    expect(body.results[0]).toEqual({
      documentNumber: "2026-90001",
      title: "Test Fixture: Rule Amending Entries 3A090 and 4A090 of the Commerce Control List",
      type: "Rule",
      agencies: ["Commerce Department", "Industry and Security Bureau"],
      publicationDate: "2026-08-20",
      effectiveOn: "2026-08-20",
      abstract: expect.stringMatching(/^Plainly generic test text/),
      citation: "91 FR 90001",
      htmlUrl: "https://www.federalregister.gov/documents/2026/08/20/2026-90001/test-fixture",
      pdfUrl: "https://www.govinfo.gov/content/pkg/FR-2026-08-20/pdf/2026-90001.pdf",
      eccns: ["3A090", "3A090.a", "4A090"],
      cfrParts: ["15 CFR 730", "15 CFR 740", "15 CFR 774"]
    })
    expect(body.results[1]).toMatchObject({ abstract: null, pdfUrl: null, eccns: [], cfrParts: ["31 CFR 589"] })

    const sent = new URL(fake.requests.at(-1)!.url, fake.url).searchParams
    expect(sent.getAll("conditions[agencies][]")).toEqual(["industry-and-security-bureau"])
    expect(sent.getAll("conditions[type][]")).toEqual(["RULE", "PRORULE"])
    expect(sent.get("conditions[term]")).toBe("semiconductor")
    expect(sent.get("order")).toBe("newest")
    expect(sent.getAll("fields[]")).toContain("cfr_references")
  })

  it("serves a topic from its cache instead of asking the upstream again", async () => {
    const before = fake.hits.get("/api/v1/documents.json") ?? 0
    await server.get("/api/radar?topic=firearms")
    await server.get("/api/radar?topic=firearms&x=1")
    expect(fake.hits.get("/api/v1/documents.json")).toBe(before + 1)
  })

  it("answers the zero-hit shape (no `results` key) with an empty list and no error", async () => {
    reply = fixture("documents-zero-hits.json")
    try {
      const body = await (await server.get("/api/radar?topic=suppressors")).json()
      expect(body).toMatchObject({ topic: "suppressors", count: 0, results: [], stale: false })
      expect(body.error).toBeUndefined()
    } finally {
      reply = fixture("documents-newest.json")
    }
  })

  it("fails soft when the upstream is down or answers garbage: 200 with results [] and an error", async () => {
    fake.down = 503
    try {
      const response = await server.get("/api/radar?topic=affiliates")
      expect(response.status).toBe(200)
      const body = await response.json()
      expect(body).toMatchObject({ topic: "affiliates", count: 0, results: [], fetchedAt: null })
      expect(body.error).toMatch(/^federal-register: /)
    } finally {
      fake.down = undefined
    }
    reply = "{\"results\": \"not a list\"}"
    try {
      const body = await (await server.get("/api/radar?topic=ai")).json()
      expect(body.results).toEqual([])
      expect(body.error).toMatch(/unexpected shape/)
    } finally {
      reply = fixture("documents-newest.json")
    }
  })

  it("lists all three agencies without a topic and rejects an unknown topic with 400", async () => {
    const body = await (await server.get("/api/radar")).json()
    expect(body.topic).toBeNull()
    expect(body.query.agencies).toEqual([
      "industry-and-security-bureau",
      "state-department",
      "foreign-assets-control-office"
    ])
    const bad = await server.get("/api/radar?topic=weather")
    expect(bad.status).toBe(400)
    expect((await bad.json()).invalidParams[0].name).toBe("topic")
  })
})

describe("Radar cache", () => {
  it.effect("refetches after six hours and serves the last good answer, marked stale, when the upstream then fails", () =>
    Effect.gen(function*() {
      const fake = yield* Effect.acquireRelease(
        Effect.promise(() =>
          startFakeUpstream([
            (_request, url) =>
              url.pathname === "/api/v1/documents.json" ? jsonReply(fixture("documents-newest.json")) : undefined
          ])
        ),
        (fake) => Effect.promise(() => fake.close())
      )
      const radar = yield* Radar.make.pipe(
        Effect.provide(Layer.merge(AppConfig.layerWith({ federalRegisterBaseUrl: fake.url }), FetchHttpClient.layer))
      )
      const hits = () => fake.hits.get("/api/v1/documents.json") ?? 0
      yield* radar.recent("ai")
      yield* TestClock.adjust("5 hours")
      yield* radar.recent("ai")
      expect(hits()).toBe(1)
      yield* TestClock.adjust("61 minutes")
      fake.down = 500
      // The retry backoff sleeps on the TestClock: move it along until the call settles.
      const call = yield* Effect.fork(radar.recent("ai"))
      while (Option.isNone(yield* Fiber.poll(call))) {
        yield* TestClock.adjust("250 millis")
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
      }
      const stale = yield* Fiber.join(call)
      expect(hits()).toBeGreaterThan(1)
      expect(stale).toMatchObject({ stale: true, count: 2 })
      expect(stale.error).toMatch(/answered 500/)
    }).pipe(Effect.scoped))
})

const sample = new URL("../../shared/data/federal-register/documents-search.week-2026-08-17.json", import.meta.url)
describe.skipIf(!existsSync(sample))("Radar over a real Federal Register search response", () => {
  it("reads every document of the shared sample", async () => {
    const fake = await startFakeUpstream([() => jsonReply(readFileSync(sample, "utf8"))])
    const server = await startServer({ config: { federalRegisterBaseUrl: fake.url, rateLimitPerMinute: 0 } })
    try {
      const body = await (await server.get("/api/radar")).json()
      const expected = JSON.parse(readFileSync(sample, "utf8")).results.length
      expect(body.error).toBeUndefined()
      expect(body.results).toHaveLength(expected)
      expect(body.results[0].documentNumber).toMatch(/^\d{4}-\d+$/)
    } finally {
      await server.close()
      await fake.close()
    }
  })
})
