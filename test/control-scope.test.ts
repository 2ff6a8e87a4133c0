import { describe, expect, it } from "@effect/vitest"
import { controlRowsOf } from "../src/services/ccl/ControlRows.ts"
import { parseControlScope } from "../src/services/ccl/scope/ControlScope.ts"
import { coverageOf } from "../src/services/ccl/scope/ScopeCoverage.ts"

/**
 * The control-row scope grammar on rows as the CCL prints them (15 CFR 774 Supp. 1, eCFR
 * 2026-07-23): what each row reaches, paragraph by paragraph. `null` asks about the entry as a whole.
 */
const reach = (text: string, eccn: string, paragraph: string | null): string => {
  const coverage = coverageOf(parseControlScope(text, eccn), paragraph)
  if (coverage === undefined) return "unparsed"
  return coverage._tag === "Depends" ? `depends: ${coverage.conditions.join(" | ")}` : coverage._tag
}

const expectReach = (
  text: string,
  eccn: string,
  /** "depends" alone: any condition; "depends: …": exactly these conditions */
  expected: Record<string, "Applies" | "NotApplies" | "unparsed" | `depends${string}` | RegExp>
) => {
  for (const [paragraph, answer] of Object.entries(expected)) {
    const actual = reach(text, eccn, paragraph === "entry" ? null : paragraph)
    if (answer instanceof RegExp) expect(actual, `${eccn}.${paragraph}`).toMatch(answer)
    else if (answer === "depends") expect(actual, `${eccn}.${paragraph}`).toMatch(/^depends: /)
    else expect(actual, `${eccn}.${paragraph}`).toBe(answer)
  }
}

