import type { ControlRow, CountryChartColumn } from "../../domain/Eccn.ts"
import { countryChartColumns } from "../../domain/Eccn.ts"
import { normalizeScopeText, remark, statementsIn } from "./scope/ControlScope.ts"

/**
 * The rows of an entry's control table ("Control(s)" | "Country chart"), from the texts of their
 * cells. Two printing accidents of the eCFR are undone here so each row carries one reason and
 * its own column: a row printed as one cell ("CB applies to entire entry CB Column 2."), and two
 * rows run together in one pair of cells ("NP applies to entire entry AT applies to entire entry"
 * | "NP Column 1 AT Column 1").
 */

const columnReference = /\b(?:(CB|NP|NS|MT|RS|FC|CC|AT)\s+)?Columns?\s+(\d)((?:\s*(?:,|and|&)\s*\d)*)/g
const trailingColumn = /\s*\b((?:CB|NP|NS|MT|RS|FC|CC|AT)\s+Columns?\s+\d[\d\s,&and]*\.?)\s*$/
const columnStart = /\b(CB|NP|NS|MT|RS|FC|CC|AT)\s+Columns?\s+\d/g
const reasonAtStart = /^([A-Z]{2,3})\b/

const columnsIn = (chartCell: string, reason: string | null): Array<CountryChartColumn> => {
  const columns: Array<CountryChartColumn> = []
  for (const match of chartCell.matchAll(columnReference)) {
    const code = match[1] ?? reason
    const numbers = [match[2]!, ...(match[3]?.match(/\d/g) ?? [])]
    for (const n of numbers) {
      const column = `${code}${n}`
      if ((countryChartColumns as ReadonlyArray<string>).includes(column)) columns.push(column as CountryChartColumn)
    }
  }
  return columns
}

const rowOf = (appliesTo: string, countryChart: string): ControlRow => {
  const reason = reasonAtStart.exec(appliesTo)?.[1] ?? null
  return { reason, appliesTo, countryChart, columns: columnsIn(countryChart, reason) }
}

/** One cell holding both: the column reference at its end, else the sentences after the first. */
const splitSingleCell = (text: string): [string, string] => {
  const column = trailingColumn.exec(text)
  if (column !== null) return [text.slice(0, column.index).trim(), column[1]!.trim()]
  const sentence = remark.exec(text)
  return sentence === null
    ? [text, ""]
    : [text.slice(0, sentence.index + 1).trim(), text.slice(sentence.index + 1).trim()]
}

/** Rows run together: split only when the statements and the column references pair up reason by reason. */
const splitRunTogether = (appliesTo: string, countryChart: string): Array<ControlRow> | undefined => {
  const statements = statementsIn(normalizeScopeText(appliesTo))
  if (statements.length < 2 || new Set(statements.map((s) => s.reason)).size < 2) return undefined
  const columns = [...countryChart.matchAll(columnStart)]
  if (columns.length !== statements.length || columns.some((c, i) => c[1] !== statements[i]!.reason)) return undefined
  const text = normalizeScopeText(appliesTo)
  return statements.map((statement, i) =>
    rowOf(
      text.slice(statement.index, statements[i + 1]?.index).trim(),
      countryChart.slice(columns[i]!.index, columns[i + 1]?.index).trim()
    )
  )
}

export const controlRowsOf = (cells: ReadonlyArray<string>): Array<ControlRow> => {
  const [first, second] = cells
  if (first === undefined || first === "" || /^control\(?s\)?/i.test(first)) return []
  if (second === undefined) {
    if (statementsIn(first).length === 0) return []
    const [appliesTo, countryChart] = splitSingleCell(first)
    return [rowOf(appliesTo, countryChart)]
  }
  return splitRunTogether(first, second) ?? [rowOf(first, second)]
}
