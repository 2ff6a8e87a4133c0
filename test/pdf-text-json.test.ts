import { describe, expect, it } from "@effect/vitest"
import { extractMarkdown } from "../src/services/enforcement/PdfText.ts"
import { textPdf } from "./support/Pdf.ts"

// captured before anything in this file loads pdf.js
const { parse, stringify } = JSON

describe("PDF text extraction", () => {
  it("leaves the process's native JSON functions in place (pdf.js's legacy polyfills replace them on Node 20)", async () => {
    const pdf = await textPdf([{ heading: "Order Denying Export Privileges", paragraphs: ["Issued to a test party."] }])
    const extracted = await extractMarkdown(pdf)
    expect(extracted.markdown).toContain("Order Denying Export Privileges")
    expect(JSON.stringify).toBe(stringify)
    expect(JSON.parse).toBe(parse)
  })
})
