import type { Tone } from "../../domain/documents/Fields.ts"
import type { Run, TableRow } from "../Html.ts"
import { Colors, Page, Type } from "./Theme.ts"
import type { Writer } from "./Writer.ts"

export interface TableColumn {
  readonly label: string
  /** Relative width. */
  readonly width: number
}

export type Cell =
  | { readonly kind: "text"; readonly text: string; readonly bold?: boolean }
  | { readonly kind: "badge"; readonly label: string; readonly tone: Tone }

const padX = 5

/** Type size and vertical padding of a table's cells: a one-page document sets its tables denser. */
export interface TableDensity {
  readonly size: number
  readonly padY: number
}

export const regularDensity: TableDensity = { size: Type.table, padY: 4.2 }
/** The smallest type a cell shrinks to before a word that does not fit its column is broken. */
const minCellType = 6.6

const cellFont = (cell: Cell) => cell.kind === "text" && cell.bold ? "sansSemiBold" as const : "sans" as const

/** Widest words by writer, face, size and text: a table asks for each cell's several times while it is laid out. */
const widestWords = new WeakMap<Writer, Map<string, number>>()

/**
 * Widest word of a cell: identifiers (ECCNs, Schedule B and model numbers, citations) must not
 * break inside. It leaves the cell's face and size set, which callers measure on with.
 */
const widestWord = (w: Writer, cell: Cell, size: number): number => {
  const name = cell.kind === "badge" ? "sansSemiBold" : cellFont(cell)
  const at = cell.kind === "badge" ? size - 0.6 : size
  const text = cell.kind === "badge" ? cell.label : cell.text
  w.font(name, at)
  let known = widestWords.get(w)
  if (known === undefined) widestWords.set(w, known = new Map())
  const key = `${cell.kind}\u0000${name}\u0000${at}\u0000${text}`
  let width = known.get(key)
  if (width === undefined) {
    width = cell.kind === "badge"
      ? w.widthOf(text, name) + 12
      : Math.max(0, ...text.split(/\s+/).map((word) => w.widthOf(word, name)))
    known.set(key, width)
  }
  return width
}

/** Type size at which every word of the cell fits `width` (down to a readable minimum). */
const cellType = (w: Writer, cell: Cell, width: number, size: number): number => {
  if (cell.kind === "badge") return size
  const widest = widestWord(w, cell, size)
  return widest <= width ? size : Math.max(Math.min(size, minCellType), Math.floor(size * (width / widest) * 10) / 10)
}

const cellHeight = (w: Writer, cell: Cell, width: number, size: number) => {
  if (cell.kind === "badge") return size + 6
  const name = cellFont(cell)
  w.font(name, cellType(w, cell, width, size))
  return cell.text === "" ? size : w.heightOf(cell.text, name, { width, lineGap: 1.2 })
}

/**
 * Column widths from the declared proportions, widened where a column's widest word (or badge,
 * or header word) needs it and taken from the columns with room to spare.
 */
export const columnWidths = (
  w: Writer,
  columns: ReadonlyArray<TableColumn>,
  rows: ReadonlyArray<ReadonlyArray<Cell>>,
  available: number,
  header: boolean,
  size: number = Type.table
): Array<number> => {
  const total = columns.reduce((sum, column) => sum + column.width, 0)
  // half by the declared proportions, half by how much text each column holds
  const text = columns.map((_, i) =>
    rows.reduce((sum, row) => {
      const cell = row[i]
      if (cell === undefined) return sum
      w.font(cellFont(cell), size)
      return sum +
        Math.min(available, cell.kind === "badge" ? widestWord(w, cell, size) : w.widthOf(cell.text, cellFont(cell)))
    }, 0)
  )
  const allText = text.reduce((sum, value) => sum + value, 0)
  const wanted = columns.map((column, i) =>
    available * (allText > 0 ? 0.5 * (column.width / total) + 0.5 * (text[i]! / allText) : column.width / total)
  )
  w.font("sansSemiBold", Type.label)
  const minimum = columns.map((column, i) => {
    const headerWord = header
      ? Math.max(
        0,
        ...column.label.toUpperCase().split(/\s+/).map((word) => w.widthOf(word, "sansSemiBold") + 0.3 * word.length)
      )
      : 0
    const content = Math.max(headerWord, ...rows.map((row) => (row[i] ? widestWord(w, row[i], size) : 0)))
    // no column claims more than half the table for one word: longer words shrink, then break
    return Math.min(content + 2 * padX + 1, available / 2, wanted[i]! * 3)
  })
  const needed = minimum.reduce((sum, width) => sum + width, 0)
  if (needed >= available) return minimum.map((width) => (width / needed) * available)
  const widths = [...wanted]
  for (let round = 0; round < columns.length; round++) {
    const short = widths.map((width, i) => Math.max(0, minimum[i]! - width))
    const deficit = short.reduce((sum, value) => sum + value, 0)
    if (deficit < 0.01) break
    const spare = widths.map((width, i) => (short[i]! > 0 ? 0 : width - minimum[i]!))
    const room = spare.reduce((sum, value) => sum + value, 0)
    widths.forEach((width, i) => {
      widths[i] = short[i]! > 0 ? minimum[i]! : width - (spare[i]! / room) * Math.min(deficit, room)
    })
  }
  return widths
}

