import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Option, Redacted } from "effect"
import { readFileSync } from "node:fs"
import { type FakeUpstream, startFakeUpstream } from "../support/FakeUpstream.ts"
import { callTool, productionApp } from "../support/mcp/McpTestApp.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

const fixture = (name: string) => readFileSync(new URL(`../fixtures/research/${name}`, import.meta.url), "utf8")
const jsonReply = (body: string) => ({ headers: { "content-type": "application/json; charset=utf-8" }, body })

/** A long rule: the same synthetic fixture document with a body far over the tool's 40,000 characters. */
const longNumber = "2099-05555"
const longBody = "Synthetic paragraph of a long test rule. ".repeat(2_500)

/** The research tools answer exactly what their REST twins answer, from the same fake upstreams. */
describe("MCP research tools", () => {
  let upstream: FakeUpstream
  let server: RunningServer
  beforeAll(async () => {
    const document = fixture("federal-register-document.json")
    upstream = await startFakeUpstream([
      (_request, url) =>
        url.pathname === "/api/v1/documents.json" ? jsonReply(fixture("federal-register-search.json")) : undefined,
      (_request, url) => url.pathname === "/api/v1/documents/2099-01234.json" ? jsonReply(document) : undefined,
      (_request, url) =>
        url.pathname === `/api/v1/documents/${longNumber}.json`
          ? jsonReply(document.replaceAll("2099-01234", longNumber))
          : undefined,
      (_request, url) =>
        url.pathname === "/documents/full_text/text/2099/03/02/2099-01234.txt"
          ? { body: fixture("federal-register-document.txt") }
          : undefined,
      (_request, url) =>
        url.pathname === `/documents/full_text/text/2099/03/02/${longNumber}.txt` ? { body: longBody } : undefined,
      (_request, url) =>
        url.pathname === "/LATEST/search-index" ? jsonReply(fixture("sec-edgar-search.json")) : undefined,
      (_request, url) => url.pathname === "/api/search/v1/results" ? jsonReply(fixture("ecfr-search.json")) : undefined,
      (request, url) =>
        url.pathname === "/search" && request.method === "POST" ? jsonReply(fixture("govinfo-search.json")) : undefined,
      (_request, url) => url.pathname === "/v4/documents" ? jsonReply(fixture("regulations-search.json")) : undefined
    ])
    server = await startServer({
      app: productionApp(),
      config: {
        federalRegisterBaseUrl: upstream.url,
        secEdgarBaseUrl: upstream.url,
        ecfrBaseUrl: upstream.url,
        govinfoBaseUrl: upstream.url,
        regulationsBaseUrl: upstream.url,
        dataGovApiKey: Option.some(Redacted.make("test-data-gov-key")),
        secEdgarUserAgent: Option.some("Synthetic Test Operator ops@example.test")
      }
    })
  })
  afterAll(async () => {
    await server.close()
    await upstream.close()
  })

  const rest = async (path: string) => (await server.get(path)).json()

  it.each([
    [
      "search_federal_register",
      { query: "widgets", agency: "BIS", doc_type: "RULE", limit: 5 },
      "/api/federal-register?query=widgets&agency=BIS&doc_type=RULE&limit=5"
    ],
    [
      "search_sec_edgar",
      { query: "export controls", forms: "10-K", limit: 3 },
      "/api/sec-edgar?query=export%20controls&forms=10-K&limit=3"
    ],
    [
      "search_ecfr",
      { query: "deemed export", title: 15, limit: 2 },
      "/api/cfr-search?query=deemed%20export&title=15&limit=2"
    ],
    [
      "search_govinfo",
      { query: "export administration", collection: "CFR" },
      "/api/govinfo?query=export%20administration&collection=CFR"
    ],
    ["search_regulations", { query: "entity list" }, "/api/regulations?query=entity%20list"],
    ["get_federal_register_document", { document_number: "2099-01234" }, "/api/federal-register/2099-01234"]
  ])("%s answers what its REST twin answers", async (tool, args, path) => {
    const { result } = await callTool(server, tool, args)
    expect(result.isError).toBeUndefined()
    // searches add the state of the data beside the hits; the document read is the REST answer as is
    const state = tool.startsWith("search_") ? { data_state: "ok" } : {}
    expect(result.structuredContent).toEqual({ ...await rest(path), ...state })
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent)
  })

  it("takes numbers as JSON numbers and reports bad arguments as tool errors", async () => {
    const text = await callTool(server, "search_ecfr", { query: "x", limit: "3" })
    expect(text.result.isError).toBe(true)
    expect(text.result.content[0].text).toContain("limit")
    const blank = await callTool(server, "search_federal_register", { query: "   " })
    expect(blank.result.isError).toBe(true)
  })

  it("get_federal_register_document pages long bodies within the result budget and names the next call", async () => {
    const { result } = await callTool(server, "get_federal_register_document", { document_number: longNumber })
    const answer = result.structuredContent
    expect(result.content[0].text.length).toBeLessThanOrEqual(20_000)
    expect(answer.document.body_truncated).toBe(true)
    const full = await rest(`/api/federal-register/${longNumber}`)
    expect(full.document.body.length).toBeGreaterThan(100_000)
    expect(answer.document.body_chars).toBe(full.document.body_chars)
    expect(answer.document.body).toBe(full.document.body.slice(0, answer.next_offset))
    expect(answer.rest).toContain(`get_federal_register_document {"document_number":"${longNumber}","offset":`)
    const second = await callTool(server, "get_federal_register_document", {
      document_number: longNumber,
      offset: answer.next_offset
    })
    expect(second.result.structuredContent.body_offset).toBe(answer.next_offset)
    expect(full.document.body.startsWith(answer.document.body + second.result.structuredContent.document.body))
      .toBe(true)
  })

  it("answers an unknown document number as a tool error", async () => {
    const { result } = await callTool(server, "get_federal_register_document", { document_number: "2099-00001" })
    expect(result.isError).toBe(true)
    expect(result.content[0].text).toMatch(/^Federal Register document not found: /)
  })

  it("fails soft like REST when the upstream is down", async () => {
    upstream.down = 503
    try {
      const { result } = await callTool(server, "search_regulations", { query: "down test" })
      expect(result.isError).toBeUndefined()
      expect(result.structuredContent.results).toEqual([])
      expect(result.structuredContent.error).toEqual(expect.any(String))
      expect(result.structuredContent.data_state).toBe("error")
    } finally {
      upstream.down = undefined
    }
  })
})
