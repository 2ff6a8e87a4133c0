import { SqlClient } from "@effect/sql/SqlClient"
import type { ParseResult } from "effect"
import { Clock, Context, Effect, Either, Layer, Schema } from "effect"
import * as DecodeIssues from "../../domain/DecodeIssues.ts"
import {
  ExportFormat,
  ExportLine,
  type HeaderLine,
  type ImportSummary,
  InvalidExportLine,
  LineKind,
  lineSchemas,
  MaxLineBytes,
  type RecordLine
} from "../../domain/workspace/Export.ts"
import type { StoreUnavailable } from "../../domain/workspace/Workspace.ts"
import { NoteTargets } from "./NoteTargets.ts"
import { storeFailure } from "./Rows.ts"
import {
  allNotes,
  allProducts,
  allScreenings,
  allTransactions,
  writeNote,
  writeProduct,
  writeScreening,
  writeTransaction
} from "./Tables.ts"

export interface WorkspaceExportShape {
  /** Every record of the workspace as JSON Lines: the header, then transactions, products, notes, screenings. */
  readonly export: (workspace: string) => Effect.Effect<ReadonlyArray<string>, StoreUnavailable>
  /**
   * Restores an export into a workspace in one database transaction: every line is checked first,
   * and a bad line writes nothing. Records with the same key are replaced.
   */
  readonly import: (
    workspace: string,
    lines: ReadonlyArray<string>
  ) => Effect.Effect<ImportSummary, InvalidExportLine | StoreUnavailable>
}

export class WorkspaceExport extends Context.Tag("app/workspace/WorkspaceExport")<
  WorkspaceExport,
  WorkspaceExportShape
>() {}

const encodeLine = Schema.encodeSync(ExportLine)
const decodeKind = Schema.decodeUnknownEither(LineKind)
const decoders = {
  workspace: Schema.decodeUnknownEither(lineSchemas.workspace, { onExcessProperty: "error" }),
  transaction: Schema.decodeUnknownEither(lineSchemas.transaction, { onExcessProperty: "error" }),
  product: Schema.decodeUnknownEither(lineSchemas.product, { onExcessProperty: "error" }),
  note: Schema.decodeUnknownEither(lineSchemas.note, { onExcessProperty: "error" }),
  screening: Schema.decodeUnknownEither(lineSchemas.screening, { onExcessProperty: "error" })
}

const parseJson = (text: string): Either.Either<unknown, string> => {
  try {
    return Either.right(JSON.parse(text))
  } catch {
    return Either.left("is not JSON")
  }
}

/** One line by its own kind's schema: the reason names the field at fault. */
const decodeLine = (text: string): Either.Either<typeof ExportLine.Type, string> =>
  Either.flatMap(parseJson(text), (json) => {
    const describe = (error: ParseResult.ParseError) =>
      DecodeIssues.summarize(DecodeIssues.fromParseError(error), "line")
    const kind = decodeKind(json)
    if (Either.isLeft(kind)) return Either.left(describe(kind.left))
    return Either.mapLeft(
      decoders[kind.right.kind](json) as Either.Either<typeof ExportLine.Type, ParseResult.ParseError>,
      describe
    )
  })

const line = (value: typeof ExportLine.Type) => JSON.stringify(encodeLine(value))

/** The records of an import file, or the first line that is not one. */
export const parseLines = (
  lines: ReadonlyArray<string>
): Either.Either<ReadonlyArray<RecordLine>, InvalidExportLine> => {
  const records: Array<RecordLine> = []
  for (const [index, text] of lines.entries()) {
    if (text.trim() === "") continue
    const fail = (message: string) => Either.left(new InvalidExportLine({ line: index + 1, message }))
    if (text.length > MaxLineBytes) return fail(`line ${index + 1} is longer than ${MaxLineBytes} characters`)
    const decoded = decodeLine(text)
    if (Either.isLeft(decoded)) return fail(`line ${index + 1} is not a workspace record: ${decoded.left}`)
    const value = decoded.right
    if (value.kind === "workspace") {
      if (index !== 0) return fail(`line ${index + 1}: the header belongs on the first line`)
      continue
    }
    records.push(value)
  }
  return Either.right(records)
}

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient
  const targets = yield* NoteTargets

  const exportAll = (workspace: string) =>
    Effect.gen(function*() {
      const [transactions, products, notes, screenings] = yield* Effect.all([
        allTransactions(sql, workspace),
        allProducts(sql, workspace),
        allNotes(sql, workspace),
        allScreenings(sql, workspace)
      ])
      const now = yield* Clock.currentTimeMillis
      const header: HeaderLine = {
        kind: "workspace",
        format: ExportFormat,
        workspace,
        exported_at: new Date(now).toISOString(),
        counts: {
          transactions: transactions.length,
          products: products.length,
          notes: notes.length,
          screenings: screenings.length
        }
      }
      return [
        line(header),
        ...transactions.map((record) => line({ kind: "transaction", record })),
        ...products.map((record) => line({ kind: "product", record })),
        ...notes.map((record) => line({ kind: "note", record })),
        ...screenings.map((record) => line({ kind: "screening", record }))
      ]
    })

  const importAll = (workspace: string, lines: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      const records = yield* parseLines(lines)
      const summary = { transactions: 0, products: 0, notes: 0, screenings: 0 }
      yield* storeFailure(
        Effect.forEach(records, (entry) => {
          switch (entry.kind) {
            case "transaction":
              summary.transactions++
              return writeTransaction(sql, workspace, entry.record)
            case "product":
              summary.products++
              return writeProduct(sql, workspace, entry.record)
            case "note":
              summary.notes++
              return writeNote(sql, targets, workspace, entry.record)
            case "screening":
              summary.screenings++
              return writeScreening(sql, workspace, entry.record)
          }
        }, { discard: true }).pipe(sql.withTransaction)
      )
      return summary
    })

  return { export: exportAll, import: importAll } satisfies WorkspaceExportShape
})

export const layer = Layer.effect(WorkspaceExport, make)
