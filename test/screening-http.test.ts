import { afterAll, beforeAll, describe, expect, it, vi } from "@effect/vitest"
import * as Screening from "../src/services/Screening.ts"
import { fixtureText, screeningApp } from "./support/ScreeningApp.ts"
import { type RunningServer, startServer } from "./support/TestServer.ts"

describe("GET /api/csl", () => {
  let server: RunningServer
  const csl = async (query: string) => {
    const response = await server.get(`/api/csl?${query}`)
    return { response, body: await response.json() }
  }
  const names = (body: { matches: ReadonlyArray<{ name: string }> }) => body.matches.map((match) => match.name)

  beforeAll(async () => {
    server = await startServer({ app: screeningApp(Screening.layerFromText(fixtureText)) })
  })
  afterAll(() => server.close())

  it("answers a fuzzy match with the entry, the matched alias and the list facts, cached for an hour", async () => {
    const { body, response } = await csl("name=Rustam%20Karimoff")
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600, stale-while-revalidate=86400")
    expect(response.headers.get("etag")).toMatch(/^W\//)
    expect(body.result).toBe("potential_match")
    expect(body.query).toMatchObject({ name: "Rustam Karimoff", fuzzy_name: true, min_score: 85, size: 10, offset: 0 })
    expect(body.query.sources).toHaveLength(13)
    const [match] = body.matches
    expect(match).toMatchObject({
      id: "90001",
      name: "KARIMOV, Rustam Valerievich",
      matched_name: "KARIMOFF, Rustam V.",
      matched_name_kind: "alt_name",
      source_code: "SDN",
      source: "Specially Designated Nationals (SDN) - Treasury Department",
      type: "Individual",
      programs: ["RUSSIA-EO14024"],
      alt_names: ["KARIMOV, Rustam", "KARIMOFF, Rustam V."],
      countries: ["RU"],
      dates_of_birth: ["1971-03-02"],
      ids: [{ type: "Passport", number: "7201550XX", country: "RU", issue_date: null, expiration_date: null }],
      source_list_url: "https://sanctionslist.ofac.treas.gov/Home/SdnList"
    })
    expect(match.score).toBeGreaterThanOrEqual(85)
    expect(match.score).toBeLessThanOrEqual(100)
    // the scorer's alignment with the matched alias, step by step
    expect(match.explanation.reordered).toBe(false)
    expect(match.explanation.alignment).toContainEqual({
      query: "rustam",
      listed: "rustam",
      kind: "exact",
      similarity: 1,
      weight: expect.any(Number)
    })
    expect(match.explanation.alignment).toContainEqual(
      expect.objectContaining({ query: null, listed: "v", kind: "dropped", similarity: 0 })
    )
    expect(body.dataset).toMatchObject({ entries: 23, published_at: "2026-11-20T13:15:00.015113+00:00", stale: false })
    expect(body.lists.find((list: { code: string }) => list.code === "EL")).toMatchObject({
      name: "Entity List (EL) - Bureau of Industry and Security",
      entries: 5
    })
  })

  it("always carries the Affiliates Rule and ownership notes, also when nothing matches", async () => {
    const { body } = await csl("name=Zzyzx%20Quorble%20Widgets")
    expect(body).toMatchObject({ total: 0, result: "no_match", matches: [] })
    expect(body.affiliates_rule).toMatchObject({
      state: "suspended",
      suspendedThrough: "2026-11-09",
      snapBackDate: "2026-11-10",
      owned_entities: expect.stringContaining("50 Percent Rule")
    })
    expect(body.ownership_trace.performed).toBe(false)
    expect(body.ownership_trace.checks.length).toBeGreaterThan(2)
    expect(body.disclaimer).toContain("human adjudication")
  })

  it("filters by list code, case-insensitively", async () => {
    expect(names((await csl("name=Huaxing%20Photonics&sources=el")).body)).toEqual([
      "Shenzhen Huaxing Photonics Technology Co., Ltd."
    ])
    const other = (await csl("name=Huaxing%20Photonics&sources=SDN,DPL")).body
    expect(other.matches).toEqual([])
    expect(other.query.sources).toEqual(["SDN", "DPL"])
    expect(other.lists.map((list: { code: string }) => list.code)).toEqual(["DPL", "SDN"])
  })

  it("filters by country, keeping entries that name no country", async () => {
    expect(names((await csl("name=Huaxing%20Photonics&countries=cn,hk")).body)).toHaveLength(1)
    expect(names((await csl("name=Huaxing%20Photonics&countries=US")).body)).toEqual([])
    expect(names((await csl("name=Meridian%20Arms%20International&countries=CN")).body)).toEqual([
      "Meridian Arms International, Inc."
    ])
  })

  it("lowers entries of another type below the threshold, keeping entries of unknown type", async () => {
    expect(names((await csl("name=Sea%20Falcon&type=vessel")).body)).toEqual(["SEA FALCON"])
    expect(names((await csl("name=Sea%20Falcon&type=Entity")).body)).toEqual([])
    expect(names((await csl("name=Novatek%20Microsystems&type=Entity")).body)).toHaveLength(1)
  })

  it("pages through the matches with size and offset; total counts every page", async () => {
    const all = (await csl("name=Energy%20Bank%20Commerce&min_score=20&size=50")).body
    expect(all.total).toBeGreaterThanOrEqual(3)
    const second = (await csl("name=Energy%20Bank%20Commerce&min_score=20&size=1&offset=1")).body
    expect(second.total).toBe(all.total)
    expect(second.matches).toHaveLength(1)
    expect(second.matches[0].id).toBe(all.matches[1].id)
    const past = (await csl(`name=Energy%20Bank%20Commerce&min_score=20&offset=${all.total}`)).body
    expect(past.matches).toEqual([])
    expect(past.result).toBe("potential_match")
  })

  it("exact mode (fuzzy_name=false) matches the normalized name only", async () => {
    expect(names((await csl("name=orion%20maritime%20trading%20l.l.c.&fuzzy_name=false")).body)).toEqual([
      "ORION MARITIME TRADING LLC"
    ])
    const typo = (await csl("name=ORION%20MARITIME%20TRDAING%20LLC&fuzzy_name=false")).body
    expect(typo.matches).toEqual([])
    expect(typo.query.fuzzy_name).toBe(false)
  })

  it("rejects missing, blank, repeated, wordless and overlong names without echoing them", async () => {
    const secret = "Secretparty"
    const problems = await Promise.all([
      csl(""),
      csl("name=%20%20"),
      csl(`name=${secret}&name=${secret}x`),
      csl("name=--%20..."),
      csl(`name=${secret}${"x".repeat(520)}`)
    ])
    for (const { body, response } of problems) {
      expect(response.status).toBe(400)
      expect(response.headers.get("content-type")).toBe("application/problem+json")
      expect(body.invalidParams[0].name).toBe("name")
      expect(JSON.stringify(body)).not.toContain(secret)
    }
    expect(problems[0]!.body.invalidParams[0].reason).toBe("is required")
    expect(problems[1]!.body.invalidParams[0].reason).toBe("must not be blank")
    expect(problems[4]!.body.invalidParams[0].reason).toBe("must be at most 512 characters")
  })

  it("rejects unknown list codes, bad countries and out-of-range paging", async () => {
    for (
      const query of ["sources=XYZ", "sources=", "countries=CHN", "size=0", "size=51", "offset=201", "min_score=101"]
    ) {
      const { body, response } = await csl(`name=Orion&${query}`)
      expect(response.status, query).toBe(400)
      expect(body.invalidParams[0].name, query).toMatch(new RegExp(`^${query.split("=")[0]}`))
    }
  })

  it("documents its parameters in the OpenAPI document", async () => {
    const spec = await (await server.get("/openapi.json")).json()
    const parameters = spec.paths["/api/csl"].get.parameters.map((p: { name: string }) => p.name)
    expect(parameters).toEqual([
      "name",
      "sources",
      "fuzzy_name",
      "countries",
      "type",
      "country",
      "id",
      "min_score",
      "size",
      "offset"
    ])
  })

  it("is listed in the index under intel", async () => {
    const index = await (await server.get("/")).json()
    expect(index.endpoints.intel.some((line: string) => line.startsWith("GET /api/csl — "))).toBe(true)
  })
})

describe("screening logs", () => {
  let server: RunningServer
  const lines: Array<string> = []
  beforeAll(async () => {
    vi.spyOn(console, "log").mockImplementation((text: unknown) => {
      lines.push(...String(text).split("\n"))
    })
    server = await startServer({
      config: { logLevel: "debug" },
      app: screeningApp(Screening.layerFromText(fixtureText))
    })
  })
  afterAll(async () => {
    await server.close()
    vi.restoreAllMocks()
  })

  it("never contain the screened names, matched or not, valid or not", async () => {
    const queries = [
      "Rustam%20Karimov",
      "Unlistedperson%20Nobodyknows",
      `Overlongname${"q".repeat(520)}`,
      "Sea%20Falcon"
    ]
    for (const query of queries) await (await server.get(`/api/csl?name=${query}&sources=SDN`)).arrayBuffer()
    await new Promise((resolve) => setTimeout(resolve, 50))
    const records = lines.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line))
    expect(records.filter((record) => record.route === "/api/csl")).toHaveLength(queries.length)
    expect(records.some((record) => record.msg === "screening list loaded")).toBe(true)
    const everything = lines.join("\n").toLowerCase()
    for (const word of ["karimov", "unlistedperson", "nobodyknows", "overlongname", "falcon"]) {
      expect(everything).not.toContain(word)
    }
  })
})
