import { describe, expect, it } from "@effect/vitest"
import type { ChartRow } from "../src/domain/Country.ts"
import { type ControlRow, countryChartColumns, type EccnEntry } from "../src/domain/Eccn.ts"
import { checkEccn } from "../src/services/country/EccnCheck.ts"

/** An entry with the given control rows and lettered paragraphs a … c; the rest as the CCL leaves it empty. */
const entryWith = (eccn: string, controls: ReadonlyArray<ControlRow>): EccnEntry => ({
  eccn,
  heading: "Test entry",
  category: { number: Number(eccn[0]), title: null },
  productGroup: { letter: eccn[1]!, title: null },
  licenseRequirements: { reasonForControl: [...new Set(controls.flatMap((c) => c.reason ?? []))], controls, notes: [] },
  licenseExceptions: { exceptions: [], notes: [] },
  listOfItemsControlled: { fields: [], items: [] }
})

const row = (appliesTo: string, countryChart: string, columns: ControlRow["columns"]): ControlRow => ({
  reason: /^([A-Z]{2})\b/.exec(appliesTo)?.[1] ?? null,
  appliesTo,
  countryChart,
  columns
})

const graded = (...marked: ReadonlyArray<(typeof countryChartColumns)[number]>): ChartRow => ({
  kind: "graded",
  columns: Object.fromEntries(countryChartColumns.map((c) => [c, marked.includes(c)])) as Extract<
    ChartRow,
    { kind: "graded" }
  >["columns"],
  marked,
  footnotes: []
})

describe("the Country Chart check of one entry", () => {
  const entry = entryWith("4A001", [
    row("NP applies, unless a License Exception is available", "NP Column 1", ["NP1"]),
    row("NS applies to 4A001.a", "NS Column 2", ["NS2"]),
    row("MT applies to items in 4A001.a when the parameters in 4A101 are met or exceeded", "MT Column 1.", ["MT1"]),
    row("AT applies to entire entry", "AT Column 1", ["AT1"])
  ])

  it("answers a row it cannot read with stated_in_text where the column has an X, never license_required", () => {
    const check = checkEccn(entry, "a", true, "China", graded("NP1", "NS2", "MT1"))
    expect(check.controls.map((r) => r.result)).toEqual([
      "stated_in_text",
      "license_required",
      "depends",
      "no_x_in_column"
    ])
    expect(check.controls[0]).toMatchObject({ scopeUnread: "a statement does not say what it applies to" })
    expect(check.controls[2]!.conditions).toEqual([
      "items in 4A001.a when the parameters in 4A101 are met or exceeded"
    ])
    expect(check.licenseRequiredColumns).toEqual(["NS2"])
    expect(check.dependsColumns).toEqual(["MT1"])
    // without an X the row's reach does not matter
    expect(checkEccn(entry, "a", true, "Canada", graded()).controls.map((r) => r.result)).toEqual([
      "no_x_in_column",
      "no_x_in_column",
      "no_x_in_column",
      "no_x_in_column"
    ])
  })

  it("leaves rows limited to other paragraphs out of the summary's count", () => {
    const check = checkEccn(entry, "b", true, "China", graded("NP1", "NS2", "MT1"))
    expect(check.controls.map((r) => r.result)).toEqual([
      "stated_in_text",
      "not_for_this_paragraph",
      "not_for_this_paragraph",
      "no_x_in_column"
    ])
    expect(check.summary).toMatch(/^2 of 4 control rows of 4A001 reach 4A001\.b\./)
    expect(check.summary).toContain("NP1: destinations or scope stated in the row's text; read it.")
    expect(check.summary).toContain("Not for this paragraph: NS2, MT1.")
  })

  it("answers a destination without a chart row, or with a pointer to part 746, without reading X marks", () => {
    const none = checkEccn(entry, "a", true, "Somewhere", null)
    expect(new Set(none.controls.map((r) => r.result))).toEqual(new Set(["no_chart_row"]))
    expect(none.summary).toBe("The Country Chart has no row for Somewhere; it cannot answer for 4A001.a.")
    const embargoed = checkEccn(entry, "b", true, "Iran", {
      kind: "embargoed",
      pointer: "See part 746.",
      footnotes: []
    })
    expect(embargoed.controls.map((r) => r.result)).toEqual([
      "see_part_746",
      "not_for_this_paragraph",
      "not_for_this_paragraph",
      "see_part_746"
    ])
  })

  it("asks for a paragraph when rows limited to some paragraphs make the whole entry depend", () => {
    const check = checkEccn(entry, null, true, "China", graded("NP1", "NS2", "MT1"))
    expect(check.controls[1]).toMatchObject({ result: "depends", conditions: ["4A001.a"] })
    expect(check.summary).toContain("Ask for a paragraph (4A001.a …) to settle rows limited to some paragraphs.")
  })
})
