import { describe, expect, it } from "@effect/vitest"
import { extractMarkdown } from "../src/services/enforcement/PdfText.ts"
import { textPdf } from "./support/Pdf.ts"

// captured before anything in this file loads pdf.js
const { parse, stringify } = JSON
const { push } = Array.prototype

describe("PDF text extraction", () => {
  // pdfjs-dist's legacy build brought core-js, which on Node 20 replaced these with slower wrappers
  // for the whole process: every JSON answer, REST and MCP, would have paid for one PDF import
  it("leaves the process's native JSON functions and array methods in place", async () => {
    const pdf = await textPdf([{ heading: "Order Denying Export Privileges", paragraphs: ["Issued to a test party."] }])
    const extracted = await extractMarkdown(pdf)
    expect(extracted.markdown).toContain("Order Denying Export Privileges")
    expect(JSON.stringify).toBe(stringify)
    expect(JSON.parse).toBe(parse)
    expect(Array.prototype.push).toBe(push)
    expect(Object.hasOwn(globalThis, "__core-js_shared__")).toBe(false)
  })
})
