import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Option, Redacted } from "effect"
import { readFileSync } from "node:fs"
import * as Research from "../src/services/Research.ts"
import { appWith } from "./support/AppWith.ts"
import { type FakeUpstream, json, startFakeUpstream } from "./support/FakeUpstream.ts"
import { type RunningServer, startServer } from "./support/TestServer.ts"

const fixture = (name: string) => readFileSync(new URL(`./fixtures/research/${name}`, import.meta.url), "utf8")
const fixtureJson = (name: string) => ({
  status: 200,
  headers: { "content-type": "application/json; charset=utf-8" },
  body: fixture(name)
})

/** Short timeouts so that a hanging upstream costs the suite well under a second. */
const fastResearch = Research.layerWith({
  timeout: "400 millis",
  retries: 0,
  breaker: { failures: 1000, cooldownMillis: 1 }
})

const get = async (server: RunningServer, path: string) => {
  const response = await server.get(path)
  return { response, body: await response.json() as any }
}

describe("research searches", () => {
  let upstream: FakeUpstream
  let server: RunningServer
  beforeAll(async () => {
    upstream = await startFakeUpstream([
      (_request, url) =>
        url.pathname === "/api/v1/documents.json" ? fixtureJson("federal-register-search.json") : undefined,
      (_request, url) =>
        url.pathname === "/api/v1/documents/2099-01234.json"
          ? fixtureJson("federal-register-document.json")
          : undefined,
      (_request, url) =>
        url.pathname === "/documents/full_text/text/2099/03/02/2099-01234.txt"
          ? { headers: { "content-type": "text/plain" }, body: fixture("federal-register-document.txt") }
          : undefined,
      (_request, url) => url.pathname === "/LATEST/search-index" ? fixtureJson("sec-edgar-search.json") : undefined,
      (_request, url) => url.pathname === "/api/search/v1/results" ? fixtureJson("ecfr-search.json") : undefined,
      (request, url) =>
        url.pathname === "/search" && request.method === "POST" ? fixtureJson("govinfo-search.json") : undefined,
      (_request, url) => url.pathname === "/v4/documents" ? fixtureJson("regulations-search.json") : undefined
    ])
    server = await startServer({
      config: {
        federalRegisterBaseUrl: upstream.url,
        secEdgarBaseUrl: upstream.url,
        ecfrBaseUrl: upstream.url,
        govinfoBaseUrl: upstream.url,
        regulationsBaseUrl: upstream.url,
        dataGovApiKey: Option.some(Redacted.make("test-data-gov-key")),
        secEdgarUserAgent: Option.some("Synthetic Test Operator ops@example.test")
      },
      app: appWith(fastResearch)
    })
  })
  afterAll(async () => {
    await server.close()
    await upstream.close()
  })

  const lastRequest = (path: string) => {
    const request = [...upstream.requests].reverse().find((r) => new URL(r.url, "http://x").pathname === path)
    if (!request) throw new Error(`no request to ${path}`)
    return { ...request, params: new URL(request.url, "http://x").searchParams }
  }

  describe("GET /api/federal-register", () => {
    it("maps agency and document type to Federal Register conditions and normalizes the hits", async () => {
      const { body, response } = await get(
        server,
        "/api/federal-register?query=synthetic+widget&agency=BIS&doc_type=RULE&limit=5"
      )
      expect(response.status).toBe(200)
      expect(response.headers.get("cache-control")).toBe("public, max-age=3600, stale-while-revalidate=86400")
      expect(body).toMatchObject({ query: "synthetic widget", count: 2, total: 2 })
      expect(body.error).toBeUndefined()
      expect(body.results[0]).toEqual({
        document_number: "2099-01234",
        title: "Export Administration Regulations: Synthetic Test Rule on Example Widgets",
        type: "Rule",
        abstract: expect.stringContaining("synthetic test rule"),
        agencies: ["Commerce Department", "Industry and Security Bureau"],
        publication_date: "2099-03-02",
        effective_on: "2099-03-02",
        citation: "164 FR 12345",
        html_url: expect.stringContaining("/documents/2099/03/02/2099-01234/"),
        pdf_url: "https://www.govinfo.gov/content/pkg/FR-2099-03-02/pdf/2099-01234.pdf"
      })
      expect(body.results[1]).toMatchObject({ abstract: null, effective_on: null, pdf_url: null })
      const sent = lastRequest("/api/v1/documents.json").params
      expect(sent.get("conditions[term]")).toBe("synthetic widget")
      expect(sent.getAll("conditions[agencies][]")).toEqual(["industry-and-security-bureau"])
      expect(sent.getAll("conditions[type][]")).toEqual(["RULE"])
      expect(sent.get("per_page")).toBe("5")
      expect(sent.getAll("fields[]")).toContain("document_number")
    })

    it("sends upstream no trace headers: tracing is off and nothing collects traces", async () => {
      await get(server, "/api/federal-register?query=trace+headers")
      const { headers } = lastRequest("/api/v1/documents.json")
      expect(headers.traceparent).toBeUndefined()
      expect(headers.b3).toBeUndefined()
    })

    it("answers the same search from its cache", async () => {
      const path = "/api/federal-register?query=cached+search&limit=3"
      await get(server, path)
      const before = upstream.hits.get("/api/v1/documents.json")
      // a different Accept skips the response microcache, so the service cache answers
      await server.get(path, { headers: { accept: "application/json, */*" } })
      expect(upstream.hits.get("/api/v1/documents.json")).toBe(before)
    })

    it("reads a zero-hit answer without a results key as an empty result, not an error", async () => {
      upstream.route((_request, url) =>
        url.searchParams.get("conditions[term]") === "zzqqxx"
          ? fixtureJson("federal-register-zero-hits.json")
          : undefined
      )
      const { body } = await get(server, "/api/federal-register?query=zzqqxx")
      expect(body).toMatchObject({ query: "zzqqxx", count: 0, total: 0, results: [] })
      expect(body.error).toBeUndefined()
    })

    it.each([
      [
        "malformed JSON",
        { status: 200, headers: { "content-type": "application/json" }, body: "{\"count\": 3, \"res" },
        /unexpected format/
      ],
      [
        "an HTML error page",
        { status: 200, headers: { "content-type": "text/html" }, body: "<html>busy</html>" },
        /unexpected format/
      ],
      ["a 5xx", { status: 502, body: "bad gateway" }, /answered HTTP 502/],
      ["a hang", { status: 200, body: "{}", delay: 3000 }, /did not answer in time/]
    ])("fails soft on %s: 200, empty results, an error and no-store", async (_name, reply, message) => {
      const term = `failure-${_name.replace(/\W/g, "")}`
      upstream.route((_request, url) => url.searchParams.get("conditions[term]") === term ? reply : undefined)
      const { body, response } = await get(server, `/api/federal-register?query=${term}`)
      expect(response.status).toBe(200)
      expect(response.headers.get("cache-control")).toBe("no-store")
      expect(body).toMatchObject({ count: 0, total: null, results: [] })
      expect(body.error).toMatch(message)
    })

    it("answers afresh once the upstream recovers: degraded answers are not kept by any cache", async () => {
      const path = "/api/federal-register?query=recovers+later"
      let failing = true
      upstream.route((_request, url) =>
        failing && url.searchParams.get("conditions[term]") === "recovers later" ? { status: 503 } : undefined
      )
      expect((await get(server, path)).body.error).toMatch(/HTTP 503/)
      failing = false
      const { body } = await get(server, path)
      expect(body.error).toBeUndefined()
      expect(body.count).toBe(2)
    })

    it.each([
      ["no query", "/api/federal-register", "query"],
      ["a blank query", "/api/federal-register?query=%20%20", "query"],
      ["an oversize query", `/api/federal-register?query=${"a".repeat(301)}`, "query"],
      ["a limit over 100", "/api/federal-register?query=x&limit=101", "limit"],
      ["a non-numeric limit", "/api/federal-register?query=x&limit=ten", "limit"],
      ["an unknown agency", "/api/federal-register?query=x&agency=NASA", "agency"],
      ["an unknown document type", "/api/federal-register?query=x&doc_type=rule", "doc_type"]
    ])("rejects %s with a 400 naming the parameter", async (_name, path, parameter) => {
      const { body, response } = await get(server, path)
      expect(response.status).toBe(400)
      expect(response.headers.get("content-type")).toContain("application/problem+json")
      expect(body.invalidParams.map((p: { name: string }) => p.name)).toContain(parameter)
    })
  })

  describe("GET /api/federal-register/{document_number}", () => {
    it("serves metadata and the plain text, fetched from the configured host only", async () => {
      const { body, response } = await get(server, "/api/federal-register/2099-01234")
      expect(response.status).toBe(200)
      expect(body.error).toBeUndefined()
      const document = body.document
      expect(document).toMatchObject({
        document_number: "2099-01234",
        action: "Final rule.",
        dates: "This rule is effective March 2, 2099.",
        docket_ids: ["Docket No. 990101-0001"],
        cfr_references: [{ title: 15, part: 774 }, { title: 15, part: null }],
        body_truncated: false
      })
      expect(document.body).toContain("Export Administration Regulations: Synthetic Test Rule on Example\nWidgets")
      expect(document.body).toContain("Widgets & gadgets are <example> items.")
      expect(document.body).not.toContain("<pre>")
      expect(document.body_chars).toBe(document.body.length)
      expect(upstream.hits.get("/documents/full_text/text/2099/03/02/2099-01234.txt")).toBe(1)
    })

    it("answers 404 when the Federal Register has no such document", async () => {
      upstream.route((_request, url) =>
        url.pathname === "/api/v1/documents/2099-99999.json"
          ? json({ status: 404, message: "Not found" }, 404)
          : undefined
      )
      const { body, response } = await get(server, "/api/federal-register/2099-99999")
      expect(response.status).toBe(404)
      expect(body.type).toMatch(/\/problems\/federal-register-document-not-found$/)
      expect(body.document_number).toBe("2099-99999")
    })

    it("keeps the metadata when only the text fails, and says so", async () => {
      upstream.route((_request, url) =>
        url.pathname === "/api/v1/documents/2099-05555.json"
          ? fixtureJson("federal-register-document.json")
          : url.pathname.endsWith("2099-01234.txt") && upstream.hits.get("/api/v1/documents/2099-05555.json")
          ? { status: 503, body: "down" }
          : undefined
      )
      const { body, response } = await get(server, "/api/federal-register/2099-05555")
      expect(response.status).toBe(200)
      expect(response.headers.get("cache-control")).toBe("no-store")
      expect(body.document.body).toBeNull()
      expect(body.error).toMatch(/^Metadata found, but text unavailable/)
    })

    it("fails soft when the Federal Register is down", async () => {
      upstream.route((_request, url) =>
        url.pathname === "/api/v1/documents/2099-07777.json" ? { status: 500 } : undefined
      )
      const { body, response } = await get(server, "/api/federal-register/2099-07777")
      expect(response.status).toBe(200)
      expect(body).toMatchObject({ document_number: "2099-07777", document: null })
      expect(body.error).toMatch(/answered HTTP 500/)
    })

    it.each(["..%2F..%2Fetc%2Fpasswd", "2099-01234.json", "2099_01234", "abc", "2099-01234%20OR%201", "99999-1"])(
      "rejects the malformed document number %s with a 400",
      async (number) => {
        const requestsBefore = upstream.requests.length
        const { body, response } = await get(server, `/api/federal-register/${number}`)
        expect(response.status).toBe(400)
        expect(body.invalidParams[0]).toMatchObject({ name: "document_number", in: "path" })
        expect(upstream.requests.length).toBe(requestsBefore)
      }
    )
  })

  describe("GET /api/sec-edgar", () => {
    it("sends the operator User-Agent and builds archive links from the hits", async () => {
      const { body, response } = await get(
        server,
        "/api/sec-edgar?query=%22export+controls%22&forms=8-k,10-K&date_from=2020-01-01&limit=1"
      )
      expect(response.status).toBe(200)
      expect(body).toMatchObject({ configured: true, count: 1, total: 2 })
      expect(body.results[0]).toEqual({
        accession_number: "0009999999-99-000123",
        form: "8-K",
        file_date: "2099-01-15",
        period_ending: "2098-12-31",
        companies: ["Example Synthetic Holdings Inc  (EXSY)  (CIK 0009999999)"],
        ciks: ["0009999999"],
        description: "PRESS RELEASE (SYNTHETIC TEST FIXTURE)",
        document_url: "https://www.sec.gov/Archives/edgar/data/9999999/000999999999000123/ex991.htm",
        filing_index_url:
          "https://www.sec.gov/Archives/edgar/data/9999999/000999999999000123/0009999999-99-000123-index.htm"
      })
      const sent = lastRequest("/LATEST/search-index")
      expect(sent.headers["user-agent"]).toBe("Synthetic Test Operator ops@example.test")
      expect(sent.params.get("q")).toBe("\"export controls\"")
      expect(sent.params.get("forms")).toBe("8-K,10-K")
      expect(sent.params.get("startdt")).toBe("2020-01-01")
      expect(sent.params.get("enddt")).toBe(new Date().toISOString().slice(0, 10))
    })

    it("rejects a date range that ends before it starts", async () => {
      const { response } = await get(server, "/api/sec-edgar?query=x&date_from=2099-05-01&date_to=2099-01-01")
      expect(response.status).toBe(400)
    })

    it.each(["date_from=2099-02-30", "date_to=yesterday", "forms=10-K;DROP"])("rejects %s", async (param) => {
      const { response } = await get(server, `/api/sec-edgar?query=x&${param}`)
      expect(response.status).toBe(400)
    })
  })

  describe("GET /api/cfr-search", () => {
    it("searches the current CFR across titles, drops removed sections and keeps only <strong> highlights", async () => {
      const { body } = await get(server, "/api/cfr-search?query=destination+control")
      expect(body).toMatchObject({ title: null, count: 2, total: 3 })
      expect(body.results[0]).toEqual({
        type: "section",
        title: 15,
        part: "758",
        section: "758.6",
        appendix: null,
        heading: "Destination control statement and other information furnished to consignees.",
        part_heading: "Export Clearance Requirements",
        excerpt: "synthetic fixture text: the <strong>destination</strong> <strong>control</strong> statement…must " +
          "accompany the shipment",
        score: 42.5,
        starts_on: "2098-05-01",
        url: `${upstream.url}/current/title-15/section-758.6`
      })
      expect(body.results[1]).toMatchObject({
        type: "appendix",
        title: 22,
        appendix: "Supplement No. 9 to Part 123",
        url: `${upstream.url}/current/title-22/part-123/appendix-Supplement%20No.%209%20to%20Part%20123`
      })
      const sent = lastRequest("/api/search/v1/results").params
      expect(sent.get("date")).toBe(new Date().toISOString().slice(0, 10))
      expect(sent.has("hierarchy[title]")).toBe(false)
      expect(sent.get("per_page")).toBe("10")
    })

    it("narrows to one title", async () => {
      await get(server, "/api/cfr-search?query=sanctions+regulations&title=31&limit=5")
      const sent = lastRequest("/api/search/v1/results").params
      expect(sent.get("hierarchy[title]")).toBe("31")
      expect(sent.get("per_page")).toBe("5")
    })

    it("rejects a title outside 1 to 50", async () => {
      const { response } = await get(server, "/api/cfr-search?query=x&title=51")
      expect(response.status).toBe(400)
    })
  })

  describe("GET /api/govinfo", () => {
    it("posts the search with the key in a header and links only to public pages", async () => {
      const { body } = await get(server, "/api/govinfo?query=export+administration&collection=cfr&limit=5")
      expect(body).toMatchObject({ configured: true, collection: "CFR", count: 1, total: 2 })
      expect(body.results[0]).toEqual({
        title: "Code of Federal Regulations, Title 15 (Synthetic Test Edition)",
        package_id: "CFR-2098-title15-vol2",
        granule_id: "CFR-2098-title15-vol2-part774",
        collection: "CFR",
        date_issued: "2098-01-01",
        last_modified: "2098-06-01T12:00:00Z",
        government_author: ["Synthetic Office of the Federal Register"],
        details_url: "https://www.govinfo.gov/app/details/CFR-2098-title15-vol2/CFR-2098-title15-vol2-part774"
      })
      expect(JSON.stringify(body)).not.toContain("test-data-gov-key")
      const sent = lastRequest("/search")
      expect(sent.method).toBe("POST")
      expect(sent.headers["x-api-key"]).toBe("test-data-gov-key")
      expect(sent.url).not.toContain("test-data-gov-key")
    })

    it("fails soft on a 5xx and still says it is configured", async () => {
      upstream.down = 500
      try {
        const { body, response } = await get(server, "/api/govinfo?query=during+outage")
        expect(response.status).toBe(200)
        expect(body).toMatchObject({ configured: true, results: [], count: 0 })
        expect(body.error).toMatch(/govinfo search answered HTTP 500/)
      } finally {
        upstream.down = undefined
      }
    })
  })

  describe("GET /api/regulations", () => {
    it("returns regulations.gov documents with the spec's field names", async () => {
      const { body } = await get(server, "/api/regulations?query=synthetic+widgets&limit=2")
      expect(body).toMatchObject({ query: "synthetic widgets", count: 1, total: 1, configured: true })
      expect(body.results[0]).toEqual({
        id: "BIS-2099-0001-0001",
        title: "Synthetic Widgets: Proposed Controls (Test Fixture)",
        agencyId: "BIS",
        documentType: "Proposed Rule",
        frDocNum: "2099-00321",
        docketId: "BIS-2099-0001",
        postedDate: "2099-01-09T05:00:00Z",
        commentEndDate: "2099-03-10T04:59:59Z",
        openForComment: true,
        url: "https://www.regulations.gov/document/BIS-2099-0001-0001"
      })
      const sent = lastRequest("/v4/documents")
      expect(sent.params.get("filter[searchTerm]")).toBe("synthetic widgets")
      expect(sent.params.get("page[size]")).toBe("5")
      expect(sent.headers["x-api-key"]).toBe("test-data-gov-key")
    })

    it("fails soft when the connection is reset", async () => {
      upstream.down = "reset"
      try {
        const { body, response } = await get(server, "/api/regulations?query=reset+case")
        expect(response.status).toBe(200)
        expect(body.error).toMatch(/could not be reached/)
      } finally {
        upstream.down = undefined
      }
    })
  })
})

describe("research searches without upstream credentials", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.close())

  it.each([
    ["/api/govinfo?query=cfr", /DATA_GOV_API_KEY/],
    ["/api/regulations?query=bis", /DATA_GOV_API_KEY/],
    ["/api/sec-edgar?query=export", /SEC_EDGAR_USER_AGENT/]
  ])("%s answers configured: false instead of 401 or 5xx", async (path, message) => {
    const { body, response } = await get(server, path)
    expect(response.status).toBe(200)
    expect(body).toMatchObject({ configured: false, results: [], count: 0 })
    expect(body.error).toMatch(message)
  })
})