describe("control row scopes", () => {
  it("reads the entire entry, with and without exceptions", () => {
    expectReach("AT applies to entire entry", "6A003", { "entry": "Applies", "b.4.b": "Applies" })
    expectReach("RS applies to the entire entry.", "1A004", { "d": "Applies" })
    expectReach("RS applies entire entry", "4E091", { "a": "Applies" })
    expectReach("NS applies to entire entry, except .e, .x, and .y", "9A515", {
      "entry": "depends: except .e, .x, and .y",
      "a.1": "Applies",
      "e": "NotApplies",
      "e.2": "NotApplies",
      "x": "NotApplies"
    })
    expectReach("NS applies to entire entry, except 8A620. b and .y", "8A620", { "b": "NotApplies", "a": "Applies" })
    expectReach(
      "AT applies to entire entry (refer to 4A994 for controls on “digital computers” with an APP >0.0128)",
      "4A003",
      {
        "a": "Applies"
      }
    )
    expectReach("Russian industry sector sanctions apply to entire entry", "3A229", { "entry": "Applies" })
  })

  it("reads paragraph lists, ranges, siblings and a paragraph's own exceptions", () => {
    expectReach("NS applies to 3B001.a.1 to a.3, b, e, f.2 to f.4, g to j", "3B001", {
      "a.2": "Applies",
      "a.2.b": "Applies",
      "a.4": "NotApplies",
      "a": "depends",
      "f.3": "Applies",
      "h": "Applies",
      "k": "NotApplies",
      "c": "NotApplies"
    })
    expectReach("NS applies to 5A001.b (except .b.5), .c, .d, .f (except f.3), .g, and .j", "5A001", {
      "b.1": "Applies",
      "b.5": "NotApplies",
      "b": "depends",
      "f.3.a": "NotApplies",
      "h": "NotApplies"
    })
    expectReach("NS applies to 9A004 .g, .r, .u, and .w", "9A004", { "g": "Applies", "s": "NotApplies" })
    expectReach("NS applies to entire entry except 9D515.x and y", "9D515", { "y": "NotApplies", "a": "Applies" })
    expectReach("RS applies to paragraph c", "6D003", { "c": "Applies", "a": "NotApplies" })
    expectReach("FC applies to paragraphs .a, .b, .c, .d, .e, .g, and .i of this entry", "0A504", {
      "g": "Applies",
      "f": "NotApplies"
    })
    expectReach("SI applies to 9E003.a.1 through a.8, .h, .i, and .l", "9E003", {
      "a.8": "Applies",
      "a.9": "NotApplies"
    })
    expectReach("CB applies to items controlled by 1C351.d.15 and .16", "1C351", {
      "d.16": "Applies",
      "d.14": "NotApplies"
    })
    expectReach("NP applies to 1C111.a.3.f only", "1C111", { "a.3.f": "Applies", "a.3": "depends" })
    expectReach("RS applies to “software” controlled by 5D002.z.1.a, z.2.a, z.3.a, z.4.a", "5D002", {
      "z.2.a": "Applies",
      "z.2.b": "NotApplies"
    })
  })

  it("quotes conditions and descriptions, and never answers 'not for this paragraph' for a row it cannot limit", () => {
    const camera = "NP applies to cameras controlled by 6A003.a.3 or a.4 and to plug-ins in 6A003.a.6 for cameras " +
      "controlled by 6A003.a.3 or a.4"
    expectReach(camera, "6A003", {
      "b.4.b": "NotApplies",
      "a.3": "depends: cameras controlled by 6A003.a.3 or a.4",
      "a.6": "depends: plug-ins in 6A003.a.6 for cameras controlled by 6A003.a.3 or a.4",
      "a.5": "NotApplies"
    })
    expectReach("NS applies to shotguns with a barrel length less than 18 inches (45.72 cm)", "0A502", {
      "a": "depends: shotguns with a barrel length less than 18 inches (45.72 cm)"
    })
    // a description joined to a paragraph list: the paragraphs are certain, the rest depends on the description
    const shotguns = "CC applies to shotguns with a barrel length less than 24 in. (60.96 cm) and paragraphs .c, .d, " +
      "and .e controlled by this entry regardless of end user"
    expectReach(shotguns, "0A502", { "c": "Applies", "a": /^depends: shotguns with a barrel length less than 24 in/ })
    expectReach(
      "NP applies to items controlled by this entry that meet or exceed the technical parameters in 2B209",
      "2B109",
      {
        "a": "depends: items controlled by this entry that meet or exceed the technical parameters in 2B209"
      }
    )
    // a paragraph named only inside unbalanced parentheses still keeps the row from "not for this paragraph"
    const fibres = "NP applies to 1C010.a (aramid “fibrous or filamentary materials”, b (carbon “fibrous and " +
      "filamentary materials”), and e.1 for “fibrous and filamentary materials” that meet or exceed the control " +
      "criteria of ECCN 1C210"
    expectReach(fibres, "1C010", { "b": "depends", "e.1": "depends", "a": "depends", "c": "NotApplies" })
    // rows about other entries' items depend on that relation, whatever paragraph is asked
    expectReach("RS applies to “software” for equipment controlled by 6A008.j.1", "6D001", {
      "a": "depends: “software” for equipment controlled by 6A008.j.1"
    })
  })

  it("reads exceptions that carry conditions, numbered exceptions and destinations", () => {
    const nine = "NS applies to entire entry except: 9A610.b; parts and components controlled in 9A610.x if being " +
      "exported or reexported for use in an aircraft controlled in 9A610.b; and 9A610.y"
    expectReach(nine, "9A610", {
      "b": "NotApplies",
      "y": "NotApplies",
      "x": /^depends: except parts and components controlled in 9A610\.x if being exported/,
      "a": "Applies"
    })
    const suppressors = "NS applies to entire entry except 0A509.a for items for ECCN 0A502 or ECCN 0A508, and 0A509.d"
    expectReach(suppressors, "0A509", { "d": "NotApplies", "a": "depends", "b": "Applies" })
    const mmic =
      "NS applies to “Monolithic Microwave Integrated Circuit” (“MMIC”) amplifiers in 3A001.b.2 and discrete " +
      "microwave transistors in 3A001.b.3, except those 3A001.b.2 and b.3 items being exported or reexported for " +
      "use in civil telecommunications applications"
    expectReach(mmic, "3A001", {
      "b.2": /^depends: .*amplifiers in 3A001\.b\.2.* \| except those 3A001\.b\.2 and b\.3 items being exported/,
      "b.1": "NotApplies",
      "a": "NotApplies"
    })
    const lathes =
      "NP applies to 2B001.a, .b, .c, and .d, EXCEPT: (1) turning machines under 2B001.a with a capacity " +
      "no greater than 35 mm diameter; (2) bar machines (Swissturn), limited to machining only bar feed through, if " +
      "maximum bar diameter is equal to or less than 42 mm and there is no capability of mounting chucks; or (3) " +
      "milling machines under 2B001.b with x-axis travel greater than two meters"
    expectReach(lathes, "2B001", {
      "a": /except \(1\) turning machines/,
      "c": /except \(2\) bar machines/,
      "e": "NotApplies"
    })
    expectReach(
      "RS applies to 9D515.y, except to Russia for use in, with, or for the International Space Station (ISS), " +
        "including launch to the ISS",
      "9D515",
      { "y": /^depends: except to Russia for use in/, "x": "NotApplies" }
    )
  })

  it("reads several statements of one reason: 'also applies', 'Note:', 'does not apply'", () => {
    const spacecraft =
      "MT applies to microcircuits in 9A515.d and 9A515.e.2 when “usable in” “missiles” for protecting " +
      "“missiles” against nuclear effects. MT also applies to 9A515.h when the total impulse capacity is equal to or " +
      "greater than 8.41 × 10^5 newton seconds"
    expectReach(spacecraft, "9A515", {
      "h": /^depends: 9A515\.h when the total impulse/,
      "e.2": "depends",
      "a": "NotApplies"
    })
    const composites =
      "MT applies to entire entry, except 1B001.d.4, e and f. Note: MT applies to equipment in 1B001.d " +
      "that meet or exceed the parameters of 1B101"
    expectReach(composites, "1B001", { "d.4": /^depends: equipment in 1B001\.d/, "e": "NotApplies", "a": "Applies" })
    expectReach(
      "MT applies to “software” for equipment controlled for MT reasons. MT does not apply to “software” for " +
        "equipment controlled by 7A008",
      "7D001",
      { "a": /^depends: .* \| except “software” for equipment controlled by 7A008$/ }
    )
    // a remark after the statement is not read as scope, but the answer carries it
    expectReach(
      "CW applies to entire entry. A license is required for CW reasons to CWC non-States Parties. See § 742.18 of the EAR.",
      "1E355",
      { "entry": "depends: A license is required for CW reasons to CWC non-States Parties. See § 742.18 of the EAR" }
    )
    expectReach("AT applies to entire entry (refer to 4A994 for controls on “digital computers”)", "4A003", {
      "a": "Applies"
    })
  })

  it("refuses what it cannot read, never guessing 'entire entry'", () => {
    for (
      const text of [
        "NP applies, unless a License Exception is available. See § 742.3(b) of the EAR",
        "NP applies to entire entry AT applies to entire entry",
        "See § 742.6(a)(7)",
        "The entry applies to NS"
      ]
    ) {
      expect(parseControlScope(text, "4A001")._tag, text).toBe("Unparsed")
      expect(reach(text, "4A001", "a"), text).toBe("unparsed")
    }
  })
})

