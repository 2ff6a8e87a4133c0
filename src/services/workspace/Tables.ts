import type { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import { Note, targetKey } from "../../domain/workspace/Notes.ts"
import { labelKey, StoredProduct } from "../../domain/workspace/Products.ts"
import { partyKey, Screening } from "../../domain/workspace/Screenings.ts"
import { Transaction } from "../../domain/workspace/Transactions.ts"
import type { NoteTargetsShape } from "./NoteTargets.ts"
import { decodeRecord, encodeRecord, storeFailure } from "./Rows.ts"

/**
 * How each workspace record is written to and read from its table: the record as JSON plus the
 * columns derived from it. The services and the export/import share these, so an imported record
 * lands exactly as a tool would have written it.
 */

const encodeTransaction = encodeRecord(Transaction)
const encodeProduct = encodeRecord(StoredProduct)
const encodeNote = encodeRecord(Note)
const encodeScreening = encodeRecord(Screening)

export const decodeTransaction = decodeRecord(Transaction)
export const decodeProduct = decodeRecord(StoredProduct)
export const decodeNote = decodeRecord(Note)
export const decodeScreening = decodeRecord(Screening)

export const writeTransaction = (sql: SqlClient, workspace: string, transaction: Transaction) =>
  sql`INSERT INTO workspace_transactions (workspace, reference, day, status, updated_at, record)
    VALUES (${workspace}, ${transaction.reference}, ${transaction.date}, ${transaction.status},
      ${transaction.updated_at}, ${encodeTransaction(transaction)}::jsonb)
    ON CONFLICT (workspace, reference) DO UPDATE SET day = excluded.day, status = excluded.status,
      updated_at = excluded.updated_at, record = excluded.record`

export const writeProduct = (sql: SqlClient, workspace: string, product: StoredProduct) =>
  sql`INSERT INTO workspace_products (workspace, label_key, updated_at, record)
    VALUES (${workspace}, ${labelKey(product.label)}, ${product.updated_at}, ${encodeProduct(product)}::jsonb)
    ON CONFLICT (workspace, label_key) DO UPDATE SET updated_at = excluded.updated_at, record = excluded.record`

export const writeNote = (sql: SqlClient, targets: NoteTargetsShape, workspace: string, note: Note) => {
  const { key, kind } = targetKey(note.target)
  // counted before the write: a lookup never skips a target that holds a note (see NoteTargets)
  return Effect.zipRight(
    targets.mark(workspace, kind, key),
    sql`INSERT INTO workspace_notes (workspace, id, kind, key, created_at, record)
    VALUES (${workspace}, ${note.id}, ${kind}, ${key}, ${note.created_at}, ${encodeNote(note)}::jsonb)
    ON CONFLICT (workspace, id) DO UPDATE SET kind = excluded.kind, key = excluded.key,
      created_at = excluded.created_at, record = excluded.record`
  )
}

export const writeScreening = (sql: SqlClient, workspace: string, entry: Screening) =>
  sql`INSERT INTO workspace_screenings (workspace, id, party_key, decision, screened_at, record)
    VALUES (${workspace}, ${entry.id}, ${partyKey(entry.party)}, ${entry.decision}, ${entry.screened_at},
      ${encodeScreening(entry)}::jsonb)
    ON CONFLICT (workspace, id) DO UPDATE SET party_key = excluded.party_key, decision = excluded.decision,
      screened_at = excluded.screened_at, record = excluded.record`

/** Every record of a workspace in one table, in a stable order. */
const allOf = <A>(
  statement: Effect.Effect<ReadonlyArray<{ readonly record: unknown }>, SqlError>,
  decode: (record: unknown) => A
) => Effect.map(storeFailure(statement), (rows) => rows.map((row) => decode(row.record)))

export const allTransactions = (sql: SqlClient, workspace: string) =>
  allOf(
    sql<
      { record: unknown }
    >`SELECT record FROM workspace_transactions WHERE workspace = ${workspace} ORDER BY reference`,
    decodeTransaction
  )

export const allProducts = (sql: SqlClient, workspace: string) =>
  allOf(
    sql<{ record: unknown }>`SELECT record FROM workspace_products WHERE workspace = ${workspace} ORDER BY label_key`,
    decodeProduct
  )

export const allNotes = (sql: SqlClient, workspace: string) =>
  allOf(
    sql<{ record: unknown }>`SELECT record FROM workspace_notes WHERE workspace = ${workspace} ORDER BY created_at, id`,
    decodeNote
  )

export const allScreenings = (sql: SqlClient, workspace: string) =>
  allOf(
    sql<
      { record: unknown }
    >`SELECT record FROM workspace_screenings WHERE workspace = ${workspace} ORDER BY screened_at, id`,
    decodeScreening
  )
