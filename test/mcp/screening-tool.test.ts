import { FetchHttpClient } from "@effect/platform"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Layer } from "effect"
import { AppRoutes } from "../../src/http/App.ts"
import { forRuntime } from "../../src/layers/Main.ts"
import { PublicServices } from "../../src/layers/Public.ts"
import * as Auth from "../../src/services/Auth.ts"
import * as DataGeneration from "../../src/services/DataGeneration.ts"
import * as Screening from "../../src/services/Screening.ts"
import { callTool } from "../support/mcp/McpTestApp.ts"
import { principals } from "../support/Principals.ts"
import { fixedRegulatoryStatus, fixtureText, suspendedAffiliatesRule } from "../support/ScreeningApp.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"
import { testStore } from "../support/TestStore.ts"

/** The fixture list plus a parent and its subsidiaries, named the way the Entity List names them. */
const withHuawei = (() => {
  const list = JSON.parse(fixtureText)
  const template = list.results.find((entry: { name: string }) => entry.name.startsWith("Shenzhen Huaxing"))
  const entry = (name: string, n: number) => ({ ...template, name, alt_names: [], id: `huawei-${n}` })
  list.results.push(
    entry("Huawei Technologies Co., Ltd. (Huawei). Affiliated Entity: Huawei Marine Networks Co., Ltd.", 1),
    entry("Chengdu Huawei Technologies Co., Ltd.", 2),
    entry("Huawei Technologies Co., Ltd. (Huawei)", 3),
    entry("Huawei Technologies Co., Ltd. (Huawei). Affiliated Entity: Shanghai Huawei Technologies Co., Ltd.", 4)
  )
  return JSON.stringify(list)
})()

