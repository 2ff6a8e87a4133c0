import { describe, expect, it } from "@effect/vitest"
import { existsSync, readFileSync } from "node:fs"
import { controlRowsOf } from "../src/services/ccl/ControlRows.ts"
import { parseControlScope } from "../src/services/ccl/scope/ControlScope.ts"
import { coverageOf } from "../src/services/ccl/scope/ScopeCoverage.ts"

/**
 * Every control row of the whole Commerce Control List through the scope grammar. The corpus is
 * ../shared/data/derived/export-controls-agent-mcp/ccl.json: a third party's structured copy of
 * Supplement No. 1 to part 774 (eCFR 2026-07-23, 633 entries) holding each row's two cells as
 * printed. Rows the grammar does not read are printed here and listed in docs/country-chart.md;
 * they answer `stated_in_text`, never a guess.
 */
const corpus = new URL("../../shared/data/derived/export-controls-agent-mcp/ccl.json", import.meta.url)
const haveCorpus = existsSync(corpus)
if (!haveCorpus) console.log("skipping the whole-CCL scope test: ../shared/data/derived is absent")

interface CorpusEntry {
  readonly eccn: string
  readonly countryChart: ReadonlyArray<
    { readonly control: string; readonly countryChart: string; readonly singleCellRow?: boolean }
  >
}

describe.skipIf(!haveCorpus)("the scope grammar over every control row of the CCL", () => {
  const entries: ReadonlyArray<CorpusEntry> = haveCorpus ? JSON.parse(readFileSync(corpus, "utf8")).entries : []
  const rows = entries.flatMap((entry) =>
    entry.countryChart.flatMap((cells) =>
      controlRowsOf(cells.singleCellRow === true ? [cells.control] : [cells.control, cells.countryChart]).map((
        row
      ) => ({
        eccn: entry.eccn,
        row,
        scope: parseControlScope(row.appliesTo, entry.eccn)
      }))
    )
  )

  it("reads every row into a scope, except the ones docs/country-chart.md lists", () => {
    expect(entries).toHaveLength(633)
    const unread = rows.filter(({ scope }) => scope._tag === "Unparsed")
    for (const { eccn, row, scope } of unread) {
      console.log(`unread control row: ${eccn} "${row.appliesTo}" (${scope._tag === "Unparsed" ? scope.problem : ""})`)
    }
    const documented = readFileSync(new URL("../docs/country-chart.md", import.meta.url), "utf8")
      .split("\n")
      .flatMap((line) => /^\| `(\d[A-E]\d{3})` \|/.exec(line)?.slice(1) ?? [])
    expect(unread.map(({ eccn }) => eccn)).toEqual(documented)
    // undoing the printing accidents: 1A231's run-together rows, 1C350's and 0E982's one-cell rows
    expect(rows).toHaveLength(1537)
    expect(rows.filter(({ eccn }) => eccn === "1A231").map(({ row }) => row.columns)).toEqual([["NP1"], ["AT1"]])
  })

  it("reaches some part of its entry with every row, and never rules out a paragraph a plain row names", () => {
    for (const { eccn, row, scope } of rows) {
      if (scope._tag === "Unparsed") continue
      expect(coverageOf(scope, null)?._tag, `${eccn}: ${row.appliesTo}`).not.toBe("NotApplies")
      if (/\bexcept|does not apply|other than|excluding/i.test(row.appliesTo)) continue
      const named = [...row.appliesTo.matchAll(new RegExp(`\\b${eccn}\\s?\\.\\s?([a-z](?:\\.[a-z0-9]+)*)`, "g"))]
      for (const [, paragraph] of named) {
        expect(coverageOf(scope, paragraph!)?._tag, `${eccn}.${paragraph}: ${row.appliesTo}`).not.toBe("NotApplies")
      }
    }
  })

  it("sorts the CCL's rows into entire-entry, paragraph-limited and conditional scopes", () => {
    const kinds = { entire: 0, entire_except: 0, limited: 0, conditional: 0, unread: 0 }
    for (const { scope } of rows) {
      // "zz" stands for a paragraph no row names
      const whole = coverageOf(scope, null)
      const elsewhere = coverageOf(scope, "zz")
      if (whole === undefined) kinds.unread++
      else if (whole._tag === "Applies") kinds.entire++
      else if (elsewhere?._tag === "Applies") kinds.entire_except++
      else if (elsewhere?._tag === "NotApplies") kinds.limited++
      else kinds.conditional++
    }
    console.log(`CCL control rows by scope: ${JSON.stringify(kinds)}`)
    expect(kinds).toEqual({ entire: 1105, entire_except: 103, limited: 158, conditional: 170, unread: 1 })
  })
})
