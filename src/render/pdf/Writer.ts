import PDFDocument from "pdfkit"
import type { Tone } from "../../domain/documents/Fields.ts"
import type { Picture } from "../graphics/Graphics.ts"
import type { Block, Run } from "../Html.ts"
import { type FontName, fonts } from "./Fonts.ts"
import { drawHtmlTable } from "./Table.ts"
import { Colors, contentWidth, Page, ToneColors, Type } from "./Theme.ts"

export interface TocEntry {
  readonly level: 1 | 2
  readonly title: string
  readonly destination: string
  readonly page: number
}

/**
 * A pdfkit document with the flow primitives every layout uses: a cursor that breaks pages
 * before blocks that do not fit, headings that feed the outline and the table of contents,
 * paragraphs of styled runs, facts grids and status badges.
 */
export class Writer {
  readonly doc: PDFKit.PDFDocument
  readonly toc: Array<TocEntry> = []
  readonly left = Page.marginX
  readonly width = contentWidth
  private outlineParent: PDFKit.PDFOutline | undefined
  private readonly pictures: Array<{ picture: Picture; page: number; x: number; y: number }> = []
  private destinations = 0

  constructor(info: PDFKit.DocumentInfo) {
    this.doc = new PDFDocument({
      size: "LETTER",
      bufferPages: true,
      autoFirstPage: false,
      margins: { top: Page.top, bottom: Page.bottom, left: Page.marginX, right: Page.marginX },
      info,
      lang: "en-US",
      displayTitle: true,
      pdfVersion: "1.7"
    })
    for (const [name, face] of Object.entries(fonts().faces)) this.doc.registerFont(name, face as any)
  }

  get y(): number {
    return this.doc.y
  }

  set y(value: number) {
    this.doc.y = value
  }

  get bottom(): number {
    return Page.height - Page.bottom
  }

  /** Zero-based index of the current page. */
  get pageIndex(): number {
    const range = this.doc.bufferedPageRange()
    return range.start + range.count - 1
  }

  addPage(): void {
    this.doc.addPage()
    this.doc.x = this.left
    this.doc.y = Page.top
  }

  /** Starts a new page unless `height` more points fit below the cursor. */
  ensure(height: number): void {
    if (this.doc.y + height > this.bottom) this.addPage()
  }

  font(name: FontName, size: number, color: string = Colors.ink): this {
    this.doc.font(name).fontSize(size).fillColor(color)
    return this
  }

  space(points: number): void {
    if (this.doc.y + points <= this.bottom) this.doc.y += points
  }

  /** A numbered heading kept with the lines that follow; it becomes a bookmark and a contents entry. */
  heading(level: 1 | 2, title: string): void {
    const size = level === 1 ? Type.h1 : Type.h2
    this.ensure(level === 1 ? 110 : 80)
    if (level === 1 && this.doc.y > Page.top + 1) this.doc.y += 10
    const destination = `section-${++this.destinations}`
    this.doc.addNamedDestination(destination, "XYZ", 0, Page.height - this.doc.y + 12, null)
    this.font("sansSemiBold", size, level === 1 ? Colors.navy : Colors.accent)
    this.doc.text(title, this.left, this.doc.y, { width: this.width })
    if (level === 1) {
      const y = this.doc.y + 3
      this.doc.moveTo(this.left, y).lineTo(this.left + this.width, y).lineWidth(1.2).strokeColor(Colors.navy).stroke()
      this.doc.y = y + 9
      this.outlineParent = this.doc.outline.addItem(title)
    } else {
      this.doc.y += 4
      ;(this.outlineParent ?? this.doc.outline).addItem(title)
    }
    this.toc.push({ level, title, destination, page: this.pageIndex })
  }

  /** A small upper-case caption above a block (the label of a prose or table field). */
  caption(text: string): void {
    this.ensure(64)
    this.font("sansSemiBold", Type.label, Colors.muted)
    this.doc.text(text.toUpperCase(), this.left, this.doc.y, { width: this.width, characterSpacing: 0.5 })
    this.doc.y += 3
  }

