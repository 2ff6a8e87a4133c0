import { describe, expect, it } from "@effect/vitest"
import type { SearchResult } from "../../src/domain/Cfr.ts"
import { broaderQueries, ecfrSearchState, onePerSection } from "../../src/mcp/EcfrSearchPresentation.ts"

const hit = (section: string, startsOn: string, endsOn: string | null, score = 1): SearchResult => ({
  type: "section",
  score,
  part: 740,
  section,
  sectionHeading: `§ ${section}`,
  partHeading: "Part 740",
  excerpt: "…",
  startsOn,
  endsOn
})

describe("eCFR search for agents", () => {
  it("keeps one hit per section: the current version, where the section first ranked", () => {
    const results = onePerSection([
      hit("740.17", "2021-03-29", "2024-01-01", 9),
      hit("740.2", "2024-05-01", null, 8),
      hit("740.17", "2024-01-01", null, 7),
      hit("740.17", "2017-01-01", "2021-03-29", 6),
      hit("740.2", "2020-01-01", "2024-05-01", 5)
    ])
    expect(results.map((r) => [r.section, r.startsOn])).toEqual([["740.17", "2024-01-01"], ["740.2", "2024-05-01"]])
  })

  it("says what state the data was in and suggests broader terms after a zero-hit multi-word query", () => {
    expect(ecfrSearchState("ecfr", "thermal camera", 3)).toEqual({ data_state: "ok" })
    expect(ecfrSearchState("local-index", "x", 3).data_state).toBe("stale")
    expect(ecfrSearchState("ecfr", "uncooled thermal imaging camera core", 0)).toEqual({
      data_state: "ok",
      data_note: "No section matched all words; try \"uncooled thermal imaging camera\", \"uncooled\", \"thermal\", " +
        "\"imaging\"."
    })
    expect(ecfrSearchState("ecfr", "zzz", 0)).toEqual({ data_state: "ok", data_note: "No section matched." })
    expect(broaderQueries("license exception")).toEqual(["license", "exception"])
  })
})
