import type * as PdfJsModule from "unpdf/pdfjs"

type PdfJs = typeof PdfJsModule

let pdfjs: Promise<PdfJs> | undefined

/**
 * pdf.js, loaded on the first PDF (1.7 MB of code most processes never need). This is unpdf's
 * build of Mozilla's pdf.js: the worker runs in-process, and where Node lacks a browser global
 * pdf.js expects (`DOMMatrix`, `navigator`) or a recent built-in, it adds a small stand-in only
 * when missing. Unlike pdfjs-dist's legacy build it carries no core-js, which replaced the
 * global `JSON.stringify` on Node 20 with a wrapper about 8x slower (and `Array.prototype.push`),
 * and it needs no native canvas package. `test/pdf-text-json.test.ts` holds the built-ins in place.
 */
const loadPdfJs = (): Promise<PdfJs> => pdfjs ??= import("unpdf/pdfjs")

/** The text of a PDF as markdown, and how many pages it has. */
export interface ExtractedText {
  readonly markdown: string
  readonly pages: number
}

interface Piece {
  readonly text: string
  readonly x: number
  readonly y: number
  readonly size: number
  readonly width: number
}

interface Line {
  readonly text: string
  readonly y: number
  readonly size: number
}

const quantile = (values: ReadonlyArray<number>, q: number) => {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) * q)]!
}

/** Text that would otherwise read as markdown structure (headings, quotes, raw HTML) is escaped. */
const escapeLine = (line: string) => line.replace(/^([#>])/, "\\$1").replace(/</g, "\\<")

/** Pieces on one baseline (within a fraction of the font size) form a line, left to right. */
const linesOf = (pieces: ReadonlyArray<Piece>): Array<Line> => {
  const lines: Array<{ y: number; size: number; pieces: Array<Piece> }> = []
  for (const piece of [...pieces].sort((a, b) => b.y - a.y || a.x - b.x)) {
    const line = lines.find((l) => Math.abs(l.y - piece.y) <= Math.max(1, Math.min(l.size, piece.size) * 0.4))
    if (line) {
      line.pieces.push(piece)
      line.size = Math.max(line.size, piece.size)
    } else {
      lines.push({ y: piece.y, size: piece.size, pieces: [piece] })
    }
  }
  return lines.sort((a, b) => b.y - a.y).map((line) => {
    const ordered = line.pieces.sort((a, b) => a.x - b.x)
    let text = ""
    let end = Number.NEGATIVE_INFINITY
    for (const piece of ordered) {
      const gap = piece.x - end
      if (text.length > 0 && gap > piece.size * 0.15 && !text.endsWith(" ") && !piece.text.startsWith(" ")) text += " "
      text += piece.text
      end = piece.x + piece.width
    }
    return { text: text.replace(/\s+/g, " ").trim(), y: line.y, size: line.size }
  }).filter((line) => line.text.length > 0)
}

/**
 * Paragraphs are separated where the gap between lines is clearly wider than the page's usual
 * line spacing (its lower quartile: on a short page, paragraph gaps can be half of all gaps);
 * short lines set clearly larger than the body text become headings. Pages are marked with an
 * HTML comment so a reader can cite them.
 */
const pageMarkdown = (lines: ReadonlyArray<Line>, bodySize: number): string => {
  const gaps = lines.slice(1).map((line, i) => lines[i]!.y - line.y).filter((gap) => gap > 0)
  const spacing = quantile(gaps, 0.25) || bodySize * 1.2
  const blocks: Array<string> = []
  let paragraph: Array<string> = []
  const flush = () => {
    if (paragraph.length > 0) blocks.push(paragraph.join("\n"))
    paragraph = []
  }
  lines.forEach((line, i) => {
    const gap = i === 0 ? 0 : lines[i - 1]!.y - line.y
    if (bodySize > 0 && line.size >= bodySize * 1.25 && line.text.length <= 120) {
      flush()
      blocks.push(`## ${escapeLine(line.text)}`)
      return
    }
    if (gap > spacing * 1.5) flush()
    paragraph.push(escapeLine(line.text))
  })
  flush()
  return blocks.join("\n\n")
}

/** Extracts the text of a PDF page by page; throws when the bytes are not a readable PDF. */
export const extractMarkdown = async (bytes: Uint8Array): Promise<ExtractedText> => {
  const { getDocument } = await loadPdfJs()
  const task = getDocument({
    // pdf.js takes ownership of the buffer it is given
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0
  })
  const pdf = await task.promise
  try {
    const pages: Array<Array<Line>> = []
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number)
      const content = await page.getTextContent()
      const pieces: Array<Piece> = []
      for (const item of content.items) {
        if (!("str" in item) || item.str.length === 0) continue
        const [a, b, , , x, y] = item.transform as Array<number>
        pieces.push({ text: item.str, x: x!, y: y!, size: Math.hypot(a!, b!) || item.height, width: item.width })
      }
      pages.push(linesOf(pieces))
      page.cleanup()
    }
    const bodySize = quantile(pages.flat().map((line) => line.size), 0.5)
    const markdown = pages
      .map((lines, i) => {
        const text = pageMarkdown(lines, bodySize)
        return i === 0 ? text : `<!-- page ${i + 1} -->\n\n${text}`
      })
      .filter((text) => text.replace(/<!--.*?-->/g, "").trim().length > 0)
      .join("\n\n")
    return { markdown, pages: pdf.numPages }
  } finally {
    await pdf.destroy()
  }
}
