import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ecfrRoutes, tempDataDir } from "../support/EcfrFake.ts"
import { syntheticPartRoute } from "../support/EcfrSynthetic.ts"
import { type FakeUpstream, startFakeUpstream } from "../support/FakeUpstream.ts"
import { callTool, modernPost, productionApp } from "../support/mcp/McpTestApp.ts"
import { bearers } from "../support/Principals.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

/** The eCFR tools answer what `/api/ecfr/*` answers, from the same fake eCFR and snapshot store. */
describe("MCP eCFR tools", () => {
  let fake: FakeUpstream
  let server: RunningServer
  beforeAll(async () => {
    // a synthetic part 774 whose Supplement No. 1 (like the real CCL) is far beyond one result's budget
    fake = await startFakeUpstream([syntheticPartRoute(774, 120_000), ecfrRoutes()])
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
    const whole = await rest("/api/ecfr/740/sections")
    expect(sections.result.structuredContent).toEqual({
      ...whole,
      offset: 0,
      next_offset: null,
      sections: whole.sections.map((section: { content: string }) => ({
        ...section,
        chars: section.content.length,
        truncated: false
      }))
    })
  })

  it("get_ecfr_sections pages a large part within the result budget, cutting only a section too big alone", async () => {
    const whole = await rest("/api/ecfr/774/sections")
    const seen: Array<string> = []
    let offset: number | null = 0
    while (offset !== null) {
      const { result } = await callTool(server, "get_ecfr_sections", { part: 774, offset })
      expect(result.content[0].text.length).toBeLessThanOrEqual(21_000)
      const page = result.structuredContent
      expect(page.count).toBe(whole.count)
      for (const section of page.sections) {
        const full = whole.sections.find((s: { identifier: string }) => s.identifier === section.identifier)
        expect(section.chars).toBe(full.content.length)
        if (section.truncated) {
          expect(page.sections).toHaveLength(1)
          expect(full.content.startsWith(section.content)).toBe(true)
          expect(section.content.length).toBeLessThan(full.content.length)
        } else expect(section.content).toBe(full.content)
        seen.push(section.identifier)
      }
      offset = page.next_offset
    }
    expect(seen).toEqual(whole.sections.map((s: { identifier: string }) => s.identifier))
  })

  it("get_ecfr_text reads supplements by the identifiers get_ecfr_part lists, and in short form", async () => {
    const listed = await rest("/api/ecfr/774")
    const supplement4 = listed.children.find((node: { identifier: string }) => node.identifier.includes("No. 4"))
    expect(supplement4.identifier).toBe("Supplement No. 4 to Part 774")
    const exact = await callTool(server, "get_ecfr_text", { part: 774, section: supplement4.identifier })
    expect(exact.result.isError).toBeUndefined()
    expect(exact.result.content[0].text).toContain("Placeholder text of supplement 4.")
    expect(exact.result.content[0].text).toMatch(
      /— 15 CFR Supplement No\. 4 to Part 774, eCFR as of \d{4}-\d{2}-\d{2}\n$/
    )
    expect(exact.result.content[0].text.length).toBeLessThan(1_000)
    for (const short of ["Supp. 4", "supplement no. 4 to part 774", "Supplement 4"]) {
      const { result } = await callTool(server, "get_ecfr_text", { part: 774, section: short })
      expect(result.content[0].text).toBe(exact.result.content[0].text)
    }
    // SPEC's REST text endpoints keep to `<part>.<number>`
    expect((await server.get(`/api/ecfr/774/plain/${encodeURIComponent("Supp. 4")}`)).status).toBe(400)
    const otherPart = await callTool(server, "get_ecfr_text", { part: 774, section: "Supplement No. 4 to Part 740" })
    expect(otherPart.result.isError).toBe(true)
    expect(otherPart.result.content[0].text).toMatch(/Supplement No\. 1 to Part 774/)
  })

  it("get_ecfr_text pages a long text and says how to read on; the pages join to the whole text", async () => {
    const section = "Supplement No. 1 to Part 774"
    const sections = await rest("/api/ecfr/774/sections")
    const whole = sections.sections.find((s: { identifier: string }) => s.identifier === section)
    const plain = `${whole.label}\n\n${whole.content}\n`
    expect(plain.length).toBeGreaterThan(60_000)
    let text = ""
    let args: Record<string, unknown> | undefined = { part: 774, section }
    let calls = 0
    while (args !== undefined) {
      const { result } = await callTool(server, "get_ecfr_text", args)
      const answer: string = result.content[0].text
      expect(answer.length).toBeLessThanOrEqual(20_500)
      const rest = /\[Characters (\d+)-(\d+) of (\d+)\.(?: Rest: get_ecfr_text (\{.*\}))?/.exec(answer)
      expect(rest).not.toBeNull()
      expect(Number(rest![3])).toBe(plain.length)
      text += answer.slice(0, answer.indexOf("[Characters "))
      args = rest![4] === undefined ? undefined : JSON.parse(rest![4])
      calls++
    }
    expect(calls).toBeGreaterThan(2)
    expect(text).toBe(plain)
    const wider = await callTool(server, "get_ecfr_text", { part: 774, section, max_chars: 50_000 })
    expect(wider.result.content[0].text.length).toBeGreaterThan(40_000)
  })

  it("get_ecfr_text slices one paragraph, under a heading, and says what is there when it is missing", async () => {
    const { result } = await callTool(server, "get_ecfr_text", { part: 121, section: "121.1", paragraph: "(a)" })
    expect(result.content[0].text).toBe(
      "§ 121.1 The United States Munitions List.\n\n(a) Placeholder paragraph under the category heading.\n" +
        "\n— 22 CFR 121.1 (a), eCFR as of 2026-11-10\n"
    )
    const headed = await callTool(server, "get_ecfr_text", {
      part: 121,
      section: "121.1",
      paragraph: "Placeholder Category Heading (a)"
    })
    expect(headed.result.content[0].text).toContain("Placeholder Category Heading\n\n(a) Placeholder paragraph")
    const missing = await callTool(server, "get_ecfr_text", { part: 121, section: "121.1", paragraph: "(c)(2)" })
    expect(missing.result.isError).toBe(true)
    expect(missing.result.content[0].text).toMatch(/no paragraph \(c\) under the text; paragraphs there: \(a\)/)
    const malformed = await callTool(server, "get_ecfr_text", { part: 121, section: "121.1", paragraph: "(a" })
    expect(malformed.result.content[0].text).toMatch(/write it as/)
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
