import type { ChartRow, Footnote } from "../../domain/Country.ts"
import { type CountryChartColumn, countryChartColumns } from "../../domain/Eccn.ts"
import {
  elements,
  findAll,
  findAppendix,
  superscriptNumbers,
  textOf,
  textWithoutSuperscripts,
  type XmlElement,
  XmlParseError
} from "../xml/XmlTree.ts"

/**
 * The Commerce Country Chart (Supplement No. 1 to part 738): one table whose second header row
 * names the 16 columns (`CB 1` … `AT 2`). Each country row has the country cell (footnote numbers
 * as superscripts) and one cell per column; an empty cell is a self-closing `<TD/>` and keeps its
 * slot. Embargoed destinations have a single merged cell pointing to part 746; footnotes are
 * one-cell rows. Anything else is a structural change this parser refuses to guess about.
 */
export interface ParsedChart {
  readonly rows: ReadonlyMap<string, ChartRow>
  readonly footnotes: ReadonlyMap<number, string>
}

export const ChartSupplement = "Supplement No. 1 to Part 738"

const columnId = (text: string) => text.replace(/\s+/g, "").toUpperCase()

const cellsOf = (row: XmlElement) => elements(row).filter((cell) => cell.name === "TD" || cell.name === "TH")

const footnoteOf = (cell: XmlElement): Footnote | undefined => {
  const number = superscriptNumbers(cell)[0] ?? Number(/^\s*(\d+)\s/.exec(textOf(cell))?.[1] ?? NaN)
  const text = textWithoutSuperscripts(cell).replace(/^\d+\s+/, "")
  return Number.isInteger(number) && text !== "" ? { number, text } : undefined
}

export const parseChart = (xml: XmlElement): ParsedChart => {
  const supplement = findAppendix(xml, ChartSupplement)
  if (supplement === undefined) throw new XmlParseError(`${ChartSupplement} is missing from the part 738 XML`)
  const table = findAll(supplement, (e) => e.name === "TABLE").find((t) =>
    findAll(t, (e) => e.name === "TH").some((th) => columnId(textOf(th)) === "CB1")
  )
  if (table === undefined) throw new XmlParseError("the Commerce Country Chart table (a `CB 1` column) was not found")
  const rows = findAll(table, (e) => e.name === "TR")
  const headerIndex = rows.findIndex((row) => cellsOf(row).some((cell) => columnId(textOf(cell)) === "CB1"))
  const columns = cellsOf(rows[headerIndex]!).map((cell) => columnId(textOf(cell)))
  if (columns.join() !== countryChartColumns.join()) {
    throw new XmlParseError(`unexpected Country Chart columns: ${columns.join(", ")}`)
  }

  const chart = new Map<string, ChartRow>()
  const footnoteNumbers = new Map<string, Array<number>>()
  const footnotes = new Map<number, string>()
  for (const row of rows.slice(headerIndex + 1)) {
    const cells = cellsOf(row)
    if (cells.length === 1) {
      const footnote = footnoteOf(cells[0]!)
      if (footnote !== undefined) footnotes.set(footnote.number, footnote.text)
      continue
    }
    const label = textWithoutSuperscripts(cells[0]!)
    if (label === "") continue
    footnoteNumbers.set(label, superscriptNumbers(cells[0]!))
    if (cells.length === 2) {
      chart.set(label, { kind: "embargoed", pointer: textOf(cells[1]!), footnotes: [] })
      continue
    }
    if (cells.length !== columns.length + 1) {
      throw new XmlParseError(`Country Chart row "${label}" has ${cells.length} cells, expected ${columns.length + 1}`)
    }
    const marks = {} as Record<CountryChartColumn, boolean>
    cells.slice(1).forEach((cell, i) => {
      const mark = textWithoutSuperscripts(cell).toUpperCase()
      if (mark !== "" && mark !== "X") {
        throw new XmlParseError(`Country Chart row "${label}" has "${mark}" in ${columns[i]}`)
      }
      marks[countryChartColumns[i]!] = mark === "X"
    })
    chart.set(label, {
      kind: "graded",
      columns: marks,
      marked: countryChartColumns.filter((c) => marks[c]),
      footnotes: []
    })
  }
  // Footnotes printed after the table rather than as table rows.
  for (const element of elements(supplement)) {
    if (element.name === "P" || element.name === "FP") {
      const footnote = superscriptNumbers(element).length > 0 ? footnoteOf(element) : undefined
      if (footnote !== undefined && !footnotes.has(footnote.number)) footnotes.set(footnote.number, footnote.text)
    }
  }
  const withFootnotes = new Map<string, ChartRow>()
  for (const [label, row] of chart) {
    const numbers = footnoteNumbers.get(label) ?? []
    withFootnotes.set(label, {
      ...row,
      footnotes: numbers.map((number) => ({ number, text: footnotes.get(number) ?? "(footnote text not found)" }))
    })
  }
  return { rows: withFootnotes, footnotes }
}
