import { type Cell, drawTable, type TableColumn, tableHeight } from "./Table.ts"
import { Colors, Type } from "./Theme.ts"
import type { Writer } from "./Writer.ts"

const labelColumns: ReadonlyArray<TableColumn> = [{ label: "", width: 1 }, { label: "", width: 2.4 }]

/** One row as label/value rows, leaving out empty cells. */
const recordOf = (columns: ReadonlyArray<TableColumn>, row: ReadonlyArray<Cell>) =>
  columns.flatMap((column, i): Array<Array<Cell>> => {
    const cell = row[i]
    if (cell === undefined || (cell.kind === "text" && cell.text === "")) return []
    return [[{ kind: "text", text: column.label, bold: true }, cell]]
  })

const recordHeight = (w: Writer, record: ReadonlyArray<ReadonlyArray<Cell>>) =>
  tableHeight(w, labelColumns, record, { header: false }) + Type.label * 1.3 + 3

/** The height the stacked records of `rows` take (each kept on one page). */
export const stackedHeight = (
  w: Writer,
  columns: ReadonlyArray<TableColumn>,
  rows: ReadonlyArray<ReadonlyArray<Cell>>
): number => rows.reduce((sum, row) => sum + recordHeight(w, recordOf(columns, row)), 0)

/**
 * A table too wide for the page (its identifiers would not fit side by side) as stacked records:
 * each row becomes a small two-column table of column label and value, kept on one page, headed
 * by its position ("1 of 3") so a reader sees where one record ends.
 */
export const drawStacked = (
  w: Writer,
  columns: ReadonlyArray<TableColumn>,
  rows: ReadonlyArray<ReadonlyArray<Cell>>
): void => {
  rows.forEach((row, r) => {
    const record = recordOf(columns, row)
    w.keep(recordHeight(w, record))
    w.tags.content("P", () => {
      w.font("sansSemiBold", Type.label, Colors.faint)
      w.doc.text(`${r + 1} OF ${rows.length}`, w.left, w.y, { width: w.width, characterSpacing: 0.5 })
    })
    w.y += 2
    w.rule(w.y, 0.8, Colors.accent)
    w.y += 1
    drawTable(w, labelColumns, record, { header: false })
  })
}
