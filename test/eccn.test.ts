import { OpenApi } from "@effect/platform"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Api } from "../src/http/Api.ts"
import * as CclIndex from "../src/services/CclIndex.ts"
import * as DataGeneration from "../src/services/DataGeneration.ts"
import { fixtureEcfr } from "./support/EcfrFixtures.ts"
import { startRegulatoryDataServer } from "./support/RegulatoryDataServer.ts"
import type { RunningServer } from "./support/TestServer.ts"

const json = { headers: { accept: "application/json" } }

describe("GET /api/eccn/{eccn}", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startRegulatoryDataServer()
  })
  afterAll(() => server.close())

  it("answers a whole entry as clean text by default, with every block", async () => {
    const response = await server.get("/api/eccn/3A001")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8")
    expect(response.headers.get("vary")).toBe("Accept")
    expect(response.headers.get("x-ecfr-issue-date")).toBe("2026-07-23")
    expect(response.headers.get("x-data-stale")).toBeNull()
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600, stale-while-revalidate=86400")
    const text = await response.text()
    expect(text.startsWith("3A001 Electronic items as follows (see List of Items Controlled).\n")).toBe(true)
    expect(text).toContain("Category 3—Electronics; A. “End Items,”")
    expect(text).toContain("\nLicense Requirements\nReason for Control: NS, RS, MT, NP, AT\n")
    expect(text).toContain("- NS applies to entire entry | NS Column 2.")
    expect(text).toContain("\nList Based License Exceptions")
    // LVS continues over the following lines of the block
    expect(text).toMatch(/LVS: N\/A for MT, NP;[^\n]*\n {2}Yes for:\n {2}\$1500: 3A001\.c\./)
    expect(text).toContain("\nSTA: License Exception STA may not be used")
    expect(text).toContain("\nList of Items Controlled\nRelated Controls: (1) See Category XV of the USML")
    expect(text).toContain("\nItems:\na. General purpose integrated circuits, as follows:\n")
    expect(text).toContain("\n  a.1. Integrated circuits designed or rated as radiation hardened")
    expect(text).toContain("\n    a.1.a. A total dose of 5 × 10^3 Gy (Si), or higher;")
    expect(text).toContain(
      "Source: 15 CFR part 774, Supplement No. 1 (Commerce Control List), ECCN 3A001; eCFR as of 2026-07-23"
    )
  })

  it("answers the same entry as JSON with Accept: application/json or ?format=json", async () => {
    const byAccept = await server.get("/api/eccn/3A001", json)
    expect(byAccept.headers.get("content-type")).toMatch(/^application\/json/)
    const body = await byAccept.json()
    expect(body.kind).toBe("entry")
    expect(body.entry.licenseRequirements.reasonForControl).toEqual(["NS", "RS", "MT", "NP", "AT"])
    expect(body.entry.licenseRequirements.controls[1]).toEqual({
      reason: "NS",
      appliesTo: "NS applies to entire entry",
      countryChart: "NS Column 2.",
      columns: ["NS2"]
    })
    expect(body.entry.licenseExceptions.exceptions.map((e: { label: string }) => e.label)).toEqual([
      "LVS",
      "GBS",
      "AIA",
      "ACM",
      "LPP",
      "STA"
    ])
    expect(body.source).toMatchObject({ issueDate: "2026-07-23", stale: false })
    const byQuery = await (await server.get("/api/eccn/3a001?format=json")).json()
    expect(byQuery).toEqual(body)
    const forcedText = await server.get("/api/eccn/3A001?format=text", json)
    expect(forcedText.headers.get("content-type")).toBe("text/plain; charset=utf-8")
  })

  it("slices a paragraph with its subparagraphs and notes, keeping heading and control blocks", async () => {
    const a = await (await server.get("/api/eccn/5A002.a", json)).json()
    expect(a.requested).toBe("5A002.a")
    expect(a.entry.licenseRequirements.controls).toHaveLength(5)
    const paragraphs = a.entry.listOfItemsControlled.items.map((b: { paragraph: string | null }) => b.paragraph)
    expect(paragraphs.filter((p: string | null) => p !== null)).toEqual([
      "a",
      "a.1",
      "a.2",
      "a.3",
      "a.4",
      "a.4.a",
      "a.4.b"
    ])
    expect(a.entry.listOfItemsControlled.items.some((b: { text: string }) => b.text.startsWith("Technical Notes:")))
      .toBe(true)

    const a1 = await (await server.get("/api/eccn/5A002.a.1", json)).json()
    expect(a1.entry.listOfItemsControlled.items).toEqual([
      {
        kind: "paragraph",
        paragraph: "a.1",
        depth: 1,
        text: "a.1. Items having “information security” as a primary function;"
      }
    ])
    const text = await (await server.get("/api/eccn/5A002.a.1")).text()
    expect(text).toContain("Showing paragraph 5A002.a.1 with its subparagraphs and notes.")
    expect(text).toContain("EI applies to entire entry | Refer to § 742.15 of the EAR.")
    expect(text).toContain("ENC: Yes for certain EI controlled commodities")
    expect(text).not.toContain("a.2.")
  })

  it("does not mistake a note's lettered list for the entry's paragraphs (3A090 Note 1)", async () => {
    const b = await (await server.get("/api/eccn/3A090.b", json)).json()
    const items = b.entry.listOfItemsControlled.items
    expect(items[0].text).toMatch(/^b\. Integrated circuits having one or more digital processing units/)
    expect(items.map((i: { paragraph: string | null }) => i.paragraph)).toEqual(["b", "b.1", "b.2"])
    const a = await (await server.get("/api/eccn/3A090.a", json)).json()
    expect(a.entry.listOfItemsControlled.items.map((i: { kind: string }) => i.kind)).toEqual([
      "paragraph",
      "paragraph",
      "paragraph",
      "note",
      "text",
      "text",
      "text"
    ])
  })

  it("reads entries whose heading is an FP-1 and whose blocks are HD1 headings", async () => {
    const entry = (await (await server.get("/api/eccn/9A610", json)).json()).entry
    expect(entry.heading).toMatch(/^Military Aircraft and Related Commodities/)
    expect(entry.category).toEqual({ number: 9, title: "Aerospace and Propulsion" })
    expect(entry.licenseExceptions.exceptions.find((e: { label: string }) => e.label === "STA").text)
      .toMatch(/^\(1\) Paragraph \(c\)\(1\) of License Exception STA/)
    const hd1 = (await (await server.get("/api/eccn/3A090", json)).json()).entry
    expect(hd1.licenseExceptions.exceptions.map((e: { label: string }) => e.label)).toEqual([
      "LVS",
      "GBS",
      "HBM",
      "AIA",
      "ACM",
      "LPP"
    ])
    expect(hd1.listOfItemsControlled.fields[0].label).toBe("Related Controls")
  })

  it("answers 9x515 and 600-series entries with their column references", async () => {
    const entry = (await (await server.get("/api/eccn/9A515", json)).json()).entry
    expect(entry.licenseRequirements.controls.map((c: { columns: Array<string> }) => c.columns)).toEqual([
      ["NS1"],
      ["RS1"],
      ["MT1"],
      ["NS2"],
      ["RS2"],
      [],
      ["AT1"]
    ])
  })

  it("answers 404 with the nearest entries for an unknown ECCN, and nearest paragraphs for a missing paragraph", async () => {
    const unknown = await server.get("/api/eccn/3A002")
    expect(unknown.status).toBe(404)
    expect(unknown.headers.get("content-type")).toBe("application/problem+json")
    const problem = await unknown.json()
    expect(problem).toMatchObject({
      type: `${server.url}/problems/eccn-not-found`,
      status: 404,
      requested: "3A002",
      nearest: ["3A001", "3A090", "5A002"],
      issueDate: "2026-07-23"
    })
    expect(typeof problem.instance).toBe("string")
    expect((await (await server.get("/api/eccn/3B001")).json()).nearest).toEqual(["3A001"])

    const paragraph = await (await server.get("/api/eccn/0A501.f")).json()
    expect(paragraph.status).toBe(404)
    expect(paragraph.nearest).toEqual(["0A501.a", "0A501.b", "0A501.c", "0A501.d", "0A501.e"])
    expect(paragraph.itemTextAvailable).toBe(true)
    expect(paragraph.detail).toContain("ECCN 0A501 (eCFR 2026-07-23) has no paragraph .f; its item text was read.")

    // an entry whose List of Items Controlled is missing from the parsed text cannot show a paragraph is absent
    const unreadable = await (await server.get("/api/eccn/1C350.b")).json()
    expect(unreadable).toMatchObject({ status: 404, requested: "1C350.b", nearest: [], itemTextAvailable: false })
    expect(unreadable.detail).toContain(
      "holds no List of Items Controlled, so whether it has a paragraph .b cannot be checked"
    )
    expect((await (await server.get("/api/eccn/3A002")).json()).itemTextAvailable).toBeUndefined()
  })

  it("answers 400 naming the parameter for malformed ECCNs", async () => {
    for (const bad of ["3A01", "ABCDE", "3F001", "3A001..a", "3A001.", "EAR990"]) {
      const response = await server.get(`/api/eccn/${bad}`)
      expect(response.status, bad).toBe(400)
      const problem = await response.json()
      expect(problem.invalidParams[0]).toMatchObject({ name: "eccn", in: "path" })
    }
  })

  it("explains EAR99 in both formats", async () => {
    const text = await (await server.get("/api/eccn/EAR99")).text()
    expect(text).toMatch(/^EAR99\n\nEAR99 is not an entry on the Commerce Control List/)
    const body = await (await server.get("/api/eccn/ear99", json)).json()
    expect(body).toMatchObject({ kind: "ear99", requested: "EAR99" })
    expect(body.citations).toContain("15 CFR 734.3(c)")
  })
})

