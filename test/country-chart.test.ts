import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { existsSync, readFileSync } from "node:fs"
import { startRegulatoryDataServer } from "./support/RegulatoryDataServer.ts"
import type { RunningServer } from "./support/TestServer.ts"

describe("GET /api/country-chart", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startRegulatoryDataServer()
  })
  afterAll(() => server.close())

  const lookup = async (query: string) => {
    const response = await server.get(`/api/country-chart?${query}`)
    return { status: response.status, body: await response.json() }
  }

  it("answers the chart row with all 16 columns, footnotes, country groups and sources", async () => {
    const { body, status } = await lookup("country=United%20Kingdom")
    expect(status).toBe(200)
    expect(body.country).toEqual({ name: "United Kingdom", alpha2: "GB", alpha3: "GBR", matchedBy: "name" })
    expect(body.chart.kind).toBe("graded")
    expect(Object.keys(body.chart.columns)).toHaveLength(16)
    expect(body.chart.marked).toEqual(["CB1"])
    expect(body.chart.footnotes).toHaveLength(1)
    expect(body.chart.footnotes[0].number).toBe(10)
    expect(body.chart.footnotes[0].text).toMatch(
      /^A license is required to these destinations for items in the following ECCNs: 0A501/
    )
    expect(body.countryGroups.memberships.map((m: { group: string }) => m.group)).toEqual([
      "A:1",
      "A:2",
      "A:3",
      "A:4",
      "A:5",
      "B"
    ])
    expect(body.countryGroups.memberships[0]).toEqual({ group: "A:1", title: "Wassenaar Participating States" })
    expect(body.sources.map((s: { citation: string }) => s.citation)).toEqual([
      "15 CFR part 738, Supplement No. 1 (Commerce Country Chart)",
      "15 CFR part 740, Supplement No. 1 (Country Groups)",
      "15 CFR part 746 (Embargoes and Other Special Controls)"
    ])
  })

  it("accepts ISO codes, common names and the tables' own labels", async () => {
    for (const query of ["UK", "gb", "GBR", "Great Britain"]) {
      expect((await lookup(`country=${encodeURIComponent(query)}`)).body.country.name, query).toBe("United Kingdom")
    }
    for (const query of ["South Korea", "Korea, South", "KR", "kor", "Republic of Korea"]) {
      expect((await lookup(`country=${encodeURIComponent(query)}`)).body.country.name, query).toBe("Korea, South")
    }
    for (const query of ["Burma", "Myanmar", "MMR"]) {
      expect((await lookup(`country=${encodeURIComponent(query)}`)).body.country.name, query).toBe("Burma")
    }
    const uk = (await lookup("country=UK")).body
    expect(uk.country.matchedBy).toBe("name")
    expect((await lookup("country=KOR")).body.country.matchedBy).toBe("alpha3")
  })

  it("joins the chart row and the group row although their labels differ (China / China (PRC))", async () => {
    const { body } = await lookup("country=China")
    expect(body.chart.marked).toEqual([
      "CB1",
      "CB2",
      "CB3",
      "NP1",
      "NP2",
      "NS1",
      "NS2",
      "MT1",
      "RS1",
      "RS2",
      "CC1",
      "CC3"
    ])
    expect(body.countryGroups).toEqual({
      rowLabel: "China (PRC)",
      memberships: [
        { group: "D:1", title: "National Security" },
        { group: "D:3", title: "Chemical & Biological" },
        { group: "D:4", title: "Missile Technology" },
        { group: "D:5", title: "U.S. Arms Embargoed Countries" }
      ]
    })
  })

  it("answers embargoed destinations with the row's pointer, never with an empty grid, and their part 746 sections", async () => {
    const iran = (await lookup("country=Iran")).body
    expect(iran.chart.kind).toBe("embargoed")
    expect(iran.chart.columns).toBeUndefined()
    expect(iran.chart.pointer).toMatch(/^See part 746 of the EAR/)
    expect(iran.chart.footnotes[0].number).toBe(1)
    expect(iran.embargoNotes).toEqual([
      {
        section: "746.7",
        heading: "§ 746.7 Iran.",
        citation: "15 CFR 746.7",
        url: "https://www.ecfr.gov/on/2026-07-23/title-15/section-746.7"
      }
    ])
    const russia = (await lookup("country=Russian%20Federation")).body
    expect(russia.chart.kind).toBe("graded")
    expect(russia.embargoNotes.map((n: { section: string }) => n.section)).toEqual(["746.8"])
    const northKorea = (await lookup("country=DPRK")).body
    expect(northKorea.embargoNotes.map((n: { section: string }) => n.section)).toEqual(["746.4"])
    expect(northKorea.countryGroups.memberships.map((m: { group: string }) => m.group)).toContain("E:1")
  })

  it("answers Hong Kong with the China row and says why", async () => {
    const { body } = await lookup("country=Hong%20Kong")
    expect(body.country).toMatchObject({ name: "China", alpha2: "HK", matchedBy: "territory" })
    expect(body.country.note).toMatch(/removed it as a separate destination/)
  })

  it("answers 404 with suggestions for an unknown country and 400 without one", async () => {
    const unknown = await lookup("country=Atlantis")
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject({ type: `${server.url}/problems/country-not-found`, query: "Atlantis" })
    const noRow = await lookup("country=France")
    expect(noRow.status).toBe(404)
    expect(noRow.body.detail).toMatch(/France has no row/)
    const missing = await server.get("/api/country-chart")
    expect(missing.status).toBe(400)
    expect((await missing.json()).invalidParams[0]).toMatchObject({ name: "country", in: "query" })
  })

  describe("with eccn", () => {
    it("marks the reasons whose cited column has an X for the destination", async () => {
      const { body } = await lookup("country=China&eccn=3A001")
      const check = body.eccnCheck
      expect(check.licenseRequiredColumns).toEqual(["NS1", "NS2", "RS1", "MT1", "NP1"])
      expect(check.controls[0]).toMatchObject({
        columns: [{ column: "NS1", marked: true }],
        result: "license_required"
      })
      const at = check.controls.find((c: { reason: string }) => c.reason === "AT")
      expect(at).toMatchObject({ columns: [{ column: "AT1", marked: false }], result: "no_x_in_column" })
      expect(check.controls.filter((c: { result: string }) => c.result === "stated_in_text")).toHaveLength(2)
      expect(check.summary).toMatch(/^A license is required to China for 3A001 for NS1, NS2, RS1, MT1, NP1/)
      expect(check.caveat).toMatch(/not legal advice/)
    })

    it("reports no X where the destination's columns are empty, and footnotes that name the ECCN", async () => {
      const canada = (await lookup("country=CA&eccn=3A001")).body.eccnCheck
      expect(canada.licenseRequiredColumns).toEqual([])
      expect(canada.summary).toMatch(/No column cited by 3A001 has an X for Canada/)
      const uk = (await lookup("country=UK&eccn=0A501.y")).body.eccnCheck
      expect(uk).toMatchObject({ eccn: "0A501", paragraph: "y", licenseRequiredColumns: [], footnotesNamingEccn: [10] })
      expect(uk.summary).toMatch(/Footnote\(s\) 10 of United Kingdom's row name 0A501/)
    })

    it("sends embargoed destinations to part 746 and explains EAR99", async () => {
      const iran = (await lookup("country=Iran&eccn=5A002")).body.eccnCheck
      expect(new Set(iran.controls.map((c: { result: string }) => c.result))).toEqual(new Set(["see_part_746"]))
      expect(iran.summary).toMatch(/absence of X marks means nothing here/)
      const ear99 = (await lookup("country=China&eccn=EAR99")).body.eccnCheck
      expect(ear99).toMatchObject({ eccn: "EAR99", controls: [] })
    })

    it("answers 404 with nearest entries for an unknown ECCN and 400 for a malformed one", async () => {
      const unknown = await lookup("country=China&eccn=3A002")
      expect(unknown.status).toBe(404)
      expect(unknown.body.nearest).toContain("3A001")
      const malformed = await lookup("country=China&eccn=3A0")
      expect(malformed.status).toBe(400)
      expect(malformed.body.invalidParams[0].name).toBe("eccn")
    })
  })
})