interface TableOptions {
  readonly caption?: string
  readonly indent?: number
  readonly header?: boolean
  readonly density?: TableDensity
}

/** Text in scripts that wrap between any two characters (CJK, Thai): a long run of it is no identifier. */
const breaksAnywhere = /[\u0E00-\u0E7F\u3040-\u30FF\u3400-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF]/

/**
 * Whether every column can be as wide as its widest header word and its widest unbreakable word
 * (identifiers) side by side at the table's type size: if not, a wide table is stacked instead.
 */
export const fitsAcross = (
  w: Writer,
  columns: ReadonlyArray<TableColumn>,
  rows: ReadonlyArray<ReadonlyArray<Cell>>,
  available: number = w.width,
  size: number = Type.table
): boolean => {
  const needed = columns.reduce((sum, column, i) => {
    w.font("sansSemiBold", Type.label)
    const header = Math.max(
      0,
      ...column.label.toUpperCase().split(/\s+/).map((word) => w.widthOf(word, "sansSemiBold") + 0.3 * word.length)
    )
    const cells = rows.map((row) => {
      const cell = row[i]
      if (cell === undefined) return 0
      if (cell.kind === "badge") return widestWord(w, cell, size)
      const words = cell.text.split(/\s+/).filter((word) => !breaksAnywhere.test(word))
      return widestWord(w, { kind: "text", text: words.join(" "), ...(cell.bold ? { bold: true } : {}) }, size)
    })
    return sum + Math.max(header, ...cells) + 2 * padX + 1
  }, 0)
  return needed <= available
}

/** Column positions and the height of the header and of every row, before anything is drawn. */
const layoutTable = (
  w: Writer,
  columns: ReadonlyArray<TableColumn>,
  rows: ReadonlyArray<ReadonlyArray<Cell>>,
  options: TableOptions
) => {
  const { padY, size } = options.density ?? regularDensity
  const indent = options.indent ?? 0
  const left = w.left + indent
  const available = w.width - indent
  const showHeader = options.header ?? true
  const widths = columnWidths(w, columns, rows, available, showHeader, size)
  const xs = widths.map((_, i) => left + widths.slice(0, i).reduce((sum, width) => sum + width, 0))
  w.font("sansSemiBold", Type.label)
  const headerHeight = showHeader
    ? Math.max(
      ...columns.map((c, i) => w.heightOf(c.label.toUpperCase(), "sansSemiBold", { width: widths[i]! - 2 * padX }))
    ) + 2 * padY
    : 0
  const heights = rows.map((row) =>
    Math.max(...row.map((cell, i) => cellHeight(w, cell, widths[i]! - 2 * padX, size))) + 2 * padY
  )
  return { indent, left, available, showHeader, widths, xs, headerHeight, heights, size, padY }
}

/** The height a table takes when it fits on the current page (header, rows and the space after it). */
export const tableHeight = (
  w: Writer,
  columns: ReadonlyArray<TableColumn>,
  rows: ReadonlyArray<ReadonlyArray<Cell>>,
  options: TableOptions = {}
): number => {
  const layout = layoutTable(w, columns, rows, options)
  return layout.headerHeight + layout.heights.reduce((sum, height) => sum + height, 0) + 10
}

/**
 * A table that breaks between rows, repeating its header (marked “continued”) on every page it
 * spans. A row too tall for any page is written as labelled paragraphs instead, so nothing is cut.
 */