describe("GET /api/eccn/{eccn} when the eCFR text cannot be had", () => {
  it("answers 503 when the eCFR source fails and nothing was parsed yet", async () => {
    const server = await startRegulatoryDataServer()
    try {
      server.ecfr.update({ down: true })
      const response = await server.get("/api/eccn/3A001")
      expect(response.status).toBe(503)
      expect((await response.json()).type).toBe(`${server.url}/problems/upstream-unavailable`)
    } finally {
      await server.close()
    }
  })

  it("answers 503 for malformed XML with no earlier index, and keeps serving the earlier index (stale) after one", async () => {
    const server = await startRegulatoryDataServer()
    try {
      const good = server.ecfr.parts.get(774)!
      server.ecfr.replace(774, good.slice(0, good.length / 2))
      expect((await server.get("/api/eccn/3A001?format=json")).status).toBe(503)

      server.ecfr.replace(774, good)
      expect((await (await server.get("/api/eccn/3A090?format=json")).json()).source.stale).toBe(false)

      server.ecfr.replace(774, good.replace("</DIV9>", ""))
      const stale = await (await server.get("/api/eccn/3A001?format=json")).json()
      expect(stale.source).toMatchObject({ stale: true, issueDate: "2026-07-23" })
      expect(stale.entry.eccn).toBe("3A001")
    } finally {
      await server.close()
    }
  })

  it("rebuilds when the part changes and marks copies the source serves as stale", async () => {
    const server = await startRegulatoryDataServer()
    try {
      expect((await server.get("/api/eccn/0A502")).status).toBe(200)
      const good = server.ecfr.parts.get(774)!
      server.ecfr.update({ issueDate: "2026-08-01", stale: true })
      server.ecfr.replace(774, good.replace("<FP-2><B>0A502 ", "<FP-2><B>0A503 "))
      const response = await server.get("/api/eccn/0A503?format=json")
      expect(response.headers.get("x-data-stale")).toBe(
        "true; fetched-at=2026-07-23T06:00:00.000Z; issue-date=2026-08-01"
      )
      const moved = await response.json()
      expect(moved.source).toMatchObject({ issueDate: "2026-08-01", stale: true })
      expect((await server.get("/api/eccn/0A502")).status).toBe(404)
    } finally {
      await server.close()
    }
  })
})

