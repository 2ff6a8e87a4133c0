import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { get, type IncomingHttpHeaders } from "node:http"
import { gunzipSync } from "node:zlib"
import { ecfrRoutes, tempDataDir } from "../support/EcfrFake.ts"
import { type FakeUpstream, startFakeUpstream } from "../support/FakeUpstream.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

const supported = [121, 732, 734, 738, 740, 742, 744, 746, 748, 762, 772, 774]

describe("regulatory data endpoints", () => {
  let fake: FakeUpstream
  let server: RunningServer
  beforeAll(async () => {
    fake = await startFakeUpstream([ecfrRoutes()])
    server = await startServer({ config: { ecfrBaseUrl: fake.url, dataDir: tempDataDir(), rateLimitPerMinute: 0 } })
  })
  afterAll(async () => {
    await server.close()
    await fake.close()
  })

  const json = async (path: string) => {
    const response = await server.get(path)
    return { response, body: await response.json() }
  }

  it("GET /api/ecfr/{part} answers the part's structure tree", async () => {
    const { body, response } = await json("/api/ecfr/740")
    expect(response.status).toBe(200)
    expect(response.headers.get("x-ecfr-issue-date")).toBe("2026-11-18")
    expect(response.headers.get("x-data-stale")).toBeNull()
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600, stale-while-revalidate=86400")
    expect(response.headers.get("etag")).toMatch(/^W\//)
    expect(body).toMatchObject({ identifier: "740", type: "part", label: "Part 740—License Exceptions" })
    expect(body.children.map((c: any) => [c.type, c.identifier])).toEqual([
      ["subpart", "A"],
      ["subpart", "B"],
      ["appendix", "Supplement No. 1 to Part 740"],
      ["appendix", "Supplement No. 3 to Part 740"]
    ])
    expect(body.children[0].children[0]).toMatchObject({
      identifier: "740.1",
      label: "§ 740.1 Introduction.",
      label_level: "§ 740.1",
      label_description: "Introduction.",
      type: "section"
    })
    const again = await server.get("/api/ecfr/740", { headers: { "if-none-match": response.headers.get("etag")! } })
    expect(again.status).toBe(304)
  })

  it("GET /api/ecfr/{part}/sections lists every section and supplement with clean text", async () => {
    const { body } = await json("/api/ecfr/740/sections")
    expect(body.part).toBe(740)
    expect(body.label).toBe("License Exceptions")
    expect(body.count).toBe(5)
    expect(body.sections[0]).toEqual({
      identifier: "740.1",
      label: "§ 740.1 Introduction.",
      content: expect.stringContaining("(a) Scope. Placeholder paragraph written for the tests.")
    })
    expect(body.sections.map((s: any) => s.identifier)).toContain("Supplement No. 3 to Part 740")
  })

  it("sends large bodies gzip-encoded to clients that accept it, identical once decoded", async () => {
    const raw = (acceptEncoding: string) =>
      new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        get(`${server.url}/api/ecfr/740/sections`, { headers: { "accept-encoding": acceptEncoding } }, (response) => {
          const chunks: Array<Buffer> = []
          response.on("data", (chunk) => chunks.push(chunk))
          response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }))
        }).on("error", reject)
      })
    const zipped = await raw("gzip, deflate, br")
    const plain = await raw("identity")
    const refused = await raw("gzip;q=0, *")
    expect(zipped.headers["content-encoding"]).toBe("gzip")
    expect(zipped.headers["vary"]).toBe("accept-encoding")
    expect(plain.headers["content-encoding"]).toBeUndefined()
    expect(refused.headers["content-encoding"]).toBeUndefined()
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true)
    expect(zipped.body.byteLength).toBeLessThan(plain.body.byteLength)
    expect(zipped.headers["etag"]).not.toBe(plain.headers["etag"])
    expect(JSON.parse(plain.body.toString("utf8")).count).toBe(5)
  })

  it("GET /api/ecfr/{part}/text/{section} answers a sanitized HTML fragment", async () => {
    const response = await server.get("/api/ecfr/740/text/740.3")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8")
    const html = await response.text()
    expect(html.startsWith("<section class=\"cfr-section\" data-citation=\"15 CFR 740.3\">\n<h2>§ 740.3 Shipments"))
      .toBe(
        true
      )
    expect(html).toContain("<th rowspan=\"2\">Row label</th>")
    expect(html).not.toMatch(/class="gpo_table"|<script/)
  })

  it("GET /api/ecfr/{part}/plain/{section} answers readable text", async () => {
    const response = await server.get("/api/ecfr/121/plain/121.1")
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8")
    expect(response.headers.get("x-ecfr-issue-date")).toBe("2026-11-10")
    expect(await response.text()).toBe(
      "§ 121.1 The United States Munitions List.\n\nPlaceholder Category Heading\n\n" +
        "(a) Placeholder paragraph under the category heading.\n"
    )
  })

  it("GET /api/ecfr/{part}/versions gives the latest amendment per section", async () => {
    const { body } = await json("/api/ecfr/740/versions")
    expect(body).toMatchObject({ part: 740, title: 15, latestAmendmentDate: "2026-11-14", count: 5 })
    expect(body.sections[1]).toEqual({
      identifier: "740.2",
      name: "§ 740.2 Restrictions on all License Exceptions.",
      type: "section",
      amendmentDate: "2026-11-14",
      issueDate: "2026-11-18",
      substantive: true,
      removed: false
    })
  })

  it("GET /api/ecfr/meta reports parts, cache state and schedule without fetching anything", async () => {
    await server.get("/api/ecfr/740")
    const before = fake.requests.length
    const { body, response } = await json("/api/ecfr/meta")
    expect(fake.requests.length).toBe(before)
    expect(response.headers.get("cache-control")).toBe("no-store")
    expect(body.supportedParts.map((p: any) => p.part)).toEqual(supported)
    expect(body.supportedParts[4]).toEqual({
      part: 740,
      title: 15,
      label: "License Exceptions",
      endpoint: "/api/ecfr/740",
      search: "/api/ecfr/740/search"
    })
    expect(body.source).toBe(fake.url)
    expect(body.refreshSchedule).toMatch(/^daily at 00:00 UTC/)
    expect(body.cache.freshForSeconds).toBe(3600)
    expect(body.cache.nextDailyRefresh).toMatch(/T00:00:00\.000Z$/)
    const state = (part: number) => body.cache.parts.find((p: any) => p.part === part)
    expect(state(740)).toMatchObject({ state: "fresh", loaded: true, issueDate: "2026-11-18", lastFailure: null })
    expect(state(742)).toMatchObject({ state: "empty", loaded: false, issueDate: null, fetchedAt: null })
  })

  it("lists the endpoints in the index directory and the OpenAPI document", async () => {
    const { body } = await json("/")
    expect(body.endpoints.ecfr).toContain(
      "GET /api/ecfr/{part}/text/{section} — one section as a sanitized HTML fragment"
    )
    const { body: openapi } = await json("/openapi.json")
    const part = openapi.paths["/api/ecfr/{part}"].get
    expect(part.parameters[0].schema.enum).toEqual(supported)
    expect(part.responses["400"].content["application/problem+json"].schema.anyOf).toContainEqual({
      $ref: "#/components/schemas/UnsupportedPart"
    })
    expect(part.description).toContain("X-Data-Stale")
  })

  describe("400 problems", () => {
    const problem = async (path: string) => {
      const { body, response } = await json(path)
      expect(response.status).toBe(400)
      expect(response.headers.get("content-type")).toContain("application/problem+json")
      return body
    }

    it("an unsupported part lists the supported ones", async () => {
      for (
        const path of ["/api/ecfr/999", "/api/ecfr/abc/sections", "/api/ecfr/0740/versions", "/api/ecfr/1/search?q=x"]
      ) {
        const body = await problem(path)
        expect(body.type).toMatch(/\/problems\/unsupported-part$/)
        expect(body.supportedParts).toEqual(supported)
        expect(body.invalidParams[0]).toMatchObject({ name: "part", in: "path" })
      }
    })

    it("a section id that is not <part>.<number> of that part", async () => {
      for (
        const id of ["741.1", "740.99", "740.1abc", "..%2F..%2Fetc%2Fpasswd", "Supplement%20No.%201%20to%20Part%20740"]
      ) {
        const body = await problem(`/api/ecfr/740/text/${id}`)
        expect(body.invalidParams).toEqual([expect.objectContaining({ name: "section", in: "path" })])
      }
      expect((await problem("/api/ecfr/740/plain/740.99")).detail).toContain("part 740 has no section 740.99")
    })

    it("missing or empty q, bad paging, unsupported title", async () => {
      const cases: Array<[string, string]> = [
        ["/api/ecfr/740/search", "q"],
        ["/api/ecfr/740/search?q=%20%20", "q"],
        [`/api/ecfr/740/search?q=${"x".repeat(501)}`, "q"],
        ["/api/ecfr/740/search?q=x&per_page=21", "per_page"],
        ["/api/ecfr/740/search?q=x&per_page=0", "per_page"],
        ["/api/ecfr/740/search?q=x&page=0", "page"],
        ["/api/ecfr/740/search?q=x&page=10001", "page"],
        ["/api/ecfr/740/search?q=x&page=600&per_page=20", "page"],
        ["/api/ecfr/search?q=x&title=16", "title"],
        ["/api/ecfr/search", "q"]
      ]
      for (const [path, name] of cases) {
        const body = await problem(path)
        expect(body.invalidParams.map((p: any) => p.name)).toContain(name)
      }
    })
  })
})
