import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { EccnAnswer } from "../../src/domain/Eccn.ts"
import * as Tool from "../../src/mcp/Tool.ts"
import * as Auth from "../../src/services/Auth.ts"
import { type FakeUpstream, startFakeUpstream } from "../support/FakeUpstream.ts"
import { callTool, modernPost } from "../support/mcp/McpTestApp.ts"
import { bearers, principals } from "../support/Principals.ts"
import { startRegulatoryDataServer } from "../support/RegulatoryDataServer.ts"
import type { RunningServer } from "../support/TestServer.ts"

const radarFixture = readFileSync(new URL("../fixtures/radar/documents-newest.json", import.meta.url), "utf8")

/** ECCN, Country Chart and radar tools answer what their REST twins answer, over the eCFR fixtures. */
describe("MCP ECCN, Country Chart and rule-change tools", () => {
  let fake: FakeUpstream
  let server: RunningServer
  beforeAll(async () => {
    fake = await startFakeUpstream([
      (_request, url) =>
        url.pathname === "/api/v1/documents.json"
          ? { headers: { "content-type": "application/json" }, body: radarFixture }
          : undefined
    ])
    server = await startRegulatoryDataServer({
      auth: Auth.layerFixed(principals),
      config: { federalRegisterBaseUrl: fake.url }
    })
  })
  afterAll(async () => {
    await server.close()
    await fake.close()
  })

  const rest = async (path: string) => (await server.get(path, { headers: { accept: "application/json" } })).json()

  it("get_eccn answers the JSON entry, a paragraph, EAR99, and names the nearest ECCNs when unknown", async () => {
    for (const eccn of ["3A001", "5A002.a.1", "EAR99"]) {
      const { result } = await callTool(server, "get_eccn", { eccn })
      expect(result.isError, eccn).toBeUndefined()
      expect(result.structuredContent).toEqual(await rest(`/api/eccn/${eccn}`))
    }
    const unknown = await callTool(server, "get_eccn", { eccn: "3A999" })
    expect(unknown.result.isError).toBe(true)
    expect(unknown.result.content[0].text).toMatch(/ECCN 3A999/)
    const malformed = await callTool(server, "get_eccn", { eccn: "3A0011" })
    expect(malformed.result.content[0].text).toMatch(/^Invalid arguments: `eccn` must be an ECCN/)
  })

  it("lists get_eccn without an output schema; its two-kind answer still renders as an object schema", async () => {
    const { result } = await (await modernPost(server, "tools/list")).json()
    const tool = result.tools.find((t: { name: string }) => t.name === "get_eccn")
    expect(tool.outputSchema).toBeUndefined()
    const schema = Tool.jsonSchemaOf(EccnAnswer)
    expect(schema.type).toBe("object")
    expect(schema.anyOf).toHaveLength(2)
  })

  it("get_country_chart_row answers the REST lookup, with and without an ECCN", async () => {
    const row = await callTool(server, "get_country_chart_row", { country: "United Kingdom" })
    expect(row.result.structuredContent).toEqual(await rest("/api/country-chart?country=United%20Kingdom"))
    const withEccn = await callTool(server, "get_country_chart_row", { country: "CN", eccn: "3A001" })
    expect(withEccn.result.structuredContent).toEqual(await rest("/api/country-chart?country=CN&eccn=3A001"))
    const unknown = await callTool(server, "get_country_chart_row", { country: "Atlantis" })
    expect(unknown.result.isError).toBe(true)
  })

  it("get_country_chart_row answers per control row for a paragraph: NP not for 6A003.b.4.b, RS depending", async () => {
    const { result } = await callTool(server, "get_country_chart_row", { country: "China", eccn: "6A003.b.4.b" })
    expect(result.structuredContent).toEqual(await rest("/api/country-chart?country=China&eccn=6A003.b.4.b"))
    const statuses = result.structuredContent.eccnCheck.controls.map((row: { result: string }) => row.result)
    expect(statuses).toEqual([
      "license_required",
      "not_for_this_paragraph",
      "depends",
      "depends",
      "no_x_in_column",
      "stated_in_text"
    ])
    const missing = await callTool(server, "get_country_chart_row", { country: "China", eccn: "6A003.b.9" })
    expect(missing.result.isError).toBe(true)
    expect(missing.result.content[0].text).toMatch(/has no paragraph \.b\.9; its item text was read\. Nearest/)
  })

  it("get_eccn says whether the entry's item text was there when a paragraph is missing", async () => {
    const unreadable = await callTool(server, "get_eccn", { eccn: "1C350.b" })
    expect(unreadable.result.isError).toBe(true)
    expect(unreadable.result.content[0].text).toMatch(
      /^ECCN not found: The eCFR text of ECCN 1C350 \(2026-07-23\) as parsed here holds no List of Items Controlled/
    )
  })

  it("reads ECCN entries and Country Chart rows as resources", async () => {
    const read = async (uri: string) =>
      (await modernPost(server, "resources/read", { uri }, { authorization: `Bearer ${bearers.apiKey}` })).json()
    expect((await read("svc://eccn/3A001")).result.contents).toEqual([{
      uri: "svc://eccn/3A001",
      mimeType: "text/plain",
      text: await (await server.get("/api/eccn/3A001")).text()
    }])
    const row = (await read("svc://country-chart/United%20Kingdom")).result.contents[0]
    expect(row.mimeType).toBe("application/json")
    expect(JSON.parse(row.text)).toEqual(await rest("/api/country-chart?country=United%20Kingdom"))
    for (const missing of ["svc://eccn/3A999", "svc://eccn/%ZZ", "svc://country-chart/Atlantis"]) {
      expect((await read(missing)).error).toMatchObject({ code: -32602, data: { uri: missing } })
    }
  })

  it("get_rule_changes answers the radar, narrowed by ECCN and limit", async () => {
    const all = await callTool(server, "get_rule_changes", { topic: "semiconductors" })
    const radar = await rest("/api/radar?topic=semiconductors")
    expect(all.result.structuredContent).toEqual(radar)
    const named = radar.results.flatMap((item: { eccns: Array<string> }) => item.eccns)[0] as string
    expect(named).toBeDefined()
    const narrowed = await callTool(server, "get_rule_changes", { topic: "semiconductors", eccn: named, limit: 1 })
    expect(narrowed.result.structuredContent.count).toBe(1)
    expect(narrowed.result.structuredContent.results[0].eccns).toContain(named)
  })
})