export const drawTable = (
  w: Writer,
  columns: ReadonlyArray<TableColumn>,
  rows: ReadonlyArray<ReadonlyArray<Cell>>,
  options: TableOptions = {}
): void => {
  const { available, headerHeight, heights, indent, left, padY, showHeader, size, widths, xs } = layoutTable(
    w,
    columns,
    rows,
    options
  )
  const maxRow = w.bottom - Page.top - headerHeight - 24

  // the header is read once, as the table's first row; repeated on later pages it is page furniture
  const drawHeader = (continued: boolean) => {
    if (continued && options.caption) {
      w.tags.artifact(() => {
        w.font("sansSemiBold", Type.label, Colors.faint)
        w.doc.text(`${options.caption!.toUpperCase()} (CONTINUED)`, left, w.y, {
          width: available,
          characterSpacing: 0.5
        })
      }, "Pagination")
      w.y += 2
    }
    if (!showHeader) return
    const top = w.y
    w.tags.artifact(() => w.doc.rect(left, top, available, headerHeight).fill(Colors.headerFill))
    const labels = () =>
      columns.forEach((column, i) => {
        const draw = () => {
          w.font("sansSemiBold", Type.label, Colors.muted)
          w.write(column.label.toUpperCase(), "sansSemiBold", xs[i]! + padX, top + padY + 0.6, {
            width: widths[i]! - 2 * padX,
            characterSpacing: 0.3
          })
        }
        if (continued) draw()
        else w.tags.content("TH", draw, { scope: "Column" })
      })
    if (continued) w.tags.artifact(labels, "Pagination")
    else w.tags.group("TR", labels)
    w.tags.artifact(() =>
      w.doc.moveTo(left, top + headerHeight).lineTo(left + available, top + headerHeight)
        .lineWidth(0.8).strokeColor(Colors.accent).stroke()
    )
    w.y = top + headerHeight
  }

  /** A bold cell labels its row (facts grids) or is a header cell of an HTML table. */
  const role = (cell: Cell) => (cell.kind === "text" && cell.bold ? "TH" : "TD")

  w.tags.group("Table", () => {
    w.ensure(headerHeight + Math.min(heights[0] ?? 0, maxRow) + 4)
    drawHeader(false)
    rows.forEach((row, r) => {
      const height = heights[r]!
      if (height > maxRow) {
        w.y += 4
        w.tags.group("TR", () =>
          row.forEach((cell, i) => {
            const text = cell.kind === "badge" ? cell.label : cell.text
            w.tags.content(role(cell), () => {
              if (text !== "") w.blocks([{ kind: "paragraph", runs: labelled(columns[i]!.label, text) }], { indent })
            })
          }))
        return
      }
      if (w.y + height > w.bottom) {
        w.addPage()
        drawHeader(true)
      }
      const top = w.y
      if (r % 2 === 1) w.tags.artifact(() => w.doc.rect(left, top, available, height).fill(Colors.zebra))
      w.tags.group("TR", () =>
        row.forEach((cell, i) => {
          const x = xs[i]! + padX
          const width = widths[i]! - 2 * padX
          w.tags.content(role(cell), () => {
            if (cell.kind === "badge") {
              w.badge(cell.label, cell.tone, x, top + padY - 1, size - 0.6, width)
            } else if (cell.text !== "") {
              const name = cellFont(cell)
              w.font(name, cellType(w, cell, width, size), Colors.ink)
              w.write(cell.text, name, x, top + padY, { width, lineGap: 1.2 })
            }
          }, role(cell) === "TH" ? { scope: "Row" } : {})
        }))
      w.tags.artifact(() =>
        w.doc.moveTo(left, top + height).lineTo(left + available, top + height).lineWidth(0.4)
          .strokeColor(Colors.rule).stroke()
      )
      w.y = top + height
    })
  })
  w.doc.x = w.left
  w.y += 10
}

const labelled = (label: string, text: string): Array<Run> => [
  { text: `${label}: `, bold: true, italic: false, underline: false },
  { text, bold: false, italic: false, underline: false }
]

const runsText = (runs: ReadonlyArray<Run>) => runs.map((run) => run.text).join("")

/** A sanitized HTML table: its header rows become the repeated header, cells keep their text. */
export const drawHtmlTable = (w: Writer, rows: ReadonlyArray<TableRow>, indent: number): void => {
  const width = Math.max(...rows.map((row) => row.cells.length))
  const headerRow = rows[0]?.header ? rows[0] : undefined
  const body = headerRow ? rows.slice(1) : rows
  const columns = Array.from({ length: width }, (_, i) => ({
    label: headerRow ? runsText(headerRow.cells[i] ?? []) : "",
    width: 1
  }))
  const cells = body.map((row) =>
    Array.from({ length: width }, (_, i): Cell => ({
      kind: "text",
      text: runsText(row.cells[i] ?? []),
      bold: row.header
    }))
  )
  drawTable(w, columns, cells, { indent, header: headerRow !== undefined })
}
