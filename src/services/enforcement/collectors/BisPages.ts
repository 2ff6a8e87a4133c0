import { type Duration, Effect } from "effect"
import type { UpstreamClient } from "../../Upstream.ts"
import { absolute, CollectFailed, type Collector, type ListedItem, notModified } from "./Collector.ts"
import { type Cell, column, dateOf, readPage, type Table } from "./HtmlTables.ts"

/**
 * The BIS enforcement pages on bis.gov (a Drupal site): the export-violations case catalog and
 * the charging letters, each a paged table with a header row. Their exact markup could not be
 * confirmed from here: the parsers find the table by its column headers (case / respondent or
 * name / date / documents) and fail loudly, naming what they found, when no such table is on the
 * page — a changed page is a failed collection with a reason, never an empty archive.
 */

/** Listing pages read at most (about 1,100 cases at 20 to 50 a page). */
const maxPages = 80

const pdfLinks = (cells: ReadonlyArray<Cell>) =>
  cells.flatMap((cell) => cell.links).filter((link) =>
    /\.pdf(?:$|[?#])|\/media\/\d+(?:\/download)?(?:$|[?#/])/i.test(link.href)
  )

interface Columns {
  readonly party: number
  readonly date: number
  readonly id: number
}

const findTable = (tables: ReadonlyArray<Table>, needId: boolean): { table: Table; columns: Columns } | undefined => {
  for (const table of tables) {
    const columns = {
      party: column(table, /respondent|name|party|company/i),
      date: column(table, /date/i),
      id: column(table, /case|number|no\./i)
    }
    if (columns.party >= 0 && columns.date >= 0 && (!needId || columns.id >= 0)) return { table, columns }
  }
  return undefined
}

const describeHeaders = (tables: ReadonlyArray<Table>) =>
  tables.length === 0
    ? "no table"
    : tables.map((table) => `[${table.headers.join(" | ") || "no header row"}]`).join(", ")

interface TableSource {
  readonly id: string
  readonly description: string
  readonly path: string
  readonly every: Duration.DurationInput
  readonly needId: boolean
  readonly kind: string
  /** The document id of a row, or undefined when the row does not give one. */
  readonly idOf: (row: ReadonlyArray<Cell>, columns: Columns, file: string | null) => string | undefined
}

const tableCollector = (client: UpstreamClient, source: TableSource): Collector => ({
  id: source.id,
  agency: "BIS",
  description: source.description,
  every: source.every,
  complete: true,
  client,
  list: (fetch) =>
    Effect.gen(function*() {
      const items: Array<ListedItem> = []
      let skipped = 0
      let path: string | null = source.path
      for (let page = 0; path !== null && page < maxPages; page++) {
        const answer = yield* fetch.page(path)
        if (answer === undefined) {
          if (page === 0) return { items: notModified, skipped: 0 }
          return yield* new CollectFailed({ reason: `${client.name}: page ${page + 1} answered 304 to a new listing` })
        }
        const html = readPage(answer.body)
        const found = findTable(html.tables, source.needId)
        if (found === undefined) {
          return yield* new CollectFailed({
            reason: `${client.name}: ${source.path} page ${page + 1} holds no ${source.kind} table ` +
              `(expected columns for the respondent and the date${source.needId ? " and the case" : ""}; ` +
              `found ${describeHeaders(html.tables)})`
          })
        }
        const { columns, table } = found
        const pageUrl = absolute(client, path)
        const listingUrl = absolute(client, source.path)
        for (const row of table.rows) {
          const party = row[columns.party]?.text ?? ""
          const link = pdfLinks(row)[0]
          const file = link === undefined ? null : absolute(client, link.href, pageUrl)
          const id = source.idOf(row, columns, file)
          if (id === undefined || party === "") {
            skipped++
            continue
          }
          items.push({
            id,
            agency: "BIS",
            title: `${source.kind === "case" ? "Export violation case" : "Charging letter"}: ${party}`,
            party,
            date: row[columns.date] === undefined ? null : dateOf(row[columns.date]!),
            sourceUrl: listingUrl,
            fileUrl: file,
            text: null
          })
        }
        path = html.next === null ? null : nextPath(client, html.next, pageUrl)
      }
      if (items.length === 0 && skipped > 0) {
        return yield* new CollectFailed({
          reason: `${client.name}: none of the ${skipped} rows of ${source.path} could be read (no id or respondent)`
        })
      }
      return { items, skipped }
    })
})

const nextPath = (client: UpstreamClient, href: string, page: string | null) => {
  const url = absolute(client, href, page)
  if (url === null) return null
  const target = new URL(url)
  return target.origin === new URL(client.baseUrl).origin ? `${target.pathname}${target.search}` : null
}

const caseId = (text: string) => {
  const id = text.trim().replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "")
  return /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(id) ? id : undefined
}

/** The export-violations case catalog (SPEC: about 1,100 cases): `bis-case:<case number>`. */
export const bisCases = (client: UpstreamClient, path = "/enforcement/export-violations"): Collector =>
  tableCollector(client, {
    id: "bis-export-violations",
    description: "The BIS export-violations case catalog with the PDF each case links (bis.gov)",
    path,
    every: "24 hours",
    needId: true,
    kind: "case",
    idOf: (row, columns) => {
      const text = row[columns.id]?.text
      const id = text === undefined ? undefined : caseId(text)
      return id === undefined ? undefined : `bis-case:${id}`
    }
  })

/** BIS charging letters: `bis-media:<n>` from the letter's Drupal media link (`/media/<n>/download`). */
export const bisChargingLetters = (client: UpstreamClient, path = "/enforcement/charging-letters"): Collector =>
  tableCollector(client, {
    id: "bis-charging-letters",
    description: "BIS charging letters and their PDFs (bis.gov)",
    path,
    every: "24 hours",
    needId: false,
    kind: "charging letter",
    idOf: (_row, _columns, file) => {
      const number = file === null ? null : /\/media\/(\d{1,12})(?:\/|$|\?)/.exec(new URL(file).pathname)?.[1]
      return number == null ? undefined : `bis-media:${number}`
    }
  })
