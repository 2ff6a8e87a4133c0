import { afterAll, beforeAll, describe, expect, it, vi } from "@effect/vitest"
import * as Screening from "../src/services/Screening.ts"
import { fixtureText, screeningApp } from "./support/ScreeningApp.ts"
import { type RunningServer, startServer } from "./support/TestServer.ts"

/** The 23-entry fixture with an IMO number on the vessel, for ID search. */
const withImo = (() => {
  const bulk = JSON.parse(fixtureText)
  const vessel = bulk.results.find((record: { name: string }) => record.name === "SEA FALCON")
  vessel.ids = [{ type: "Vessel Registration Identification", number: "IMO 9187629" }]
  return JSON.stringify(bulk)
})()

const app = () => screeningApp(Screening.layerFromText(withImo))

interface Result {
  line: number
  name: string
  result: string
  total: number
  matches: Array<{ name: string; score: number; match_type: string }>
  error?: string
}

// one server for the batch and GET tests; the rate-limit test has its own
let server: RunningServer
beforeAll(async () => {
  server = await startServer({ app: app(), config: { rateLimitPerMinute: 0 } })
})
afterAll(() => server.close())

describe("POST /api/csl/batch", () => {
  const post = (body: string, headers: Record<string, string> = {}, query = "") =>
    server.get(`/api/csl/batch${query}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body
    })
  const json = async (response: Response) => ({ response, body: await response.json() })

  it("screens a JSON batch: one result per name, in input order, options and per-party fields applied", async () => {
    const { body, response } = await json(
      await post(JSON.stringify({
        names: ["Zzyzx Quorble Widgets", "Rustam Karimoff", { name: "Sea Falcon", type: "Vessel" }, "Orion Maritime"],
        sources: ["SDN"]
      }))
    )
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toBe("no-store")
    expect(body.results.map((r: Result) => [r.line, r.name, r.result])).toEqual([
      [1, "Zzyzx Quorble Widgets", "no_match"],
      [2, "Rustam Karimoff", "potential_match"],
      [3, "Sea Falcon", "potential_match"],
      [4, "Orion Maritime", "potential_match"]
    ])
    expect(body.results[1].matches[0].name).toBe("KARIMOV, Rustam Valerievich")
    expect(body.results[2].matches[0]).toMatchObject({
      name: "SEA FALCON",
      field_agreement: { type: "agrees", country: null }
    })
    expect(body).toMatchObject({ count: 4, potential_matches: 3, invalid: 0, query: { sources: ["SDN"] } })
    expect(body.lists.map((list: { code: string }) => list.code)).toEqual(["SDN"])
    expect(body.affiliates_rule.owned_entities).toContain("50 Percent Rule")
    expect(body.disclaimer).toContain("human adjudication")
  })

  it("screens a CSV body of one name per line: commas kept, blank lines skipped, lines numbered", async () => {
    const csv = "KARIMOV, Rustam\r\n\r\n\"Sea Falcon\"\n-- ...\nZzyzx Quorble\n"
    const { body, response } = await json(await post(csv, { "content-type": "text/csv; charset=utf-8" }))
    expect(response.status).toBe(200)
    expect(body.results.map((r: Result) => [r.line, r.name, r.result])).toEqual([
      [1, "KARIMOV, Rustam", "potential_match"],
      [3, "Sea Falcon", "potential_match"],
      [4, "-- ...", "invalid"],
      [5, "Zzyzx Quorble", "no_match"]
    ])
    expect(body.results[2].error).toBe("name has no letters or digits to compare")
    expect(body).toMatchObject({ count: 4, potential_matches: 2, invalid: 1 })
  })

  it("reads a CSV header row with RFC 4180 quoting; formula-like names are data, echoed as sent", async () => {
    const csv = [
      "Name,Country,Type",
      "\"ORION MARITIME TRADING, L.L.C.\",ae,entity",
      "\"Sea \"\"Falcon\"\"\",,Individual",
      "=HYPERLINK(\"http://example.test\";\"x\"),,",
      "@SUM(A1:A9)"
    ].join("\n")
    const { body, response } = await json(await post(csv, { "content-type": "text/csv" }, "?min_score=50"))
    expect(response.status).toBe(200)
    const [orion, falcon, formula, sum] = body.results as Array<Result & { matches: Array<any> }>
    expect(orion).toMatchObject({ line: 2, name: "ORION MARITIME TRADING, L.L.C.", result: "potential_match" })
    expect(orion!.matches[0].field_agreement).toMatchObject({ country: "agrees", type: "agrees" })
    expect(falcon!.name).toBe("Sea \"Falcon\"")
    expect(falcon!.matches[0]).toMatchObject({ name: "SEA FALCON", field_agreement: { type: "disagrees" } })
    expect(formula!.name).toBe("=HYPERLINK(\"http://example.test\";\"x\")")
    expect(sum).toMatchObject({ line: 5, name: "@SUM(A1:A9)" })
    expect(body.query.min_score).toBe(50)
  })

  it("streams NDJSON on request: the same results line by line, then the summary", async () => {
    const names = ["Rustam Karimoff", "Zzyzx Quorble", "Sea Falcon"]
    const response = await post(JSON.stringify({ names }), { accept: "application/x-ndjson" })
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("application/x-ndjson")
    const lines = (await response.text()).trimEnd().split("\n").map((line) => JSON.parse(line))
    expect(lines).toHaveLength(4)
    expect(lines.slice(0, 3).map((line) => [line.line, line.name, line.result])).toEqual([
      [1, "Rustam Karimoff", "potential_match"],
      [2, "Zzyzx Quorble", "no_match"],
      [3, "Sea Falcon", "potential_match"]
    ])
    expect(lines[3].summary).toMatchObject({ count: 3, potential_matches: 2, invalid: 0, dataset: { entries: 23 } })
    const whole = (await json(await post(JSON.stringify({ names })))).body
    expect(lines.slice(0, 3)).toEqual(whole.results)
  })

  it("takes 1,000 names and refuses 1,001 with a 400 that says so", async () => {
    const names = Array.from({ length: 1000 }, (_, i) => `Party Number ${i}`)
    const accepted = await json(await post(JSON.stringify({ names })))
    expect(accepted.response.status).toBe(200)
    expect(accepted.body.results).toHaveLength(1000)
    expect(accepted.body.results[999].line).toBe(1000)
    const refused = await json(await post(JSON.stringify({ names: [...names, "One Too Many"] })))
    expect(refused.response.status).toBe(400)
    expect(refused.body.invalidParams[0]).toMatchObject({ name: "names", reason: "must name at most 1000 parties" })
    const csv = await json(await post(`${names.join("\n")}\nOne Too Many\n`, { "content-type": "text/csv" }))
    expect(csv.response.status).toBe(400)
    expect(csv.body.invalidParams[0]).toMatchObject({
      name: "names",
      reason: "must name at most 1000 parties (got 1001)"
    })
  })

  it("refuses an oversized body with 413, and unreadable bodies with 400 naming the line or field", async () => {
    const big = await json(await post(`${"A".repeat(1_048_577)}`, { "content-type": "text/csv" }))
    expect(big.response.status).toBe(413)
    expect(big.body.type).toMatch(/\/problems\/batch-too-large$/)
    const cases: Array<[string, string, string]> = [
      ["text/csv", "name,country\nAcme,CHN\n", "line 2"],
      ["text/csv", "Acme\n\"Unclosed, Inc\nNext\n", "line 2"],
      ["text/csv", `Acme\n${"B".repeat(2100)}\n`, "line 2"],
      ["text/csv", "name\nA,B\n", "line 2"],
      ["application/json", "{\"names\": []}", "names"],
      ["application/json", "{\"names\": [\"A\"], \"size\": 99}", "size"],
      ["application/json", "{\"names\": [{\"name\": \"A\", \"country\": \"xx\"}]}", "names[0]"],
      ["application/json", "{\"names\": \"A\"", "body"],
      ["application/xml", "<names/>", "content-type"]
    ]
    for (const [type, body, parameter] of cases) {
      const { body: problem, response } = await json(await post(body, { "content-type": type }))
      expect(response.status, body).toBe(400)
      expect(problem.invalidParams[0].name, body).toContain(parameter)
    }
  })

  it("is declared in the OpenAPI document with both body types", async () => {
    const spec = await (await server.get("/openapi.json")).json()
    const operation = spec.paths["/api/csl/batch"].post
    expect(Object.keys(operation.requestBody.content).sort()).toEqual(["application/json", "text/csv"])
    expect(operation.responses["413"]).toBeTruthy()
    expect(operation.responses["429"]).toBeTruthy()
  })
})

describe("GET /api/csl country, type and ID numbers", () => {
  const csl = async (query: string) => (await (await server.get(`/api/csl?${query}`)).json())

  it("raises a score for an agreeing country and lowers it for another, saying why", async () => {
    const plain = (await csl("name=Rustam%20Karimoff&min_score=0")).matches[0]
    expect(plain.field_agreement).toBeNull()
    expect(plain.score).toBeLessThan(100)
    const raised = Math.min(100, Math.round((plain.score + 3) * 10) / 10)
    const agrees = (await csl("name=Rustam%20Karimoff&country=ru&min_score=0")).matches[0]
    expect(agrees.id).toBe(plain.id)
    expect(agrees.score).toBe(raised)
    expect(agrees.field_agreement).toEqual({
      country: "agrees",
      type: null,
      name_score: plain.score,
      adjustment: Math.round((raised - plain.score) * 10) / 10
    })
    const disagrees = (await csl("name=Rustam%20Karimoff&country=US&type=Individual&min_score=0")).matches[0]
    expect(disagrees.field_agreement).toEqual({
      country: "disagrees",
      type: "agrees",
      name_score: plain.score,
      adjustment: -7
    })
    const unknown = (await csl("name=Meridian%20Arms%20International&country=CN")).matches[0]
    expect(unknown.field_agreement).toMatchObject({ country: "unknown", adjustment: 0 })
  })

  it("lowers an entry of another type below the default threshold, and leaves unknown types alone", async () => {
    expect((await csl("name=Sea%20Falcon&type=Entity")).matches).toEqual([])
    const shown = (await csl("name=Sea%20Falcon&type=entity&min_score=50")).matches[0]
    expect(shown).toMatchObject({
      name: "SEA FALCON",
      score: 80,
      field_agreement: { type: "disagrees", name_score: 100, adjustment: -20 }
    })
    const el = (await csl("name=Novatek%20Microsystems&type=Entity")).matches[0]
    expect(el.field_agreement).toMatchObject({ type: "unknown", adjustment: 0 })
  })

  it("finds an entry by an ID number given as the name or as `id`, in any spacing or case", async () => {
    for (const query of ["name=7201550XX", "name=7201550-xx", "name=Someone%20Else&id=7201%20550%20xx"]) {
      const body = await csl(query)
      expect(body.matches[0], query).toMatchObject({
        name: "KARIMOV, Rustam Valerievich",
        match_type: "id",
        score: 100,
        matched_id: { type: "Passport", number: "7201550XX" }
      })
    }
    const imo = await csl("name=9187629")
    expect(imo.matches.map((m: { name: string; match_type: string }) => [m.name, m.match_type])).toEqual([
      ["SEA FALCON", "id"]
    ])
    expect((await csl("name=IMO%209187629&sources=EL")).matches).toEqual([])
    const name = (await csl("name=Sea%20Falcon")).matches[0]
    expect(name).toMatchObject({ match_type: "name", matched_id: null })
    expect((await csl("name=9187620")).matches).toEqual([])
  })

  it("rejects a bad country or an overlong ID without echoing it", async () => {
    for (const query of ["country=RUS", `id=${"9".repeat(65)}`]) {
      const response = await server.get(`/api/csl?name=Karimov&${query}`)
      expect(response.status, query).toBe(400)
      expect((await response.json()).invalidParams[0].name).toBe(query.split("=")[0])
    }
  })
})

describe("the anonymous limit counts a batch as its size", () => {
  let limited: RunningServer
  const lines: Array<string> = []
  const batch = (names: number, from: string) =>
    limited.get("/api/csl/batch", {
      method: "POST",
      headers: { "content-type": "text/csv", "x-forwarded-for": from },
      body: Array.from({ length: names }, (_, i) => `Secretparty Quorble ${i}`).join("\n")
    })

  beforeAll(async () => {
    vi.spyOn(console, "log").mockImplementation((text: unknown) => {
      lines.push(...String(text).split("\n"))
    })
    limited = await startServer({ app: app(), config: { rateLimitPerMinute: 10, trustProxy: 1, logLevel: "debug" } })
  })
  afterAll(async () => {
    await limited.close()
    vi.restoreAllMocks()
  })

  it("charges each name, refuses a batch that does not fit with 429 without counting it, never logs names", async () => {
    const first = await batch(5, "203.0.113.7")
    expect(first.status).toBe(200)
    expect(first.headers.get("ratelimit-remaining")).toBe("5")
    const refused = await batch(6, "203.0.113.7")
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
    expect((await refused.json()).detail).toContain("counts as 6 requests")
    // the refused batch counted its arrival only: four more names still fit
    const fits = await batch(4, "203.0.113.7")
    expect(fits.status).toBe(200)
    expect(fits.headers.get("ratelimit-remaining")).toBe("0")
    expect((await batch(11, "198.51.100.9")).status).toBe(429)
    expect((await batch(10, "198.51.100.10")).status).toBe(200)
    expect(lines.join("\n").toLowerCase()).not.toContain("secretparty")
  })
})
