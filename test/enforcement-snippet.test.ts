import { describe, expect, it } from "@effect/vitest"
import { queryTerms } from "../src/services/enforcement/ArchiveSearch.ts"
import { fragmentDelimiter, highlighter, maxWords } from "../src/services/enforcement/ArchiveSnippet.ts"

/** The snippet of `text` for a query typed as `query`. */
const snippet = (query: string, text: string) => highlighter(queryTerms(query))(text)

/** `count` filler words `w1 w2 …`, numbered from `from`. */
const filler = (count: number, from = 1) => Array.from({ length: count }, (_, i) => `w${from + i}`).join(" ")

const bold = (text: string | null) => [...(text ?? "").matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1])

describe("archive snippet", () => {
  it("highlights a word whose accents the query leaves out, and keeps them", () => {
    expect(snippet("societe", "La Société Générale a exporté des lasers.")).toBe(
      "La **Société** Générale a exporté des lasers."
    )
    // typed with accents, and the text's accent as a combining mark
    expect(snippet("Société exporté", "La Socie\u0301te\u0301 a exporte des lasers.")).toBe(
      "La **Socie\u0301te\u0301** a **exporte** des lasers."
    )
  })

  it("matches the last query word as a prefix, the others whole", () => {
    expect(snippet("export lic", "An export license and a licensed exporter.")).toBe(
      "An **export** **license** and a **licensed** **exporter**."
    )
    expect(snippet("lic export", "An export license, the lic.")).toBe("An **export** license, the **lic**.")
  })

  it("highlights the forms that share a stem: companies finds company", () => {
    expect(snippet("companies", "The shipping company paid the companies in full.")).toBe(
      "The shipping **company** paid the **companies** in full."
    )
    expect(snippet("exporting lasers", "Exports were exported to an expo.")).toBe(
      "**Exports** were **exported** to an expo."
    )
  })

  it("never highlights a stopword, even one the query names", () => {
    expect(snippet("the export", "The export of the items.")).toBe("The **export** of the items.")
    expect(snippet("the", "The export of the items.")).toBe("The export of the items.")
  })

  it("highlights the letters of a word inside its punctuation, apostrophes and hyphens", () => {
    expect(snippet("company export", "(Export), the company's re-export; \"dual-use\" exports.")).toBe(
      "(**Export**), the **company**'s re-**export**; \"dual-use\" **exports**."
    )
    expect(snippet("use", "A dual-use item.")).toBe("A dual-**use** item.")
  })

  it("matches letters with digits whole, as the engine's number words, and as a prefix when last", () => {
    expect(snippet("3A001", "Items under ECCN 3A001.a.1 and 3A001s, not 3A0011.")).toBe(
      "Items under ECCN **3A001**.a.1 and **3A001s**, not **3A0011**."
    )
    expect(snippet("3a001 lasers", "Items under 3A001s and 3A001 lasers.")).toBe(
      "Items under 3A001s and **3A001** **lasers**."
    )
  })

  it("shows the first words, unhighlighted, when no word matches", () => {
    const text = `Party Name\nOrder Title\n${filler(100)}`
    const shown = snippet("zzzz", text)
    expect(shown).toBe(`Party Name Order Title ${filler(maxWords - 4)}`)
    expect(snippet("the", "Short text.")).toBe("Short text.")
    expect(snippet("anything", " \n ")).toBeNull()
  })

  it("shows two fragments of at most 30 words around highlights, in text order, covering different words", () => {
    const text = `${filler(40)} alpha ${filler(40, 41)} alpha ${filler(40, 81)} omega ${filler(40, 121)}`
    const shown = snippet("omega alpha", text)!
    const fragments = shown.split(fragmentDelimiter)
    expect(fragments).toHaveLength(2)
    // the first alpha (earliest of the equally good) and omega, not the second alpha
    expect(fragments[0]).toContain("w40 **alpha** w41")
    expect(fragments[1]).toContain("w120 **omega** w121")
    for (const fragment of fragments) {
      const words = fragment.split(" ")
      expect(words.length).toBeLessThanOrEqual(maxWords)
      expect(words.length).toBeGreaterThanOrEqual(12)
    }
  })

  it("prefers a passage holding several query words to one holding one", () => {
    const text = `${filler(40)} alpha ${filler(40, 41)} alpha ${filler(3, 81)} omega ${filler(40, 84)}`
    const shown = snippet("alpha omega", text)!
    const fragments = shown.split(fragmentDelimiter)
    expect(fragments[1]).toMatch(/\*\*alpha\*\* w81 w82 w83 \*\*omega\*\*/)
    expect(fragments[0]).toContain("w40 **alpha** w41")
  })

  it("continues the text past a highlight the first fragment would cut off, without an ellipsis", () => {
    const text = `Acme Corp ${filler(26)} acme sold lasers abroad. ${filler(20, 100)}`
    const shown = snippet("acme", text)!
    expect(shown).not.toContain(fragmentDelimiter)
    expect(shown).toMatch(/^\*\*Acme\*\* Corp w1 .* w26 \*\*acme\*\* sold lasers abroad\. w100/)
  })

  it("normalises white space and returns only whole words of the text", () => {
    const text = `Party\n\nTitle\t\t${filler(50)}  "Lasers,"\n\n(export)-controlled  ${filler(50, 200)} export`
    const shown = snippet("lasers export", text)!
    expect(shown).not.toMatch(/\s{2,}|\n|\t/)
    const words = new Set(text.split(/\s+/))
    expect(shown.replaceAll("**", "").split(" ").filter((word) => word !== "…" && !words.has(word))).toEqual([])
    expect(bold(shown)).toEqual(["Lasers", "export", "export"])
  })
})
