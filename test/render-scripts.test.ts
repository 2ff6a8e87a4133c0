import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { validatePayload } from "../src/domain/documents/Contract.ts"
import { contracts } from "../src/domain/documents/index.ts"
import { renderDocument } from "../src/render/Document.ts"
import { loadFallback } from "../src/render/pdf/FallbackFonts.ts"
import { faceCovers, textRuns } from "../src/render/pdf/TextRuns.ts"
import { fullCertificate, scriptNames } from "./fixtures/documents/hardCases.ts"
import { parsePdf } from "./support/ParsePdf.ts"

const render = async (values: Record<string, unknown>, draft = false) => {
  const contract = contracts["restricted-party-screening"]
  const valid = validatePayload(contract, values)
  if (Either.isLeft(valid)) throw new Error(`invalid payload: ${JSON.stringify(valid.left)}`)
  return renderDocument(contract, valid.right, { draft, now: new Date("2026-11-20T00:00:00Z") })
}

const primaryCovers = (code: number) => faceCovers("serif", code) && faceCovers("sans", code)

describe("party names in every script", () => {
  it("prints names in nine scripts with embedded Noto faces and no unprintable-text warning", async () => {
    const rendered = await render(fullCertificate(), true)
    expect(rendered.warnings.filter((warning) => warning.includes("cannot draw"))).toEqual([])
    const pdf = await parsePdf(rendered.bytes)
    const fonts = pdf.embeddedFonts.join(" ")
    // Han characters without kana or hangul beside them are set in the Chinese faces
    for (
      const face of [
        "NotoSansJP",
        "NotoSansSC",
        "NotoSansKR",
        "NotoSansArabic",
        "NotoSansHebrew",
        "NotoSansThai",
        "NotoSans-"
      ]
    ) {
      expect(fonts).toContain(face)
    }
    // pdf.js splits text items wherever the face changes (CJK faces come in many files): compare without spaces
    const text = pdf.text.join("").replace(/[\s\u0000-\u001f]+/g, "").normalize("NFKC")
    for (const [name, , script] of scriptNames) {
      // right-to-left names come back word by word in extraction order; shaped Thai and Devanagari come back
      // in glyph order (pre-base vowels first) or without vowel glyphs shaping shares between characters
      // (the page shows them), so their first word stands in
      const words = /Arabic|Hebrew/.test(script)
        ? name.split(/[^\p{L}]+/u).filter((word) => /[^\x20-\x7e]/.test(word))
        : script === "Thai" || script === "Devanagari"
        ? [name.split(" ")[0]!]
        : [name.replace(/\s+/g, "")]
      for (const word of words) expect(text, script).toContain(word.normalize("NFKC"))
    }
  }, 120_000)

  it("warns only for characters no embedded face has", async () => {
    const values = fullCertificate()
    values.TRANSACTION_REFERENCE = "Order \u{13000}\u{13001} 中文"
    const rendered = await render(values, true)
    expect(rendered.warnings).toContain("TRANSACTION_REFERENCE: 2 character(s) the embedded fonts cannot draw")
    expect(rendered.warnings.some((warning) => warning.startsWith("PARTIES"))).toBe(false)
  }, 120_000)

  it("cuts a mixed-script line into runs per face, in visual order for right-to-left text", async () => {
    const fallback = await loadFallback(["Alnoor شركة النور 2024 LLC", "株式会社 Tōshiba Ελλάδα"], primaryCovers)
    const mixed = textRuns("株式会社 Tōshiba Ελλάδα", "serif", fallback)
    expect(mixed.map((run) => run.text)).toEqual(["株式会社 ", "Tōshiba ", "Ελλάδα"])
    expect(typeof mixed[0]!.face === "object" && typeof mixed[1]!.face === "string").toBe(true)
    const rtl = textRuns("Alnoor شركة النور 2024 LLC", "sans", fallback)
    // the Arabic words keep their logical order inside their run (fontkit lays them out right to left);
    // digits after Arabic letters belong to the right-to-left span (rule W2), so they print left of it
    expect(rtl.map((run) => run.text)).toEqual(["Alnoor ", "2024", "شركة النور ", " LLC"])
    const rtlFirst = textRuns("شركة النور 2024", "sans", fallback)
    // a right-to-left paragraph: the number sits to the left of the words it follows
    expect(rtlFirst.map((run) => run.text.trim())).toEqual(["2024", "شركة النور"])
  }, 60_000)
})
