import PDFDocument from "pdfkit"
import type { Tone } from "../../domain/documents/Fields.ts"
import type { Picture } from "../graphics/Graphics.ts"
import type { Block, Run } from "../Html.ts"
import { escapedMetadata } from "./Archival.ts"
import type { Fallback, FallbackFace } from "./FallbackFonts.ts"
import { skipRepeatedFills } from "./FillColor.ts"
import { fitBlock, type FitBox, fitLine, type Fitted } from "./Fit.ts"
import { type FontName, fonts } from "./Fonts.ts"
import { sharedLayouts } from "./LayoutCache.ts"
import { bufferedOutput } from "./Output.ts"
import { Pictures } from "./Pictures.ts"
import { drawHtmlTable } from "./Table.ts"
import { Tags } from "./Tags.ts"
import { textRuns } from "./TextRuns.ts"

/** Printable ASCII: always drawn by the primary face, in one run. */
const ascii = /^[\x20-\x7e]*$/
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
 * paragraphs of styled runs, facts grids and status badges. The document is tagged (`tags`:
 * each primitive draws inside its structure element or as an artifact); an archival one also
 * identifies itself as PDF/A-2b with an sRGB output intent.
 */
export class Writer {
  readonly doc: PDFKit.PDFDocument
  readonly toc: Array<TocEntry> = []
  readonly left = Page.marginX
  readonly width = contentWidth
  private outlineParent: PDFKit.PDFOutline | undefined
  private readonly pictures = new Pictures(this)
  private destinations = 0
  private readonly registered = new Set<string>()
  private readonly widths = new Map<FontName, Map<number, Map<number, Map<string, number>>>>()
  private readonly heights = new Map<string, number>()

  readonly tags: Tags
  private readonly output: ReturnType<typeof bufferedOutput>
  private readonly layouts: ReturnType<typeof sharedLayouts>

