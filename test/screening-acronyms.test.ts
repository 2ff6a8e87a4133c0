import { describe, expect, it } from "@effect/vitest"
import { DefaultMinScore } from "../src/domain/Screening.ts"
import { acronymsOf } from "../src/services/screening/Acronyms.ts"
import type { BulkRecord } from "../src/services/screening/BulkFile.ts"
import { toEntry } from "../src/services/screening/ListEntry.ts"
import * as Matcher from "../src/services/screening/Matcher.ts"
import * as NameIndex from "../src/services/screening/NameIndex.ts"
import { normalize } from "../src/services/screening/Normalize.ts"

/**
 * Acronym queries: the initials of an organization's identifying words, with the letters of legal
 * forms and connecting words optional; how ties between names sharing initials are broken; and
 * that a long name found only through its initials reaches the scored candidates.
 */

const record = (name: string, type: string | null, altNames: Array<string> = []): BulkRecord =>
  ({
    name,
    type,
    alt_names: altNames,
    source: "Entity List (EL) - Bureau of Industry and Security"
  }) as BulkRecord

const texts = (name: string) => acronymsOf(normalize(name)).map((acronym) => acronym.text)

describe("acronyms of a name", () => {
  it("always takes the identifying words' initials, optionally those of legal forms and connecting words", () => {
    expect(texts("People's Liberation Army")).toEqual(["pla"])
    expect(texts("Octane Energy Group FZCO")).toEqual(["oeg", "oegf"])
    expect(texts("Bank of Kunlun Co Ltd").sort()).toEqual(["bkc", "bkcl", "bkl", "bok", "bokc", "bokcl", "bokl"])
    // Two letters alone are no acronym; with a legal form's letter they are.
    expect(texts("Bestway Line FZCO")).toEqual(["blf"])
    expect(texts("Bestway Line")).toEqual([])
  })

  it("skips single letters and numbers, stands for every word that may give a letter", () => {
    const [plain] = acronymsOf(normalize("Taihui Electronics Shenzhen Co Ltd"))
    expect(plain).toEqual({ text: "tes", mask: 0b11111, plain: true })
    expect(texts("Alpha 7 Beta y Gamma")).toEqual(["abg"])
    // "Engineering" is a name word, not a legal form: its letter is never optional.
    expect(texts("Southwest Institute of Electronic Engineering")).toEqual(["siee", "sioee"])
  })
})

const letters = [..."bcdfghklmnprstvz"]
const records = [
  record("Techno Energy, S.A.", "Entity"),
  record("TAIHUI ELECTRONICS SHENZHEN CO LTD", "Entity"),
  record("OCTANE ENERGY GROUP FZCO", "Entity"),
  record("Bestway Line FZCO", null),
  record("Carlos Francisco RODRIGUEZ", "Individual"),
  record("S.M.G.", null),
  record("SHAHID MEISAMI GROUP", "Entity", ["S.M.G."]),
  record("Nanjing Aixi Information Technology Co., Ltd.", null, ["Nanjing Aixi IT"]),
  record("NAI MANAGEMENT GMBH", "Entity"),
  // More short names one letter from "NAI" ("NAIB", "NABI", "NBAI" …) than candidates are scored in full.
  ...letters.flatMap((letter) => [`NAI${letter}`, `NA${letter}I`, `N${letter}AI`].map((name) => record(name, "Vessel")))
]
const entries = records.map(toEntry)
const matcher = Matcher.make(NameIndex.build(entries))

const ranked = (query: string) =>
  (matcher.search(query, { fuzzy: true }) ?? []).map((hit) => ({
    name: entries[hit.entry]!.record.name,
    entry: hit.entry,
    score: Math.round(hit.score * 1000) / 10
  }))

describe("acronym queries", () => {
  it("rank the name whose identifying initials they are above one that needs a legal form's letter", () => {
    const [first, second] = ranked("TES")
    expect(first).toMatchObject({ name: "TAIHUI ELECTRONICS SHENZHEN CO LTD", score: 90 })
    expect(second).toMatchObject({ name: "Techno Energy, S.A.", score: 88 })
    expect(ranked("OEG")[0]).toMatchObject({ name: "OCTANE ENERGY GROUP FZCO", score: 90 })
    expect(ranked("OEGF")[0]).toMatchObject({ name: "OCTANE ENERGY GROUP FZCO", score: 88 })
    expect(ranked("BLF")[0]!.score).toBeGreaterThanOrEqual(DefaultMinScore)
  })

  it("do not stand for a person's name", () => {
    expect(ranked("CFR").find((hit) => hit.name === "Carlos Francisco RODRIGUEZ")).toBeUndefined()
  })

  it("break a tie towards the party more of whose listed names match", () => {
    // Both list "S.M.G." itself; the second also has a name whose initials it is.
    const [first, second] = ranked("SMG")
    expect(first).toMatchObject({ name: "SHAHID MEISAMI GROUP", score: 100 })
    expect(second).toMatchObject({ name: "S.M.G.", score: 100 })
  })

  it("reach the scored candidates however many shorter names resemble the letters", () => {
    expect(letters.length * 3).toBeGreaterThan(Matcher.minCandidates)
    expect(ranked("NAI")[0]).toMatchObject({ name: "Nanjing Aixi Information Technology Co., Ltd.", score: 90 })
  })
})