/**
 * Golden values: ../shared/data/derived/export-controls-agent-mcp holds a third party's structured
 * copy of the same supplements (eCFR issue date 2026-07-23). Our fixture rows were transcribed from
 * those values into the eCFR table format, so this checks that parsing the table (empty `<TD/>`
 * slots, superscript footnotes, pointer rows, group columns) gives back exactly the expected marks,
 * footnote numbers and memberships. Known differences, by design: the derived data names group
 * rows by their table label ("China (PRC)") while we join chart and group rows by ISO code; it
 * lists footnote texts separately while we attach them to the rows that cite them.
 */
const derived = new URL("../../shared/data/derived/export-controls-agent-mcp/", import.meta.url)
const haveDerived = existsSync(new URL("country-chart.json", derived))
if (!haveDerived) console.log("skipping golden Country Chart comparison: ../shared/data/derived is absent")

describe.skipIf(!haveDerived)("Country Chart and Country Groups against the derived golden values", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startRegulatoryDataServer()
  })
  afterAll(() => server.close())

  const sample = [
    "Australia",
    "China",
    "Cyprus",
    "India",
    "Korea, South",
    "Liechtenstein",
    "Russia",
    "Taiwan",
    "Ukraine"
  ]

  it("matches marks and footnote numbers of a sample of rows, and the embargoed rows", async () => {
    const chart = JSON.parse(readFileSync(new URL("country-chart.json", derived), "utf8"))
    for (const name of sample) {
      const body = await (await server.get(`/api/country-chart?country=${encodeURIComponent(name)}`)).json()
      const expected = chart.countries[name]
      expect(body.chart.marked, name).toEqual(expected.marks.map((m: string) => m.replace(" ", "")))
      expect(body.chart.footnotes.map((f: { number: number }) => f.number), name).toEqual(expected.footnotes)
      for (const footnote of body.chart.footnotes) expect(footnote.text).toBe(chart.footnotes[String(footnote.number)])
    }
    for (const name of ["Cuba", "Iran", "Korea, North", "Syria"]) {
      const body = await (await server.get(`/api/country-chart?country=${encodeURIComponent(name)}`)).json()
      expect(body.chart, name).toMatchObject({ kind: "embargoed", pointer: chart.embargoed[name].pointer })
    }
  })

  it("matches the Country Group memberships of the same sample", async () => {
    const groups = JSON.parse(readFileSync(new URL("country-groups.json", derived), "utf8"))
    for (const name of sample) {
      const body = await (await server.get(`/api/country-chart?country=${encodeURIComponent(name)}`)).json()
      const label = body.countryGroups.rowLabel
      const expected = label === null
        ? []
        : Object.keys(groups.groups).filter((group) => groups.groups[group].includes(label))
      expect(body.countryGroups.memberships.map((m: { group: string }) => m.group).sort(), name).toEqual(
        expected.sort()
      )
    }
  })
})