/** search_csl and `GET /api/csl` over one fixture list: the tool answers what the endpoint answers. */
describe("MCP search_csl", () => {
  let server: RunningServer
  beforeAll(async () => {
    const screening = Screening.layerFromText(withHuawei).pipe(
      Layer.provide(
        Layer.mergeAll(DataGeneration.layer, fixedRegulatoryStatus(suspendedAffiliatesRule), FetchHttpClient.layer)
      )
    )
    const overrides = Layer.mergeAll(Auth.layerFixed(principals), screening)
    server = await startServer({
      app: forRuntime(AppRoutes.pipe(Layer.provide(overrides), Layer.provide(PublicServices)), "node test", testStore)
    })
  })
  afterAll(() => server.close())

  it("format full answers the REST screening response for the same request", async () => {
    const { result } = await callTool(server, "search_csl", {
      name: "Rustam Karimoff",
      sources: ["SDN"],
      size: 5,
      format: "full"
    })
    expect(result.isError, result.content[0].text).toBeUndefined()
    const rest = await (await server.get("/api/csl?name=Rustam%20Karimoff&sources=SDN&size=5")).json()
    expect(result.structuredContent).toEqual(rest)
    expect(result.structuredContent.result).toBe("potential_match")
  })

  it("answers compactly by default: analyst fields per hit, the notes once, a no-match under 1,500 characters", async () => {
    const { result } = await callTool(server, "search_csl", { name: "Rustam Karimoff", sources: ["SDN"] })
    const answer = result.structuredContent
    expect(answer).toMatchObject({ result: "potential_match", lists: ["SDN"] })
    expect(answer.parties).toHaveLength(1)
    expect(answer.parties[0].matches[0]).toMatchObject({
      name: "KARIMOV, Rustam Valerievich",
      list: "SDN",
      score: expect.any(Number)
    })
    expect(answer.affiliates_rule).toMatch(/^Suspended through/)
    expect(answer.note).toMatch(/human adjudication/)
    expect(result.content[0].text).toBe(JSON.stringify(answer))

    const clear = await callTool(server, "search_csl", { name: "Zyxwv Qponm Holdings" })
    expect(clear.result.structuredContent).toMatchObject({ result: "no_match", parties: [{ total: 0, matches: [] }] })
    expect(clear.result.content[0].text.length).toBeLessThan(1_500)
  })

  it("screens several names in one call, and takes list codes as an array or as \"EL,SDN\"", async () => {
    const { result } = await callTool(server, "search_csl", {
      names: ["Rustam Karimoff", "Kazan Aviation Repair Plant", "Zyxwv Qponm Holdings"],
      sources: "sdn, MEU"
    })
    expect(result.isError, result.content[0].text).toBeUndefined()
    const answer = result.structuredContent
    expect(answer.lists).toEqual(["SDN", "MEU"])
    expect(answer.parties.map((party: { name: string; result: string }) => [party.name, party.result])).toEqual([
      ["Rustam Karimoff", "potential_match"],
      ["Kazan Aviation Repair Plant", "potential_match"],
      ["Zyxwv Qponm Holdings", "no_match"]
    ])
    expect(answer.result).toBe("potential_match")
    // the shared notes come once, however many names
    expect(result.content[0].text.match(/human adjudication/g)).toHaveLength(1)
  })

  it("ranks the parent entity at or above its subsidiaries for the same query", async () => {
    const { result } = await callTool(server, "search_csl", { name: "Huawei Technologies Co., Ltd.", sources: "EL" })
    const names = result.structuredContent.parties[0].matches.map((match: { name: string }) => match.name)
    expect(names[0]).toBe("Huawei Technologies Co., Ltd. (Huawei)")
    expect(names).toContain("Chengdu Huawei Technologies Co., Ltd.")
  })

  it("says why each hit scored, and lists the corporate family apart from the matches", async () => {
    const karimoff = await callTool(server, "search_csl", { name: "Rustam Karimoff", sources: ["SDN"] })
    expect(karimoff.result.structuredContent.parties[0].matches[0].why).toMatch(/^rustam, karimoff/)
    const { result } = await callTool(server, "search_csl", { name: "Chengdu Huawei", sources: "EL", size: 2 })
    const party = result.structuredContent.parties[0]
    expect(party.matches.map((match: { name: string }) => match.name)).toEqual([
      "Chengdu Huawei Technologies Co., Ltd."
    ])
    // "Huawei" is common in this small list: the family is every name with "chengdu", none besides the match
    expect(party).not.toHaveProperty("name_contained")
    const family = (await callTool(server, "search_csl", { name: "Shanghai Huawei", sources: "EL", size: 2 })).result
      .structuredContent.parties[0]
    expect(family.total).toBe(0)
    expect(family.name_contained).toEqual({
      total: 1,
      matches: [{
        id: expect.any(String),
        name: "Huawei Technologies Co., Ltd. (Huawei). Affiliated Entity: Shanghai Huawei Technologies Co., Ltd.",
        score: expect.any(Number),
        list: "EL"
      }]
    })
    expect(result.structuredContent.affiliates_rule).toMatch(/name_contained: listed names containing/)
  })

  it("pages each name with next_offset, in the same order as the first page", async () => {
    const args = { name: "Huawei Technologies", sources: "EL", min_score: 50 }
    const first = await callTool(server, "search_csl", { ...args, size: 2 })
    const page = first.result.structuredContent.parties[0]
    expect(page.total).toBeGreaterThan(3)
    expect(page.matches).toHaveLength(2)
    expect(page.next_offset).toBe(2)
    const all = await callTool(server, "search_csl", { ...args, size: 10 })
    const second = await callTool(server, "search_csl", { ...args, size: 2, offset: 2 })
    const ids = (answer: any) => answer.result.structuredContent.parties[0].matches.map((m: { id: string }) => m.id)
    expect([...ids(first), ...ids(second)]).toEqual(ids(all).slice(0, 4))
  })

  it("reports invalid requests as tool errors an agent can act on", async () => {
    const { result } = await callTool(server, "search_csl", { name: "", sources: ["NOPE"] })
    expect(result.isError).toBe(true)
    expect(result.content[0].text).toMatch(/^Invalid arguments: /)
    const nobody = await callTool(server, "search_csl", { sources: "EL" })
    expect(nobody.result.content[0].text).toBe("Invalid arguments: `name` is required unless `names` is given")
    const fullOfMany = await callTool(server, "search_csl", { names: ["a b", "c d"], format: "full" })
    expect(fullOfMany.result.content[0].text).toBe(
      "Invalid arguments: `format` must be compact for several names (`full` takes one)"
    )
    const tooMany = await callTool(server, "search_csl", { names: Array.from({ length: 11 }, (_, i) => `Party ${i}`) })
    expect(tooMany.result.content[0].text).toMatch(/at most 10 parties/)
  })
})
