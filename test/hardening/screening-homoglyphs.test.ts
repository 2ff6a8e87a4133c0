import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Screening from "../../src/services/Screening.ts"
import { fixtureText, screeningApp } from "../support/ScreeningApp.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

/**
 * A listed name typed with look-alike letters from another script inside a Latin word (Cyrillic
 * "о", "е", "х", "р" in "Rostov"; Greek, Armenian, Cherokee capitals and letters) or padded with invisible characters (tag characters, zero-width
 * joiners between the look-alikes) must still find the listed party: a no_match here is a missed
 * denied party.
 */
describe("screening names written with look-alike letters and invisible characters", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ app: screeningApp(Screening.layerFromText(fixtureText)) })
  })
  afterAll(() => server.close())

  const screen = async (name: string) => {
    const response = await server.get(`/api/csl?name=${encodeURIComponent(name)}`)
    expect(response.status).toBe(200)
    return await response.json() as { result: string; matches: ReadonlyArray<{ id: string; score: number }> }
  }

  const cyrillic: Record<string, string> = { a: "а", e: "е", o: "о", p: "р", c: "с", x: "х", y: "у", s: "ѕ", i: "і" }
  const greek: Record<string, string> = {
    A: "Α",
    B: "Β",
    E: "Ε",
    H: "Η",
    I: "Ι",
    K: "Κ",
    M: "Μ",
    N: "Ν",
    O: "Ο",
    P: "Ρ",
    T: "Τ",
    X: "Χ"
  }
  const swap = (text: string, table: Record<string, string>) => [...text].map((c) => table[c] ?? c).join("")

  it.each([
    ["Cyrillic look-alikes inside Latin words", "Rostov Heavy Industries", swap("Rostov Heavy Industries", cyrillic)],
    ["Greek capitals inside Latin capitals", "ROSTOV HEAVY INDUSTRIES", swap("ROSTOV HEAVY INDUSTRIES", greek)],
    ["Cyrillic look-alikes in a person's name", "Sergei Petrovich Ivanov", swap("Sergei Petrovich Ivanov", cyrillic)],
    ["Armenian look-alikes", "Tehran Precision Components", "Tehra\u0578 Precisi\u0585\u0578 Compo\u0578e\u0578ts"],
    ["Cherokee look-alikes", "Kazan Aviation Repair Plant", "\u13e6azan Aviation Repair \u13e2lant"],
    [
      "look-alikes split off by zero-width joiners",
      "Tehran Precision Components",
      "Tehr\u200dаn Prес\u200dіѕіоn Components"
    ]
  ])("%s", async (_label, plainQuery, query) => {
    const plain = await screen(plainQuery)
    expect(plain.result).toBe("potential_match")
    const body = await screen(query)
    expect(body.result).toBe("potential_match")
    expect(body.matches[0]?.id).toBe(plain.matches[0]?.id)
    expect(body.matches[0]?.score).toBe(plain.matches[0]?.score)
  })

  it("ignores invisible tag characters the way it ignores zero-width spaces", async () => {
    const plain = await screen("Kazan Aviation Repair Plant")
    const tagged = await screen("Kazan\u{E0041} Aviation Repair\u{E0020} Plant")
    expect(tagged.result).toBe("potential_match")
    expect(tagged.matches[0]?.id).toBe(plain.matches[0]?.id)
    expect(tagged.matches[0]?.score).toBe(plain.matches[0]?.score)
  })
})