  constructor(info: PDFKit.DocumentInfo, readonly fallback: Fallback, options: { readonly archival: boolean }) {
    this.doc = new PDFDocument({
      size: "LETTER",
      bufferPages: true,
      autoFirstPage: false,
      margins: { top: Page.top, bottom: Page.bottom, left: Page.marginX, right: Page.marginX },
      // an empty entry would have no XMP counterpart, which PDF/A does not allow
      info: Object.fromEntries(Object.entries(info).filter(([, value]) => value !== "")),
      lang: "en-US",
      displayTitle: true,
      pdfVersion: "1.7",
      tagged: true,
      ...(options.archival ? { subset: "PDF/A-2b" as const } : {})
    })
    escapedMetadata(this.doc)
    this.output = bufferedOutput(this.doc)
    this.layouts = sharedLayouts(this.doc)
    skipRepeatedFills(this.doc)
    this.tags = new Tags(this.doc)
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
    // content being drawn continues, marked as the same structure element, on the new page
    if (this.tags.drawing) this.doc.continueOnNewPage()
    else this.doc.addPage()
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

  private use(face: FontName | FallbackFace): PDFKit.Mixins.TextOptions {
    if (typeof face === "string") {
      this.doc.font(face)
      return { features: undefined as unknown as Array<PDFKit.Mixins.OpenTypeFeatures> }
    }
    if (!this.registered.has(face.key)) {
      // pdfkit embeds an already opened fontkit face (our weight instance); its typings name only file sources
      this.doc.registerFont(face.key, face.font as unknown as PDFKit.Mixins.PDFFontSource)
      this.registered.add(face.key)
    }
    this.doc.font(face.key)
    // pdfkit lays text out word by word unless features are given; joining and right-to-left runs need the whole run
    return { features: (face.complex ? [] : undefined) as unknown as Array<PDFKit.Mixins.OpenTypeFeatures> }
  }

  /**
   * `doc.text` for text from a payload: drawn run by run in the faces that have its glyphs (see
   * `TextRuns`). Size and colour are the current ones; `x`/`y` undefined continues the flow.
   */
  write(text: string, name: FontName, x?: number, y?: number, options: PDFKit.Mixins.TextOptions = {}): void {
    const runs = textRuns(text, name, this.fallback)
    if (x !== undefined && y !== undefined && runs.length === 1 && this.oneLine(text, name, options)) {
      // what pdfkit's line wrapper would do for a line that needs no wrapping, without running it
      this.doc.font(name).text(text, x, y, { ...options, width: undefined, lineBreak: false })
      this.doc.x = x
      this.doc.y = y + this.doc.currentLineHeight(true) + (options.lineGap ?? 0)
      return
    }
    const last = runs.length - 1
    runs.forEach((run, i) => {
      const features = this.use(run.face)
      const each = { ...options, ...features, continued: i < last ? true : options.continued ?? false }
      if (i === 0 && x !== undefined) this.doc.text(run.text, x, y, each)
      else this.doc.text(run.text, each)
    })
    this.doc.font(name)
  }

  /** Width of one line of `text` in `name` at the current size. */
  widthOf(text: string, name: FontName, options: PDFKit.Mixins.TextOptions = {}): number {
    // tables measure the same cell several times; shaping a complex script each time is what costs
    // the face's line height stands for the current size (pdfkit keeps the size private)
    const size = this.doc.font(name).currentLineHeight()
    const widths = this.widthsAt(name, size, options.characterSpacing ?? 0)
    const known = widths.get(text)
    if (known !== undefined) return known
    let width = 0
    for (const run of textRuns(text, name, this.fallback)) {
      width += this.doc.widthOfString(run.text, { ...options, ...this.use(run.face) })
    }
    this.doc.font(name)
    widths.set(text, width)
    return width
  }

  /** Measured widths by face, size and letter spacing (nested: no key string per measurement). */
  private widthsAt(name: FontName, size: number, spacing: number): Map<string, number> {
    let bySize = this.widths.get(name)
    if (bySize === undefined) this.widths.set(name, bySize = new Map())
    let bySpacing = bySize.get(size)
    if (bySpacing === undefined) bySize.set(size, bySpacing = new Map())
    let byText = bySpacing.get(spacing)
    if (byText === undefined) bySpacing.set(spacing, byText = new Map())
    return byText
  }

  /**
   * Whether `text` (in a primary face) is one line at `options.width` with room to spare: pdfkit's
   * line wrapper, the costliest part of setting text, then has nothing to do.
   */
  private oneLine(text: string, name: FontName, options: PDFKit.Mixins.TextOptions): boolean {
    if (options.width === undefined || options.continued || options.lineBreak === false) return false
    if (options.height !== undefined || text === "" || text.length * 2 > options.width) return false
    if (text.includes("\n") || !ascii.test(text)) return false
    return this.widthOf(text, name, options) < options.width - 1
  }

  /** Height of `text` wrapped at `width` in `name` at the current size. */
  heightOf(text: string, name: FontName, options: PDFKit.Mixins.TextOptions & { width: number }): number {
    const runs = textRuns(text, name, this.fallback)
    this.doc.font(name)
    if (runs.length === 1 && this.oneLine(text, name, options)) {
      return this.doc.currentLineHeight(true) + (options.lineGap ?? 0)
    }
    if (runs.length === 1) {
      // tables are measured for their layout, for keeping with a heading and again to fit a page
      const key = `${name}\u0000${this.doc.currentLineHeight()}\u0000${options.width}\u0000${
        options.lineGap ?? 0
      }\u0000${options.characterSpacing ?? 0}\u0000${text}`
      const known = this.heights.get(key)
      if (known !== undefined) return known
      const height = this.doc.heightOfString(text, options)
      this.heights.set(key, height)
      return height
    }
    // runs in several faces wrap as one flow: lines counted from the widths, with room for word breaks
    const line = this.doc.currentLineHeight(true) + (options.lineGap ?? 0)
    const lines = text.split("\n").reduce((sum, part) => {
      const width = this.widthOf(part, name, options)
      return sum + Math.max(1, Math.ceil((width * (width > options.width ? 1.15 : 1)) / options.width))
    }, 0)
    return lines * line
  }

  /**
   * One line of `text` that fits `width`: at `size`, else shrunk down to `minSize`, else cut
   * with an ellipsis at `minSize`. Sets the font and size it returns.
   */
  fitLine(text: string, name: FontName, size: number, width: number, minSize = size): Fitted {
    return fitLine(this, text, name, size, width, minSize)
  }

  /**
   * `text` wrapped at `width` within `height`: at `size`, else at the largest size down to
   * `minSize` that fits, else cut with an ellipsis at `minSize`. Sets the font and size it returns.
   */
  fitBlock(text: string, name: FontName, box: FitBox): Fitted {
    return fitBlock(this, text, name, box)
  }

  space(points: number): void {
    if (this.doc.y + points <= this.bottom) this.doc.y += points
  }

  /** The room a heading asks for: its lines and the space around them, and the first `next` points after it. */
  headingNeed(level: 1 | 2, title: string, next = 0): number {
    this.font("sansSemiBold", level === 1 ? Type.h1 : Type.h2)
    const own = this.heightOf(title, "sansSemiBold", { width: this.width }) + (level === 1 ? 22 : 4)
    return Math.max(level === 1 ? 110 : 80, own + next)
  }

  /** Starts a new page unless `height` fits below the cursor, when it fits on a page at all. */
  keep(height: number): void {
    if (height <= this.bottom - Page.top) this.ensure(height)
  }

  /**
   * A numbered heading kept with the first `next` points of what follows it (never alone at the
   * foot of a page); it becomes a bookmark and a contents entry.
   */
  heading(level: 1 | 2, title: string, next = 0): void {
    const size = level === 1 ? Type.h1 : Type.h2
    this.ensure(level === 1 ? 110 : 80)
    this.keep(this.headingNeed(level, title, next))
    if (level === 1 && this.doc.y > Page.top + 1) this.doc.y += 10
    const destination = `section-${++this.destinations}`
    this.doc.addNamedDestination(destination, "XYZ", 0, Page.height - this.doc.y + 12, null)
    this.tags.content(level === 1 ? "H1" : "H2", () => {
      this.font("sansSemiBold", size, level === 1 ? Colors.navy : Colors.accent)
      this.write(title, "sansSemiBold", this.left, this.doc.y, { width: this.width })
    })
    if (level === 1) {
      const y = this.doc.y + 3
      this.rule(y, 1.2, Colors.navy)
      this.doc.y = y + 9
      this.outlineParent = this.doc.outline.addItem(title)
    } else {
      this.doc.y += 4
      ;(this.outlineParent ?? this.doc.outline).addItem(title)
    }
    this.toc.push({ level, title, destination, page: this.pageIndex })
  }

  /** Height of a caption line and the space under it. */
  get captionHeight(): number {
    return Type.label * 1.3 + 3
  }

  /** A small upper-case caption above a block (the label of a prose or table field), kept with its first `next` points. */
  caption(text: string, next = 0): void {
    this.ensure(64)
    this.keep(this.captionHeight + next)
    this.tags.content("P", () => {
      this.font("sansSemiBold", Type.label, Colors.muted)
      this.doc.text(text.toUpperCase(), this.left, this.doc.y, { width: this.width, characterSpacing: 0.5 })
    })
    this.doc.y += 3
  }

  /** A horizontal rule across the content width (decoration). */
  rule(y: number, width: number, color: string): void {
    this.tags.artifact(() => {
      this.doc.moveTo(this.left, y).lineTo(this.left + this.width, y).lineWidth(width).strokeColor(color).stroke()
    })
  }

  /** Paragraphs and lists of styled runs, flowing across pages. */
  blocks(blocks: ReadonlyArray<Block>, options: { readonly indent?: number; readonly size?: number } = {}): void {
    const indent = options.indent ?? 0
    const size = options.size ?? Type.body
    for (const block of blocks) {
      if (block.kind === "paragraph") {
        this.ensure(size * 2.6)
        this.tags.content("P", () => this.runs(block.runs, this.left + indent, this.width - indent, size))
        this.doc.y += size * 0.55
      } else if (block.kind === "list") {
        this.tags.group("L", () =>
          block.items.forEach((item, index) => {
            const marker = block.ordered ? `${index + 1}.` : "•"
            this.ensure(size * 2.6)
            const top = this.doc.y
            this.tags.group("LI", () => {
              this.tags.content("Lbl", () =>
                this.font("serif", size, Colors.muted).doc.text(marker, this.left + indent, top, {
                  width: 16,
                  lineBreak: false
                }))
              this.doc.y = top
              this.tags.group("LBody", () =>
                this.blocks(item, { indent: indent + 16, size }))
            })
          }))
      } else {
        drawHtmlTable(this, block.rows, indent)
      }
    }
  }

  runs(runs: ReadonlyArray<Run>, x: number, width: number, size: number, color: string = Colors.ink): void {
    const pieces = runs.flatMap((run) => {
      const name: FontName = run.bold ? (run.italic ? "serifBoldItalic" : "serifSemiBold") : run.italic
        ? "serifItalic"
        : "serif"
      return textRuns(run.text, name, this.fallback).map((piece) => ({ run, piece, name }))
    })
    const last = pieces.length - 1
    this.doc.x = x
    pieces.forEach(({ name, piece, run }, index) => {
      this.font(name, size, run.link ? Colors.link : color)
      const options: PDFKit.Mixins.TextOptions = {
        ...this.use(piece.face),
        width,
        lineGap: Type.bodyGap * (size / Type.body),
        continued: index < last,
        underline: run.underline || run.link !== undefined,
        // pdfkit carries options from one continued call to the next: a run without a link resets it
        link: (run.link ?? null) as string
      }
      if (index === 0) this.doc.text(piece.text, x, this.doc.y, options)
      else this.doc.text(piece.text, options)
    })
    this.doc.x = this.left
  }

  /**
   * A rounded status pill no wider than `maxWidth` (its label shrinks, then is cut); returns its
   * width.
   */
  badge(label: string, tone: Tone, x: number, y: number, size = Type.small, maxWidth = this.width): number {
    const colors = ToneColors[tone]
    this.font("sansSemiBold", size, colors.fg)
    const fitted = this.fitLine(label, "sansSemiBold", size, maxWidth - 12, Math.max(6, size - 1.8))
    const width = this.widthOf(fitted.text, "sansSemiBold") + 12
    const height = size + 6
    this.tags.artifact(() => this.doc.roundedRect(x, y, width, height, height / 2).fill(colors.bg))
    this.doc.fillColor(colors.fg)
    this.write(fitted.text, "sansSemiBold", x + 6, y + 3.1 + (size - fitted.size) / 2, {
      width: width - 12 + 1,
      lineBreak: false
    })
    return width
  }

  /** A shaded note spanning the content width. */
  callout(text: string, tone: Tone = "neutral"): void {
    const colors = ToneColors[tone]
    this.font("serifItalic", Type.body, colors.fg)
    const height = this.heightOf(text, "serifItalic", { width: this.width - 24 }) + 16
    this.ensure(height + 6)
    const top = this.doc.y
    this.tags.artifact(() => {
      this.doc.rect(this.left, top, this.width, height).fill(colors.bg)
      this.doc.rect(this.left, top, 3, height).fill(colors.fg)
    })
    this.tags.content(
      "P",
      () =>
        this.font("serifItalic", Type.body, colors.fg).write(text, "serifItalic", this.left + 14, top + 8, {
          width: this.width - 24
        })
    )
    this.doc.y = top + height + 8
  }

  /** Reserves the picture's space in the flow; `placePictures` draws it once its pixels exist. */
  image(picture: Picture): void {
    this.ensure(picture.height + 8)
    this.pictures.reserve(picture, this.left, this.doc.y)
    this.doc.y += picture.height + 10
  }

  placePictures(): Promise<void> {
    return this.pictures.place()
  }

  /** The finished file. */
  finish(): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      // the file is collected by `output`; the stream only signals the end
      this.doc.on("end", () => {
        this.layouts.trim()
        const bytes = this.output.bytes()
        resolve(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))
      })
      this.doc.on("error", reject)
      this.doc.resume()
      this.doc.end()
    })
  }
}
