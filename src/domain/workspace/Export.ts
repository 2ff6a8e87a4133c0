import { Schema } from "effect"
import { Note } from "./Notes.ts"
import { StoredProduct } from "./Products.ts"
import { Screening } from "./Screenings.ts"
import { Transaction } from "./Transactions.ts"

/**
 * A workspace as JSON Lines: a header line, then one line per record, each tagged with its kind.
 * The same file restores the records (into the same or another workspace): for auditors, and for
 * leaving the service.
 */

export const ExportFormat = "ecds-workspace/1"

export const HeaderLine = Schema.Struct({
  kind: Schema.Literal("workspace"),
  format: Schema.Literal(ExportFormat),
  workspace: Schema.String,
  exported_at: Schema.String,
  counts: Schema.Struct({
    transactions: Schema.Int,
    products: Schema.Int,
    notes: Schema.Int,
    screenings: Schema.Int
  })
})
export type HeaderLine = typeof HeaderLine.Type

export const TransactionLine = Schema.Struct({ kind: Schema.Literal("transaction"), record: Transaction })
export const ProductLine = Schema.Struct({ kind: Schema.Literal("product"), record: StoredProduct })
export const NoteLine = Schema.Struct({ kind: Schema.Literal("note"), record: Note })
export const ScreeningLine = Schema.Struct({ kind: Schema.Literal("screening"), record: Screening })

export const RecordLine = Schema.Union(TransactionLine, ProductLine, NoteLine, ScreeningLine)
export type RecordLine = typeof RecordLine.Type

export const ExportLine = Schema.Union(HeaderLine, RecordLine)
export type ExportLine = typeof ExportLine.Type

/** The schema of each line kind: a line is decoded by its own kind's schema, so an error names the field at fault. */
export const lineSchemas = {
  workspace: HeaderLine,
  transaction: TransactionLine,
  product: ProductLine,
  note: NoteLine,
  screening: ScreeningLine
} as const

export const LineKind = Schema.Struct({
  kind: Schema.Literal("workspace", "transaction", "product", "note", "screening")
})

/** The longest line an import accepts (a transaction with 200 items and 50 parties fits well inside). */
export const MaxLineBytes = 1_000_000

/** What an import wrote. */
export const ImportSummary = Schema.Struct({
  transactions: Schema.Int,
  products: Schema.Int,
  notes: Schema.Int,
  screenings: Schema.Int
})
export type ImportSummary = typeof ImportSummary.Type

/** A line of an import file that is not a record of this format; nothing of the file was written. */
export class InvalidExportLine extends Schema.TaggedError<InvalidExportLine>()("InvalidExportLine", {
  line: Schema.Int,
  message: Schema.String
}) {
  static readonly status = 400
}
