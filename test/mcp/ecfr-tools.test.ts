import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ecfrRoutes, tempDataDir } from "../support/EcfrFake.ts"
import { type FakeUpstream, startFakeUpstream } from "../support/FakeUpstream.ts"
import { callTool, modernPost, productionApp } from "../support/mcp/McpTestApp.ts"
import { bearers } from "../support/Principals.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

/** The eCFR tools answer what `/api/ecfr/*` answers, from the same fake eCFR and snapshot store. */
describe("MCP eCFR tools", () => {
  let fake: FakeUpstream
  let server: RunningServer
  beforeAll(async () => {
    fake = await startFakeUpstream([ecfrRoutes()])
    server = await startServer({
      app: productionApp(),
      config: { ecfrBaseUrl: fake.url, dataDir: tempDataDir(), rateLimitPerMinute: 0 }
    })
  })
  afterAll(async () => {
    await server.close()
    await fake.close()
  })

  const rest = async (path: string) => (await server.get(path)).json()

  it("get_ecfr_part and get_ecfr_sections answer the REST documents, naming the eCFR issue", async () => {
    const part = await callTool(server, "get_ecfr_part", { part: 740 })
    expect(part.result.structuredContent).toEqual(await rest("/api/ecfr/740"))
    expect(part.result._meta).toMatchObject({ "svc/ecfrIssueDate": "2026-11-18", "svc/stale": false })
    const sections = await callTool(server, "get_ecfr_sections", { part: 740 })
    expect(sections.result.structuredContent).toEqual(await rest("/api/ecfr/740/sections"))
  })

  it("get_ecfr_text answers the plain text with its citation", async () => {
    const { result } = await callTool(server, "get_ecfr_text", { part: 740, section: "740.1" })
    const plain = await (await server.get("/api/ecfr/740/plain/740.1")).text()
    expect(result.content[0].text).toBe(`${plain}\n— 15 CFR 740.1, eCFR as of 2026-11-18\n`)
    const missing = await callTool(server, "get_ecfr_text", { part: 740, section: "740.999" })
    expect(missing.result.isError).toBe(true)
    const unsupported = await callTool(server, "get_ecfr_text", { part: 730, section: "730.1" })
    expect(unsupported.result.isError).toBe(true)
    expect(unsupported.result.content[0].text).toContain("part")
  })

  it("serves sections as svc://ecfr/<part>/<section> resources", async () => {
    const read = async (uri: string) =>
      (await modernPost(server, "resources/read", { uri }, { authorization: `Bearer ${bearers.apiKey}` })).json()
    expect((await read("svc://ecfr/740/740.1")).result.contents).toEqual([{
      uri: "svc://ecfr/740/740.1",
      mimeType: "text/plain",
      text: await (await server.get("/api/ecfr/740/plain/740.1")).text()
    }])
    for (const missing of ["svc://ecfr/740/740.999", "svc://ecfr/730/730.1", "svc://ecfr/740/../x"]) {
      expect((await read(missing)).error).toMatchObject({ code: -32602, data: { uri: missing } })
    }
  })

  it("search_ecfr_part and search_ecfr_title answer the REST searches", async () => {
    const part = await callTool(server, "search_ecfr_part", { part: 740, query: "license exception", per_page: 5 })
    expect(part.result.isError).toBeUndefined()
    expect(part.result.structuredContent).toEqual(await rest("/api/ecfr/740/search?q=license%20exception&per_page=5"))
    const title = await callTool(server, "search_ecfr_title", { query: "license exception" })
    expect(title.result.structuredContent).toEqual(await rest("/api/ecfr/search?q=license%20exception"))
  })
})
