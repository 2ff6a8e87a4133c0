import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { layerFixed } from "../../src/services/Auth.ts"
import { bearers, principals } from "../support/Principals.ts"
import { startRegulatoryDataServer } from "../support/RegulatoryDataServer.ts"

/** Issue 19, finding 9: the smaller REST findings, each failing before its fix. */
describe("REST findings of the external review", () => {
  let server: Awaited<ReturnType<typeof startRegulatoryDataServer>>
  beforeAll(async () => {
    server = await startRegulatoryDataServer({ auth: layerFixed(principals) })
  })
  afterAll(() => server.close())

  const keyed = { authorization: `Bearer ${bearers.apiKey}` }

  it("problem bodies carry SPEC's error and message fields and no internal _tag", async () => {
    const response = await server.get("/api/no-such-endpoint")
    expect(response.status).toBe(404)
    const problem = await response.json()
    expect(problem).not.toHaveProperty("_tag")
    expect(problem).toMatchObject({
      type: `${server.url}/problems/not-found`,
      title: "Not found",
      status: 404,
      detail: "No endpoint at this path.",
      error: "not_found",
      message: "No endpoint at this path."
    })
    expect(problem.instance).toBe(response.headers.get("x-request-id"))
  })

  it("a decode failure is an invalid_request problem whose message repeats the detail", async () => {
    const response = await server.get("/api/country-chart")
    expect(response.status).toBe(400)
    const problem = await response.json()
    expect(problem).not.toHaveProperty("_tag")
    expect(problem.error).toBe("invalid_request")
    expect(problem.message).toBe(problem.detail)
  })

  it("a rejected parameter is explained by what it must be, never by Effect's wording or the value sent", async () => {
    const invalid = async (path: string) => {
      const response = await server.get(path)
      expect(response.status).toBe(400)
      const text = await response.text()
      expect(text).not.toMatch(/Expected|actual|undefined|Unable to decode|SECRET/)
      return JSON.parse(text).invalidParams
    }
    expect(await invalid("/api/ecfr/740/search?q=x&per_page=21")).toEqual([
      { name: "per_page", in: "query", reason: "must be an integer between 1 and 20" }
    ])
    expect(await invalid("/api/ecfr/740/search?q=x&page=SECRET-PARTY")).toEqual([
      { name: "page", in: "query", reason: "must be an integer between 1 and 10000" }
    ])
    expect(await invalid("/api/ecfr/740/search")).toEqual([{ name: "q", in: "query", reason: "is required" }])
    // a reason the schema's author wrote is kept
    const [eccn] = await invalid("/api/eccn/SECRET")
    expect(eccn).toMatchObject({ name: "eccn", in: "path" })
    expect(eccn.reason).toMatch(/^must be an ECCN \(five characters/)
  })

  it("the OpenAPI document describes problems as they are sent", async () => {
    const document = await (await server.get("/openapi.json", { headers: keyed })).json()
    for (const name of ["NotFound", "InvalidRequest", "CreditsRequired"]) {
      const schema = document.components.schemas[name]
      expect(Object.keys(schema.properties), name).not.toContain("_tag")
      expect(schema.required, name).not.toContain("_tag")
      expect(schema.properties.error.type, name).toBe("string")
      expect(schema.required, name).toEqual(expect.arrayContaining(["error", "message"]))
    }
  })

  it("an unknown document slug is 404, for the contract and the render", async () => {
    const contract = await server.get("/pdf/no-such-document/contract", { headers: keyed })
    expect(contract.status).toBe(404)
    expect((await contract.json()).detail).toBe("No document type named \"no-such-document\".")
    const render = await server.get("/pdf/no-such-document?draft=1", {
      method: "POST",
      headers: { ...keyed, "content-type": "application/json" },
      body: "{}"
    })
    expect(render.status).toBe(404)
    expect((await render.json()).error).toBe("not_found")
    const known = await server.get("/pdf/classification/contract", { headers: keyed })
    expect(known.status).toBe(200)
  })

  it("the OpenAPI document still enumerates the document slugs", async () => {
    const document = await (await server.get("/openapi.json", { headers: keyed })).json()
    const parameter = document.paths["/pdf/{slug}/contract"].get.parameters.find((p: any) => p.name === "slug")
    expect(parameter.schema.enum).toContain("classification")
  })

  it("/api/country-chart sends X-Data-Stale when a stored copy answers", async () => {
    const fresh = await server.get("/api/country-chart?country=GB")
    expect(fresh.status).toBe(200)
    expect(fresh.headers.get("x-data-stale")).toBeNull()
    server.ecfr.update({ stale: true })
    try {
      const stale = await server.get("/api/country-chart?country=GB")
      expect(stale.status).toBe(200)
      expect(stale.headers.get("x-data-stale")).toBe("true; fetched-at=2026-07-23T06:00:00.000Z; issue-date=2026-07-23")
      expect((await stale.json()).sources.every((source: { stale: boolean }) => source.stale)).toBe(true)
    } finally {
      server.ecfr.update({ stale: false })
    }
  })
})
