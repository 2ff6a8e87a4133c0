import { describe, expect, it } from "@effect/vitest"
import { parseParagraphPath, sliceParagraph } from "../../src/services/ecfr/Paragraph.ts"

/** The shape of 22 CFR 121.1: every category restarts at (a); first children often start on the parent's line. */
const usml = [
  "§ 121.1 The United States Munitions List.",
  "",
  "Category XI—Military Electronics",
  "",
  "(a) Electronic equipment—(1) Underwater hardware.",
  "",
  "(2) Radar.",
  "",
  "(b) Other.",
  "",
  "Category XII—Fire Control, Laser, Imaging, and Guidance Equipment",
  "",
  "(a) Fire control systems, as follows:",
  "",
  "(1) Fire control systems;",
  "",
  "(i) first roman",
  "",
  "(ii) second roman",
  "",
  "(2) Weapons sights;",
  "",
  "(h) Eighth.",
  "",
  "(i) Ninth, a letter after (h).",
  "",
  "Category XIII—Materials",
  "",
  "(a) Armor."
].join("\n")

const slice = (path: string) => sliceParagraph(usml, parseParagraphPath(path)!)
const found = (path: string) => {
  const result = slice(path)
  if (result._tag !== "Found") throw new Error(`${path}: ${result.reason}`)
  return result
}

describe("paragraph paths", () => {
  it("reads parenthesized, dotted and headed paths; rejects what is none", () => {
    expect(parseParagraphPath("(b)(2)(i)")).toEqual({ markers: ["b", "2", "i"] })
    expect(parseParagraphPath("b.2.i")).toEqual({ markers: ["b", "2", "i"] })
    expect(parseParagraphPath("Category XII (a)")).toEqual({ heading: "Category XII", markers: ["a"] })
    expect(parseParagraphPath("XII(a)(1)")).toEqual({ heading: "Category XII", markers: ["a", "1"] })
    for (const bad of ["(a", "(a)x", "", "(toolongmarker)"]) expect(parseParagraphPath(bad)).toBeUndefined()
  })

  it("slices a paragraph with its children, under its category, to the next sibling", () => {
    expect(found("Category XII (a)").text).toBe(
      "(a) Fire control systems, as follows:\n\n(1) Fire control systems;\n\n(i) first roman\n\n(ii) second roman\n\n" +
        "(2) Weapons sights;"
    )
    expect(found("Category XII (a)").heading).toBe("Category XII—Fire Control, Laser, Imaging, and Guidance Equipment")
    expect(found("XII(a)(1)").text).toBe("(1) Fire control systems;\n\n(i) first roman\n\n(ii) second roman")
    expect(found("XII(a)(1)(ii)").text).toBe("(ii) second roman")
    // (i) right after (h) is the letter, not a roman
    expect(found("XII(h)").text).toBe("(h) Eighth.")
    expect(found("XII(i)").text).toBe("(i) Ninth, a letter after (h).")
    // a first child on its parent's line
    expect(found("XI(a)(1)").text).toBe("(1) Underwater hardware.")
    expect(found("XI(a)(2)").text).toBe("(2) Radar.")
    // without a heading, the first (a) of the text
    expect(found("(b)").text).toBe("(b) Other.")
  })

  it("says what is there when a paragraph or heading is missing", () => {
    expect(slice("XII(d)")).toEqual({
      _tag: "Missing",
      reason: "no paragraph (d) under Category XII",
      available: ["(a)", "(h)", "(i)"]
    })
    expect(slice("XII(a)(3)")).toMatchObject({ reason: "no paragraph (3) under (a)", available: ["(1)", "(2)"] })
    expect(slice("Category XIV (a)")).toMatchObject({ reason: "no heading starting \"Category XIV\" in this text" })
  })
})
