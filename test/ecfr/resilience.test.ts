import { afterEach, describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { ageSnapshot, ecfrFixtures, ecfrHits, ecfrRoutes, eventually, tempDataDir } from "../support/EcfrFake.ts"
import { type FakeUpstream, startFakeUpstream } from "../support/FakeUpstream.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

const xml740 = readFileSync(join(ecfrFixtures, "title-15/part-740.xml"), "utf8")
const titles = readFileSync(join(ecfrFixtures, "titles.json"), "utf8")

describe("eCFR mirror resilience", () => {
  const running: Array<{ close: () => Promise<void> }> = []
  afterEach(async () => {
    for (const item of running.splice(0).reverse()) await item.close()
  })
  const fakeUpstream = async () => {
    const fake = await startFakeUpstream([ecfrRoutes()])
    running.push(fake)
    return fake
  }
  const server = async (fake: FakeUpstream, dataDir: string) => {
    const started = await startServer({ config: { ecfrBaseUrl: fake.url, dataDir, rateLimitPerMinute: 0 } })
    running.push(started)
    return started
  }
  const stop = async (started: RunningServer) => {
    running.splice(running.indexOf(started), 1)
    await started.close()
  }
  /** A data directory holding part 740, last confirmed by eCFR two hours ago. */
  const agedStore = async (fake: FakeUpstream) => {
    const dataDir = tempDataDir()
    const first = await server(fake, dataDir)
    expect((await first.get("/api/ecfr/740")).status).toBe(200)
    await stop(first)
    ageSnapshot(dataDir, 740, 2)
    return dataDir
  }
  /** eCFR announces a new issue of title 15 whose part 740 XML is `xml`. */
  const newIssue = (fake: FakeUpstream, xml: string) => {
    fake.route((_request, url) => {
      if (url.pathname.endsWith("/titles.json")) return { body: titles.replace("2026-11-18", "2026-11-19") }
      if (url.pathname.includes("/full/")) return { headers: { "content-type": "application/xml" }, body: xml }
      return undefined
    })
  }
  const staleHeader = (started: RunningServer, path: string) =>
    eventually(async () => {
      const response = await started.get(path)
      await response.arrayBuffer()
      return response.headers.get("x-data-stale") ?? undefined
    })

  it("fills a missing part with exactly one upstream fetch however many requests wait", async () => {
    const fake = await fakeUpstream()
    const started = await server(fake, tempDataDir())
    const paths = ["/api/ecfr/740", "/api/ecfr/740/sections", "/api/ecfr/740/text/740.1", "/api/ecfr/740/versions"]
    const responses = await Promise.all(Array.from({ length: 16 }, (_, i) => started.get(paths[i % paths.length]!)))
    expect(responses.map((r) => r.status)).toEqual(Array(16).fill(200))
    expect(ecfrHits(fake.hits)).toEqual({ titles: 1, structure: 1, full: 1, versions: 1, search: 0 })
    const full = fake.requests.find((r) => r.url.includes("/full/"))!
    expect(full.url).toBe("/api/versioner/v1/full/2026-11-18/title-15.xml?part=740")
  })

  it("answers 503 when the upstream is down and nothing is stored", async () => {
    const fake = await fakeUpstream()
    fake.down = 503
    const started = await server(fake, tempDataDir())
    const response = await started.get("/api/ecfr/740/sections")
    expect(response.status).toBe(503)
    const body = await response.json()
    expect(body.type).toMatch(/\/problems\/upstream-unavailable$/)
    expect(body.detail).toContain("part 740 is not stored yet")
    const meta = await (await started.get("/api/ecfr/meta")).json()
    const state = meta.cache.parts.find((p: any) => p.part === 740)
    expect(state.state).toBe("empty")
    expect(state.lastFailure.detail).toContain("503")
    fake.down = "reset"
    expect((await started.get("/api/ecfr/121")).status).toBe(503)
  })

  it("serves the stored snapshot after a restart without contacting the upstream", async () => {
    const fake = await fakeUpstream()
    const dataDir = tempDataDir()
    const first = await server(fake, dataDir)
    const original = await (await first.get("/api/ecfr/740/sections")).text()
    await stop(first)
    fake.down = "reset"
    const before = fake.requests.length
    const second = await server(fake, dataDir)
    const response = await second.get("/api/ecfr/740/sections")
    expect(response.status).toBe(200)
    expect(response.headers.get("x-data-stale")).toBeNull()
    expect(await response.text()).toBe(original)
    expect(fake.requests.length).toBe(before)
  })

  it("serves an expired snapshot marked stale when the upstream is down", async () => {
    const fake = await fakeUpstream()
    const dataDir = await agedStore(fake)
    fake.down = 503
    const started = await server(fake, dataDir)
    const first = await started.get("/api/ecfr/740/text/740.1")
    expect(first.status).toBe(200)
    const header = await staleHeader(started, "/api/ecfr/740/text/740.1")
    expect(header).toMatch(/^true; fetched-at=\d{4}-\d{2}-\d{2}T[\d:.]+Z; issue-date=2026-11-18$/)
    const sections = await started.get("/api/ecfr/740/sections")
    expect(sections.status).toBe(200)
    expect(sections.headers.get("x-data-stale")).toBe(header)
    const meta = await (await started.get("/api/ecfr/meta")).json()
    expect(meta.cache.parts.find((p: any) => p.part === 740)).toMatchObject({ state: "stale", loaded: true })
  })

  it("keeps serving the last good snapshot when the upstream sends malformed XML", async () => {
    const fake = await fakeUpstream()
    const dataDir = await agedStore(fake)
    newIssue(fake, xml740.slice(0, Math.floor(xml740.length * 0.6)))
    const started = await server(fake, dataDir)
    expect((await started.get("/api/ecfr/740/sections")).status).toBe(200)
    await staleHeader(started, "/api/ecfr/740/sections")
    const response = await started.get("/api/ecfr/740/plain/740.1")
    expect(response.headers.get("x-ecfr-issue-date")).toBe("2026-11-18")
    expect(await response.text()).toContain("The word lantern marks this paragraph")
    const meta = await (await started.get("/api/ecfr/meta")).json()
    expect(meta.cache.parts.find((p: any) => p.part === 740).lastFailure.detail).toContain("malformed XML")
  })

  it("answers 503, not a crash, for malformed XML when nothing is stored", async () => {
    const fake = await fakeUpstream()
    newIssue(fake, "<DIV5 N=\"740\" TYPE=\"PART\"><DIV8 N=\"740.1\"><HEAD>§ 740.1</HEAD><P>cut")
    const started = await server(fake, tempDataDir())
    const response = await started.get("/api/ecfr/740")
    expect(response.status).toBe(503)
    expect((await response.json()).detail).toContain("malformed XML")
    expect((await started.get("/health")).status).toBe(200)
  })

  it("revalidates an expired snapshot in the background and serves the new issue once it is in", async () => {
    const fake = await fakeUpstream()
    const dataDir = await agedStore(fake)
    newIssue(fake, xml740.replace("The word lantern marks", "The word beacon marks"))
    const started = await server(fake, dataDir)
    const first = await started.get("/api/ecfr/740/plain/740.1")
    expect(first.headers.get("x-ecfr-issue-date")).toBe("2026-11-18")
    expect(await first.text()).toContain("The word lantern marks")
    const updated = await eventually(async () => {
      const response = await started.get("/api/ecfr/740/plain/740.1")
      const text = await response.text()
      return text.includes("beacon") ? response : undefined
    })
    expect(updated.headers.get("x-ecfr-issue-date")).toBe("2026-11-19")
    expect(updated.headers.get("x-data-stale")).toBeNull()
  })

  it("moves an unchanged part to a new issue date without serving the old date", async () => {
    const fake = await fakeUpstream()
    const dataDir = await agedStore(fake)
    newIssue(fake, xml740)
    const started = await server(fake, dataDir)
    await started.get("/api/ecfr/740/sections")
    await eventually(async () => {
      const response = await started.get("/api/ecfr/740/sections")
      await response.arrayBuffer()
      return response.headers.get("x-ecfr-issue-date") === "2026-11-19" ? true : undefined
    })
    const meta = await (await started.get("/api/ecfr/meta")).json()
    expect(meta.cache.parts.find((p: any) => p.part === 740)).toMatchObject({ state: "fresh", issueDate: "2026-11-19" })
  })
})
