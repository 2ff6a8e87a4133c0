import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ecfrRoutes, tempDataDir } from "../support/EcfrFake.ts"
import { type FakeUpstream, startFakeUpstream } from "../support/FakeUpstream.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

describe("eCFR search", () => {
  let fake: FakeUpstream
  let server: RunningServer
  let searchDown = false
  beforeAll(async () => {
    fake = await startFakeUpstream([ecfrRoutes()])
    fake.route((_request, url) => searchDown && url.pathname.startsWith("/api/search/") ? { status: 503 } : undefined)
    server = await startServer({ config: { ecfrBaseUrl: fake.url, dataDir: tempDataDir(), rateLimitPerMinute: 0 } })
  })
  afterAll(async () => {
    await server.close()
    await fake.close()
  })

  const search = async (path: string) => {
    const response = await server.get(path)
    return { status: response.status, body: await response.json() }
  }
  const searchRequests = () =>
    fake.requests.filter((r) => r.url.startsWith("/api/search/")).map((r) => new URL(r.url, fake.url).searchParams)

  it("pages through a part search with opaque cursors", async () => {
    const pages: Array<any> = []
    let path = "/api/ecfr/740/search?q=lantern&per_page=2"
    for (;;) {
      const { body, status } = await search(path)
      expect(status).toBe(200)
      pages.push(body)
      if (body.meta.nextCursor === null) break
      path = `/api/ecfr/740/search?q=lantern&cursor=${encodeURIComponent(body.meta.nextCursor)}`
    }
    expect(pages.map((p) => p.meta.page)).toEqual([1, 2, 3])
    expect(pages.map((p) => p.results.length)).toEqual([2, 2, 1])
    expect(pages[0]).toMatchObject({ part: 740, title: 15, label: "License Exceptions", query: "lantern" })
    expect(pages[0].meta).toMatchObject({ perPage: 2, totalCount: 5, totalPages: 3, engine: "ecfr" })
    expect(pages.flatMap((p) => p.results.map((r: any) => r.section))).toEqual([
      "740.1",
      "740.2",
      "740.3",
      "Supplement No. 1 to Part 740",
      "Supplement No. 3 to Part 740"
    ])
    const sent = searchRequests().slice(-3)
    expect(sent.map((p) => p.get("page"))).toEqual(["1", "2", "3"])
    for (const params of sent) {
      expect(params.get("query")).toBe("lantern")
      expect(params.get("per_page")).toBe("2")
      expect(params.get("hierarchy[title]")).toBe("15")
      expect(params.get("hierarchy[part]")).toBe("740")
      expect(params.get("date")).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    }
  })

  it("maps eCFR results: highlights kept, the rest escaped, headings plain", async () => {
    const { body } = await search("/api/ecfr/740/search?q=lantern&per_page=5")
    expect(body.results[1]).toEqual({
      type: "section",
      score: 33.25,
      part: 740,
      section: "740.2",
      sectionHeading: "Restrictions on all License Exceptions.",
      partHeading: "License Exceptions",
      excerpt: "Placeholder paragraph of the second section, about harbor cranes &amp; a <strong>lantern</strong> " +
        "of 5 &lt; 6 units…",
      startsOn: "2026-11-14",
      endsOn: null
    })
    expect(body.results[3]).toMatchObject({ type: "appendix", sectionHeading: "Country Groups" })
  })

  it("keeps only current content when eCFR returns ended or removed versions", async () => {
    const result = (section: string, extra: Record<string, unknown>) => ({
      starts_on: "2019-01-01",
      ends_on: null,
      type: "Section",
      hierarchy: { title: "15", part: "740", section },
      headings: { part: "License Exceptions", section: "Heading." },
      full_text_excerpt: "old <strong>words</strong>",
      score: 1,
      ...extra
    })
    fake.route((_request, url) =>
      url.searchParams.get("query") === "historic"
        ? {
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            results: [
              result("740.1", { ends_on: "2020-01-01" }),
              result("740.2", { removed: true }),
              result("740.3", {})
            ],
            meta: { current_page: 1, total_pages: 1, total_count: 3 }
          })
        }
        : undefined
    )
    const { body } = await search("/api/ecfr/740/search?q=historic")
    expect(body.results.map((r: any) => r.section)).toEqual(["740.3"])
  })

  it("rejects altered cursors and cursors of another search with 400", async () => {
    const { body } = await search("/api/ecfr/740/search?q=lantern&per_page=2")
    const cursor: string = body.meta.nextCursor
    const altered = `${cursor.slice(0, 5)}${cursor[5] === "A" ? "B" : "A"}${cursor.slice(6)}`
    const cases = [
      `/api/ecfr/740/search?q=lantern&cursor=${encodeURIComponent(altered)}`,
      `/api/ecfr/740/search?q=lantern&cursor=${encodeURIComponent("eyJwYWdlIjoyfQ")}`,
      `/api/ecfr/740/search?q=beacon&cursor=${encodeURIComponent(cursor)}`,
      `/api/ecfr/744/search?q=lantern&cursor=${encodeURIComponent(cursor)}`,
      `/api/ecfr/search?q=lantern&cursor=${encodeURIComponent(cursor)}`
    ]
    for (const path of cases) {
      const { body: problem, status } = await search(path)
      expect(status).toBe(400)
      expect(problem.invalidParams).toEqual([expect.objectContaining({ name: "cursor", in: "query" })])
    }
  })

  it("searches a whole title", async () => {
    const { body } = await search("/api/ecfr/search?q=lantern&per_page=3")
    expect(body).toMatchObject({ title: 15, query: "lantern" })
    expect(body.meta).toMatchObject({ totalCount: 5, totalPages: 2, engine: "ecfr" })
    expect(typeof body.meta.nextCursor).toBe("string")
    expect(searchRequests().at(-1)!.has("hierarchy[part]")).toBe(false)
    const { body: next } = await search(`/api/ecfr/search?q=lantern&cursor=${encodeURIComponent(body.meta.nextCursor)}`)
    expect(next.meta).toMatchObject({ page: 2, nextCursor: null })
    expect((await search("/api/ecfr/search?q=lantern&title=22")).body.results).toEqual([])
  })

  describe("while eCFR search is down", () => {
    beforeAll(() => {
      searchDown = true
    })
    afterAll(() => {
      searchDown = false
    })

    it("answers part searches from the local index, flagged in meta, with working cursors", async () => {
      const { body, status } = await search("/api/ecfr/740/search?q=lantern&per_page=1")
      expect(status).toBe(200)
      expect(body.meta.engine).toBe("local-index")
      expect(body.meta.notice).toContain("eCFR search is unavailable")
      expect(body.meta.searchedParts).toEqual([740])
      expect(body.source).toBe("local-index:2026-11-18")
      expect(body.meta.totalCount).toBe(1)
      expect(body.results[0]).toMatchObject({
        type: "section",
        part: 740,
        section: "740.1",
        sectionHeading: "Introduction.",
        partHeading: "License Exceptions",
        startsOn: "2017-01-09",
        endsOn: null
      })
      expect(body.results[0].excerpt).toContain("The word <strong>lantern</strong> marks")
      const two = await search("/api/ecfr/740/search?q=placeholder&per_page=2")
      expect(two.body.meta.totalPages).toBeGreaterThan(1)
      const next = await search(
        `/api/ecfr/740/search?q=placeholder&cursor=${encodeURIComponent(two.body.meta.nextCursor)}`
      )
      expect(next.body.meta.page).toBe(2)
      expect(next.body.results.map((r: any) => r.section)).not.toContain(two.body.results[0].section)
    })

    it("answers title searches from the stored parts of that title, or 503 when there are none", async () => {
      await server.get("/api/ecfr/121")
      const { body } = await search("/api/ecfr/search?q=lantern")
      expect(body.meta).toMatchObject({ engine: "local-index", searchedParts: [740] })
      expect(body.results.every((r: any) => r.part === 740)).toBe(true)
      const usml = await search("/api/ecfr/search?q=lantern&title=22")
      expect(usml.body.results.map((r: any) => r.section)).toEqual(["121.0"])
      const empty = await search("/api/ecfr/742/search?q=lantern")
      expect(empty.status).toBe(503)
    })
  })
})
