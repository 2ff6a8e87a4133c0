/**
 * The logical structure of a tagged PDF, built while the pages are drawn: every piece of real
 * content is drawn inside a structure element (headings, paragraphs, tables, lists, figures) in
 * reading order, and everything else (rules, fills, running header and footer, watermark) is
 * marked as an artifact, so assistive technology reads the document and skips the decoration.
 */
export type Role =
  | "Document"
  | "Sect"
  | "Div"
  | "H1"
  | "H2"
  | "P"
  | "Caption"
  | "Table"
  | "TR"
  | "TH"
  | "TD"
  | "L"
  | "LI"
  | "Lbl"
  | "LBody"
  | "Figure"
  | "TOC"
  | "TOCI"

/** pdfkit's structure options; its typings leave out the table header scope and the layout box. */
export interface RoleOptions extends PDFKit.Mixins.StructureElementOptions {
  readonly scope?: "Column" | "Row"
  readonly bbox?: readonly [number, number, number, number]
}

export class Tags {
  private readonly parents: Array<PDFKit.PDFStructureElement>
  /** Depth of marked content being drawn: inside it, nested tags and artifacts draw into the open one. */
  private open = 0

  constructor(private readonly doc: PDFKit.PDFDocument) {
    const root = doc.struct("Document")
    doc.addStructure(root)
    this.parents = [root]
  }

  private get parent(): PDFKit.PDFStructureElement {
    return this.parents[this.parents.length - 1]!
  }

  /** Whether marked content is open (a page break must then continue it on the next page). */
  get drawing(): boolean {
    return this.open > 0
  }

  /** A structure element holding the elements `body` creates, in the current one. */
  group<A>(role: Role, body: () => A, options: RoleOptions = {}): A {
    if (this.open > 0) return body()
    const element = this.doc.struct(role, options as PDFKit.Mixins.StructureElementOptions)
    this.parent.add(element)
    this.parents.push(element)
    try {
      return body()
    } finally {
      // left open: a picture reserved inside is filled once its pixels exist; the document's end closes it
      this.parents.pop()
    }
  }

  /** A structure element whose content is what `draw` puts on the page (across page breaks). */
  content(role: Role, draw: (element: PDFKit.PDFStructureElement) => void, options: RoleOptions = {}): void {
    if (this.open > 0) return draw(this.parent)
    const element = this.doc.struct(role, options as PDFKit.Mixins.StructureElementOptions)
    this.parent.add(element)
    this.parents.push(element)
    this.open++
    try {
      element.add(() => draw(element))
    } finally {
      this.open--
      this.parents.pop()
      element.end()
    }
  }

  /**
   * An element created now, in reading order, whose content is drawn later (a picture placed once
   * its pixels exist, the contents filled once every heading knows its page): `fill` draws it.
   */
  reserve(role: Role, options: RoleOptions = {}): {
    readonly fill: (draw: () => void) => void
    readonly group: <A>(body: () => A) => A
    readonly end: () => void
  } {
    const element = this.doc.struct(role, options as PDFKit.Mixins.StructureElementOptions)
    this.parent.add(element)
    return {
      fill: (draw) => {
        this.open++
        try {
          element.add(draw)
        } finally {
          this.open--
        }
      },
      group: (body) => {
        this.parents.push(element)
        try {
          return body()
        } finally {
          this.parents.pop()
        }
      },
      end: () => element.end()
    }
  }

  /** Decoration or page furniture: drawn, but not part of what is read. */
  artifact(draw: () => void, type: "Pagination" | "Layout" = "Layout"): void {
    if (this.open > 0) return draw()
    this.doc.markContent("Artifact", { type })
    this.open++
    try {
      draw()
    } finally {
      this.open--
      this.doc.endMarkedContent()
    }
  }
}
