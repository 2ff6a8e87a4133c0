import { Parser } from "htmlparser2"

/**
 * The tables of an HTML page as rows of cells (text, links, `<time datetime>` values) and the
 * page's "next page" link: what the BIS listing pages are read through. Header cells (`<th>`) are
 * kept apart so a parser can find its columns by name instead of by position.
 */
export interface Cell {
  readonly text: string
  readonly links: ReadonlyArray<{ readonly href: string; readonly text: string }>
  readonly datetimes: ReadonlyArray<string>
}

export interface Table {
  readonly headers: ReadonlyArray<string>
  readonly rows: ReadonlyArray<ReadonlyArray<Cell>>
}

export interface Page {
  readonly tables: ReadonlyArray<Table>
  /** The `rel="next"` link (Drupal pagers mark theirs so), when there is one. */
  readonly next: string | null
}

const tidy = (text: string) => text.replace(/\s+/g, " ").trim()

export const readPage = (html: string): Page => {
  const tables: Array<{ headers: Array<string>; rows: Array<Array<Cell>> }> = []
  const open: Array<typeof tables[number]> = []
  let row: Array<Cell> | undefined
  let cell:
    | { text: string; links: Array<{ href: string; text: string }>; datetimes: Array<string>; header: boolean }
    | undefined
  let link: { href: string; text: string } | undefined
  let next: string | null = null
  let hidden = 0
  const parser = new Parser({
    onopentag(name, attributes) {
      if (name === "script" || name === "style") hidden++
      if (name === "table") open.push({ headers: [], rows: [] })
      if (name === "tr" && open.length > 0) row = []
      if ((name === "td" || name === "th") && row !== undefined) {
        cell = { text: "", links: [], datetimes: [], header: name === "th" }
      }
      if (name === "a") {
        if (attributes.rel?.split(/\s+/).includes("next") && attributes.href) next = attributes.href
        if (cell !== undefined && attributes.href) link = { href: attributes.href, text: "" }
      }
      if (name === "time" && cell !== undefined && attributes.datetime) cell.datetimes.push(attributes.datetime)
      if (name === "br" && cell !== undefined) cell.text += " "
    },
    ontext(text) {
      if (hidden > 0) return
      if (cell !== undefined) cell.text += text
      if (link !== undefined) link.text += text
    },
    onclosetag(name) {
      if (name === "script" || name === "style") hidden = Math.max(0, hidden - 1)
      if (name === "a" && link !== undefined && cell !== undefined) {
        cell.links.push({ href: link.href.trim(), text: tidy(link.text) })
        link = undefined
      }
      if ((name === "td" || name === "th") && cell !== undefined && row !== undefined) {
        const table = open.at(-1)
        if (cell.header && table !== undefined && table.rows.length === 0) table.headers.push(tidy(cell.text))
        else row.push({ text: tidy(cell.text), links: cell.links, datetimes: cell.datetimes })
        cell = undefined
      }
      if (name === "tr" && row !== undefined) {
        if (row.length > 0) open.at(-1)?.rows.push(row)
        row = undefined
      }
      if (name === "table") {
        const table = open.pop()
        if (table !== undefined) tables.push(table)
      }
    }
  }, { decodeEntities: true, lowerCaseTags: true })
  parser.write(html)
  parser.end()
  return { tables, next }
}

/** The position of the first header matching `pattern`, or -1. */
export const column = (table: Table, pattern: RegExp) => table.headers.findIndex((header) => pattern.test(header))

const months: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12
}

const valid = (year: number, month: number, day: number) => {
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    ? `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`
    : null
}

/** A cell's date: a `<time datetime>`, `YYYY-MM-DD`, `MM/DD/YYYY` or `Month D, YYYY`; null otherwise. */
export const dateOf = (cell: Cell): string | null => {
  for (const value of [...cell.datetimes, cell.text]) {
    const iso = /\b(\d{4})-(\d{2})-(\d{2})/.exec(value)
    if (iso) return valid(Number(iso[1]), Number(iso[2]), Number(iso[3]))
    const us = /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/.exec(value)
    if (us) return valid(Number(us[3]), Number(us[1]), Number(us[2]))
    const written = /\b([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),\s+(\d{4})\b/.exec(value)
    const month = written === null ? undefined : months[written[1]!.toLowerCase()]
    if (written && month !== undefined) return valid(Number(written[3]), month, Number(written[2]))
  }
  return null
}
