import { getDocument } from "unpdf/pdfjs"

export interface ParsedPdf {
  readonly pages: number
  readonly text: ReadonlyArray<string>
  readonly info: Record<string, unknown>
  /** Names of the fonts embedded as TrueType programs. */
  readonly embeddedFonts: ReadonlyArray<string>
}

/** Parses a PDF with pdf.js: page count, text per page, document information, embedded fonts. */
export const parsePdf = async (bytes: Uint8Array): Promise<ParsedPdf> => {
  const document = await getDocument({ data: bytes.slice(), useSystemFonts: false, isEvalSupported: false }).promise
  const text: Array<string> = []
  for (let n = 1; n <= document.numPages; n++) {
    const page = await document.getPage(n)
    const content = await page.getTextContent()
    text.push(content.items.map((item) => ("str" in item ? item.str : "")).join(" "))
  }
  const { info } = await document.getMetadata()
  const raw = Buffer.from(bytes).toString("latin1")
  const embeddedFonts = [...new Set(Array.from(raw.matchAll(/\/FontName \/([A-Z]{6}\+[A-Za-z-]+)/g), (m) => m[1]!))]
  const pages = document.numPages
  await document.destroy()
  return { pages, text, info: info as Record<string, unknown>, embeddedFonts }
}