describe("control table rows", () => {
  it("splits rows run together in one pair of cells, reason by reason", () => {
    expect(controlRowsOf(["NP applies to entire entry AT applies to entire entry", "NP Column 1 AT Column 1"])).toEqual(
      [
        { reason: "NP", appliesTo: "NP applies to entire entry", countryChart: "NP Column 1", columns: ["NP1"] },
        { reason: "AT", appliesTo: "AT applies to entire entry", countryChart: "AT Column 1", columns: ["AT1"] }
      ]
    )
    // statements of one reason stay one row
    expect(controlRowsOf(["MT applies to 9A515.d. MT also applies to 9A515.h", "MT Column 1."])).toHaveLength(1)
  })

  it("splits a row printed as one cell into its scope and its column or destination text", () => {
    expect(controlRowsOf(["CB applies to entire entry CB Column 2."])).toEqual([
      { reason: "CB", appliesTo: "CB applies to entire entry", countryChart: "CB Column 2.", columns: ["CB2"] }
    ])
    const [technology] = controlRowsOf([
      "CC applies to “technology” for items controlled by 0A982 or 0A503. A license is required for ALL destinations, " +
      "except Canada, regardless of end use."
    ])
    expect(technology).toEqual({
      reason: "CC",
      appliesTo: "CC applies to “technology” for items controlled by 0A982 or 0A503.",
      countryChart: "A license is required for ALL destinations, except Canada, regardless of end use.",
      columns: []
    })
    expect(controlRowsOf(["Control(s)", "Country chart"])).toEqual([])
    expect(controlRowsOf(["Note: see the heading"])).toEqual([])
  })
})
