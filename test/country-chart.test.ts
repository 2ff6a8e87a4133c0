import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { existsSync, readFileSync } from "node:fs"
import type { ControlRowCheck, EccnCheck } from "../src/domain/LicenseCheck.ts"
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
    const check = async (query: string) => {
      const { body, status } = await lookup(query)
      expect(status, query).toBe(200)
      return body.eccnCheck
    }
    /** The rows of a check by their columns ("RS1"), or reason and position ("UN#5") for rows without one. */
    const rowsOf = (eccnCheck: EccnCheck) => (label: string): ControlRowCheck => {
      const row = eccnCheck.controls.find((row, i) =>
        (row.columns.map((c) => c.column).join("/") || `${row.reason}#${i}`) === label
      )
      if (row === undefined) throw new Error(`no control row ${label}`)
      return row
    }

    it("answers the issue's example: China and 6A003.b.4.b, NP not for this paragraph, RS depending on frame rate and array size", async () => {
      const result = await check("country=China&eccn=6A003.b.4.b")
      expect(result).toMatchObject({ eccn: "6A003", paragraph: "b.4.b", itemTextAvailable: true })
      const rows = rowsOf(result)
      expect(rows("NS2")).toMatchObject({ result: "license_required", columns: [{ column: "NS2", marked: true }] })
      expect(rows("NP1")).toMatchObject({ result: "not_for_this_paragraph" })
      expect(rows("NP1").conditions).toBeUndefined()
      expect(rows("RS1")).toMatchObject({
        result: "depends",
        conditions: [
          "items controlled in 6A003.b.4.b that have a frame rate greater than 60 Hz or that incorporate a focal " +
          "plane array with more than 111,000 elements",
          "items in 6A003.b.4.b when being exported or reexported to be embedded in a civil product"
        ]
      })
      expect(rows("RS2").result).toBe("depends")
      expect(rows("RS2").conditions?.[0]).toMatch(
        /^items controlled in 6A003\.b\.4\.b that have a frame rate of 60 Hz or less/
      )
      expect(rows("AT1")).toMatchObject({ result: "no_x_in_column" })
      expect(rows("UN#5")).toMatchObject({ result: "stated_in_text", countryChart: "See § 746.1(b) for UN controls" })
      expect(result.licenseRequiredColumns).toEqual(["NS2"])
      expect(result.dependsColumns).toEqual(["RS1", "RS2"])
      expect(result.summary).toMatch(/^5 of 6 control rows of 6A003 reach 6A003\.b\.4\.b\./)
      expect(result.summary).toContain("License required to China for NS2 (X in the chart).")
      expect(result.summary).toContain("Not for this paragraph: NP1.")
      expect(result.caveat).toMatch(/not legal advice/)
    })

    it("reads paragraph lists, 'except' and conditions per paragraph", async () => {
      const camera = rowsOf(await check("country=China&eccn=6A003.a.3"))
      expect(camera("NP1")).toMatchObject({ result: "depends", conditions: ["cameras controlled by 6A003.a.3 or a.4"] })
      for (const column of ["RS1", "RS2"]) expect(camera(column).result, column).toBe("not_for_this_paragraph")
      expect(camera("UN#5").result).toBe("not_for_this_paragraph")

      const spacecraft = rowsOf(await check("country=China&eccn=9A515.e.2"))
      expect(spacecraft("NS1").result).toBe("not_for_this_paragraph") // "entire entry, except .e, .x, and .y"
      expect(spacecraft("RS2").result).toBe("license_required") // "RS applies to 9A515.e and .x"
      expect(spacecraft("MT1").result).toBe("depends")
      expect(spacecraft("MT1").conditions?.[0]).toMatch(/^microcircuits in 9A515\.d and 9A515\.e\.2 when “usable in”/)
      // a second statement in the same row: "MT also applies to 9A515.h when …"
      const thruster = rowsOf(await check("country=China&eccn=9A515.h"))
      expect(thruster("MT1")).toMatchObject({ result: "depends" })
      expect(thruster("MT1").conditions?.[0]).toMatch(/^9A515\.h when the total impulse capacity/)
      expect(thruster("NS1").result).toBe("license_required")
    })

    it("answers the entry as a whole with rows limited to some paragraphs as 'depends', and says to ask for one", async () => {
      const result = await check("country=China&eccn=3A001")
      expect(result.paragraph).toBeNull()
      expect(result.licenseRequiredColumns).toEqual(["NS2"])
      expect(result.dependsColumns).toEqual(["NS1", "RS1", "MT1", "NP1"])
      const rows = rowsOf(result)
      expect(rows("AT1")).toMatchObject({ columns: [{ column: "AT1", marked: false }], result: "no_x_in_column" })
      expect(result.controls.filter((r: { result: string }) => r.result === "stated_in_text")).toHaveLength(2)
      expect(result.summary).toContain("RS (row 4), RS (row 5): destinations or scope stated in the row's text")
      expect(result.summary).toContain("Ask for a paragraph (3A001.a …)")
    })

    it("reports no X where the destination's columns are empty, and footnotes that name the ECCN", async () => {
      const canada = await check("country=CA&eccn=3A001")
      expect(canada.licenseRequiredColumns).toEqual([])
      expect(canada.dependsColumns).toEqual([])
      expect(canada.summary).toMatch(/No X for Canada in NS1, NS2, RS1, MT1, NP1, AT1\./)
      const uk = await check("country=UK&eccn=0A501.y")
      expect(uk).toMatchObject({
        eccn: "0A501",
        paragraph: "y",
        licenseRequiredColumns: [],
        footnotesNamingEccn: [10]
      })
      expect(rowsOf(uk)("NS1").result).toBe("not_for_this_paragraph") // "entire entry except 0A501.y"
      expect(uk.summary).toMatch(/Footnote\(s\) 10 of United Kingdom's row name 0A501/)
      expect(rowsOf(await check("country=China&eccn=0A501.a"))("NS1").result).toBe("license_required")
    })

    it("splits rows the eCFR prints run together or as one cell", async () => {
      const target = rowsOf(await check("country=China&eccn=1A231.a"))
      expect(target("NP1")).toMatchObject({ appliesTo: "NP applies to entire entry", result: "license_required" })
      expect(target("AT1")).toMatchObject({ appliesTo: "AT applies to entire entry", result: "no_x_in_column" })
      const precursors = await check("country=China&eccn=1C350")
      expect(precursors.controls).toEqual([{
        reason: "CB",
        appliesTo: "CB applies to entire entry",
        countryChart: "CB Column 2.",
        columns: [{ column: "CB2", marked: true }],
        result: "license_required"
      }])
    })

    it("answers a paragraph it cannot verify when the entry's item text is missing, and says so", async () => {
      const result = await check("country=China&eccn=1C350.b")
      expect(result).toMatchObject({ paragraph: "b", itemTextAvailable: false, licenseRequiredColumns: ["CB2"] })
      expect(result.summary).toContain(
        "The entry's item text is unavailable here, so paragraph .b could not be verified."
      )
    })

    it("sends embargoed destinations to part 746 and explains EAR99", async () => {
      const iran = await check("country=Iran&eccn=5A002")
      expect(new Set(iran.controls.map((c: { result: string }) => c.result))).toEqual(new Set(["see_part_746"]))
      expect(iran.summary).toMatch(/absence of X marks means nothing here/)
      const notHere = await check("country=Iran&eccn=6A003.b.4.b")
      expect(rowsOf(notHere)("NP1").result).toBe("not_for_this_paragraph")
      const ear99 = await check("country=China&eccn=EAR99")
      expect(ear99).toMatchObject({ eccn: "EAR99", controls: [] })
    })

    it("answers 404 with nearest entries or paragraphs for unknown ones and 400 for a malformed one", async () => {
      const unknown = await lookup("country=China&eccn=3A002")
      expect(unknown.status).toBe(404)
      expect(unknown.body.nearest).toContain("3A001")
      const paragraph = await lookup("country=China&eccn=6A003.b.9")
      expect(paragraph.status).toBe(404)
      expect(paragraph.body).toMatchObject({ requested: "6A003.b.9", itemTextAvailable: true })
      expect(paragraph.body.nearest).toContain("6A003.b.4")
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
