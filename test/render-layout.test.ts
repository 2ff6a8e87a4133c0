import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { validatePayload } from "../src/domain/documents/Contract.ts"
import { contracts } from "../src/domain/documents/index.ts"
import { renderDocument } from "../src/render/Document.ts"
import { classificationPayload } from "./fixtures/documents/classification.ts"
import { fullCertificate } from "./fixtures/documents/hardCases.ts"
import { parsePdf } from "./support/ParsePdf.ts"

const renderCertificate = async (values: Record<string, unknown>, draft: boolean) => {
  const contract = contracts["restricted-party-screening"]
  const valid = validatePayload(contract, values)
  if (Either.isLeft(valid)) throw new Error(`invalid payload: ${JSON.stringify(valid.left)}`)
  const rendered = await renderDocument(contract, valid.right, { draft, now: new Date("2026-11-20T00:00:00Z") })
  return { ...rendered, pdf: await parsePdf(rendered.bytes) }
}

describe("screening certificate layout", () => {
  it(
    "keeps 12 fully filled parties, statements, certification and signature on one page (final and draft)",
    async () => {
      for (const draft of [false, true]) {
        const { pdf, warnings } = await renderCertificate(fullCertificate(), draft)
        expect(pdf.pages, draft ? "draft" : "final").toBe(1)
        expect(warnings).toEqual([])
        const text = pdf.text[0]!
        for (
          const label of ["PARTIES SCREENED", "OWNERSHIP REVIEW", "ADJUDICATION", "CERTIFICATION", "SIGNATURE", "DATE"]
        ) {
          expect(text).toContain(label)
        }
        expect(text).toContain("Müller & Söhne GmbH – Präzisionsoptik")
      }
    },
    120_000
  )

  it("continues beyond one page with the certification and signature kept together on the last page", async () => {
    const values = fullCertificate()
    values.ADJUDICATION_NOTES = Array.from(
      { length: 40 },
      (_, i) => `Hit ${i + 1} reviewed against the Entity List entry; different address, registration and officers.`
    ).join(" ")
    const { pdf, warnings } = await renderCertificate(values, false)
    expect(pdf.pages).toBe(2)
    expect(warnings).toEqual(["the certificate runs to 2 pages; shorten the statements or parties"])
    expect(pdf.text[0]).toContain("Continued on page 2. The certification and signature on page 2 cover every page.")
    expect(pdf.text[1]).toContain("I certify that the parties above were screened")
    expect(pdf.text[1]).toContain("SIGNATURE")
    expect(pdf.text[0]).not.toContain("SIGNATURE")
  }, 120_000)
})

describe("report sign-off", () => {
  it("draws signature and date lines for every signatory, name, title and date on the same page", async () => {
    const contract = contracts.classification
    const valid = validatePayload(contract, classificationPayload)
    if (Either.isLeft(valid)) throw new Error("invalid payload")
    const rendered = await renderDocument(contract, valid.right, {
      draft: false,
      now: new Date("2026-11-20T00:00:00Z")
    })
    const pdf = await parsePdf(rendered.bytes)
    const all = pdf.text.join(" ")
    expect(all.match(/SIGNATURE/g)).toHaveLength(3)
    for (const [name, date] of [["John Roe", "November 21, 2026"], ["Alex Smith", "November 20, 2026"]] as const) {
      const page = [...pdf.text].reverse().find((text) => text.includes(`${name},`))
      expect(page, name).toMatch(new RegExp(`SIGNATURE[\\s\\S]*${date}`))
    }
  }, 120_000)
})