  /** Paragraphs and lists of styled runs, flowing across pages. */
  blocks(blocks: ReadonlyArray<Block>, options: { readonly indent?: number; readonly size?: number } = {}): void {
    const indent = options.indent ?? 0
    const size = options.size ?? Type.body
    for (const block of blocks) {
      if (block.kind === "paragraph") {
        this.ensure(size * 2.6)
        this.runs(block.runs, this.left + indent, this.width - indent, size)
        this.doc.y += size * 0.55
      } else if (block.kind === "list") {
        block.items.forEach((item, index) => {
          const marker = block.ordered ? `${index + 1}.` : "•"
          this.ensure(size * 2.6)
          const top = this.doc.y
          this.font("serif", size, Colors.muted).doc.text(marker, this.left + indent, top, {
            width: 16,
            lineBreak: false
          })
          this.doc.y = top
          this.blocks(item, { indent: indent + 16, size })
        })
      } else {
        drawHtmlTable(this, block.rows, indent)
      }
    }
  }

  runs(runs: ReadonlyArray<Run>, x: number, width: number, size: number, color: string = Colors.ink): void {
    const last = runs.length - 1
    this.doc.x = x
    runs.forEach((run, index) => {
      const name: FontName = run.bold ? (run.italic ? "serifBoldItalic" : "serifSemiBold") : run.italic
        ? "serifItalic"
        : "serif"
      this.font(name, size, run.link ? Colors.link : color)
      const options: PDFKit.Mixins.TextOptions = {
        width,
        lineGap: Type.bodyGap * (size / Type.body),
        continued: index < last,
        underline: run.underline || run.link !== undefined,
        // pdfkit carries options from one continued call to the next: a run without a link resets it
        link: (run.link ?? null) as string
      }
      if (index === 0) this.doc.text(run.text, x, this.doc.y, options)
      else this.doc.text(run.text, options)
    })
    this.doc.x = this.left
  }

  /** A rounded status pill; returns its width. */
  badge(label: string, tone: Tone, x: number, y: number, size = Type.small): number {
    const colors = ToneColors[tone]
    this.font("sansSemiBold", size, colors.fg)
    const width = this.doc.widthOfString(label) + 12
    const height = size + 6
    this.doc.roundedRect(x, y, width, height, height / 2).fill(colors.bg)
    this.doc.fillColor(colors.fg).text(label, x + 6, y + 3.1, { width: width - 12, lineBreak: false })
    return width
  }

  /** A shaded note spanning the content width. */
  callout(text: string, tone: Tone = "neutral"): void {
    const colors = ToneColors[tone]
    this.font("serifItalic", Type.body, colors.fg)
    const height = this.doc.heightOfString(text, { width: this.width - 24 }) + 16
    this.ensure(height + 6)
    const top = this.doc.y
    this.doc.rect(this.left, top, this.width, height).fill(colors.bg)
    this.doc.rect(this.left, top, 3, height).fill(colors.fg)
    this.font("serifItalic", Type.body, colors.fg).doc.text(text, this.left + 14, top + 8, { width: this.width - 24 })
    this.doc.y = top + height + 8
  }

  /** Reserves the picture's space in the flow; `placePictures` draws it once its pixels exist. */
  image(picture: Picture): void {
    this.ensure(picture.height + 8)
    this.pictures.push({ picture, page: this.pageIndex, x: this.left, y: this.doc.y })
    this.doc.y += picture.height + 10
  }

  async placePictures(): Promise<void> {
    const pngs = await Promise.all(this.pictures.map(({ picture }) => picture.png))
    this.pictures.forEach(({ page, picture, x, y }, index) => {
      const png = pngs[index]!
      this.doc.switchToPage(page)
      this.doc.image(Buffer.from(png.buffer, png.byteOffset, png.byteLength), x, y, {
        width: picture.width,
        height: picture.height
      })
    })
  }

  /** The finished file. */
  finish(): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      const chunks: Array<Buffer> = []
      this.doc.on("data", (chunk: Buffer) => chunks.push(chunk))
      this.doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))))
      this.doc.on("error", reject)
      this.doc.end()
    })
  }
}