describe("CclIndex snapshots", () => {
  it.effect("parses once per part text: an identical text reuses the index, a changed one rebuilds it", () =>
    Effect.gen(function*() {
      const ecfr = fixtureEcfr()
      const generation = DataGeneration.make()
      const ccl = yield* CclIndex.make.pipe(
        Effect.provide(ecfr.layer),
        Effect.provideService(DataGeneration.DataGeneration, generation)
      )
      const lookup = (eccn: string) => ccl.lookup({ _tag: "Entry", eccn, paragraph: undefined })
      yield* lookup("3A001")
      const good = ecfr.parts.get(774)!
      // The source reports a new snapshot with the same text: the index is reused, not rebuilt.
      ecfr.replace(774, ` ${good}`.slice(1))
      yield* lookup("3A001")
      expect(generation.current()).toBe(1)
      ecfr.replace(774, good.replace("<FP-2><B>0A502 ", "<FP-2><B>0A503 "))
      const moved = yield* lookup("0A503")
      expect(moved.kind).toBe("entry")
      // one bump by the source for the new text, one by the index for its rebuilt answers
      expect(generation.current()).toBe(3)
    }))
})

describe("ECCN and Country Chart in the OpenAPI document", () => {
  it("documents the text/plain default beside the JSON schema, and the country-chart answer", () => {
    const document = OpenApi.fromApi(Api) as any
    const eccn = document.paths["/api/eccn/{eccn}"].get
    expect(Object.keys(eccn.responses[200].content)).toEqual(["text/plain", "application/json"])
    expect(eccn.parameters.map((p: { name: string }) => p.name)).toEqual(["eccn", "format"])
    expect(eccn.responses[404].content["application/problem+json"].schema.$ref).toBe(
      "#/components/schemas/EccnNotFound"
    )
    const chart = document.paths["/api/country-chart"].get
    expect(chart.responses[200].content["application/json"].schema.$ref).toBe(
      "#/components/schemas/CountryChartAnswer"
    )
    expect(chart.parameters.map((p: { name: string }) => p.name)).toEqual(["country", "eccn"])
  })
})
