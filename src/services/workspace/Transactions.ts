import { SqlClient } from "@effect/sql/SqlClient"
import { Clock, Context, Effect, Layer } from "effect"
import { decodeCursor, encodeCursor } from "../../domain/workspace/Cursor.ts"
import { dayOf } from "../../domain/workspace/Fields.ts"
import {
  deriveStatus,
  mergeEvents,
  type Transaction,
  type TransactionListParams,
  type TransactionPage,
  type TransactionSync
} from "../../domain/workspace/Transactions.ts"
import {
  type InvalidCursor,
  invalidCursor,
  RecordNotFound,
  type StoreUnavailable
} from "../../domain/workspace/Workspace.ts"
import { pageOf, storeFailure } from "./Rows.ts"
import { decodeTransaction, writeTransaction } from "./Tables.ts"

export const DefaultPageSize = 50

export interface TransactionsShape {
  /** Creates or updates the transaction with the caller's reference, in one database transaction. */
  readonly sync: (workspace: string, input: TransactionSync) => Effect.Effect<Transaction, StoreUnavailable>
  readonly list: (
    workspace: string,
    params: TransactionListParams
  ) => Effect.Effect<TransactionPage, InvalidCursor | StoreUnavailable>
  readonly get: (workspace: string, reference: string) => Effect.Effect<Transaction, RecordNotFound | StoreUnavailable>
}

export class Transactions extends Context.Tag("app/workspace/Transactions")<Transactions, TransactionsShape>() {}

const decode = decodeTransaction

/** The stored transaction after a sync: sent fields replace stored ones, events merge by type. */
const apply = (stored: Transaction | undefined, input: TransactionSync, now: number): Transaction => {
  const events = mergeEvents(stored?.events ?? [], input.events ?? [])
  const at = new Date(now).toISOString()
  const destination = input.destination ?? stored?.destination
  const value = input.value ?? stored?.value
  return {
    reference: input.reference,
    date: input.date ?? stored?.date ?? dayOf(now),
    ...deriveStatus(events),
    ...(destination === undefined ? {} : { destination }),
    ...(value === undefined ? {} : { value }),
    parties: input.parties ?? stored?.parties ?? [],
    items: input.items ?? stored?.items ?? [],
    events: events.map((event) => event.at === undefined ? { ...event, at } : event),
    created_at: stored?.created_at ?? at,
    updated_at: at
  }
}

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient

  const write = (workspace: string, transaction: Transaction) => writeTransaction(sql, workspace, transaction)

  const sync = (workspace: string, input: TransactionSync) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      // the row lock serializes concurrent syncs of one reference (across instances too); a first
      // sync racing another inserts through ON CONFLICT, so the later writer's merge wins whole
      const rows = yield* sql<{ record: unknown }>`SELECT record FROM workspace_transactions
        WHERE workspace = ${workspace} AND reference = ${input.reference} FOR UPDATE`
      const transaction = apply(rows.length === 0 ? undefined : decode(rows[0]!.record), input, now)
      yield* write(workspace, transaction)
      return transaction
    }).pipe(sql.withTransaction, storeFailure)

  const list = (workspace: string, params: TransactionListParams) =>
    Effect.gen(function*() {
      const limit = params.limit ?? DefaultPageSize
      const after = params.cursor === undefined ? undefined : decodeCursor(params.cursor, 2)
      if (params.cursor !== undefined && after === undefined) return yield* invalidCursor
      const conditions = [
        sql`workspace = ${workspace}`,
        ...(params.status === undefined ? [] : [sql`status = ${params.status}`]),
        ...(params.from === undefined ? [] : [sql`day >= ${params.from}`]),
        ...(params.to === undefined ? [] : [sql`day <= ${params.to}`]),
        // newest first by (day, reference): resume strictly after the last row shown
        ...(after === undefined ? [] : [sql`(day, reference) < (${after[0]!}, ${after[1]!})`])
      ]
      const rows = yield* storeFailure(
        sql<{ record: unknown }>`SELECT record FROM workspace_transactions WHERE ${sql.and(conditions)}
          ORDER BY day DESC, reference DESC LIMIT ${limit + 1}`
      )
      const page = pageOf(rows.map((row) => decode(row.record)), limit)
      const last = page.rows.at(-1)
      return {
        transactions: page.rows.map(({ date, destination, open_steps, reference, status, updated_at }) => ({
          reference,
          date,
          status,
          open_steps,
          ...(destination === undefined ? {} : { destination }),
          updated_at
        })),
        count: page.rows.length,
        next_cursor: page.more && last !== undefined ? encodeCursor([last.date, last.reference]) : null
      }
    })

  const get = (workspace: string, reference: string) =>
    Effect.flatMap(
      storeFailure(sql<{ record: unknown }>`SELECT record FROM workspace_transactions
        WHERE workspace = ${workspace} AND reference = ${reference}`),
      (rows) =>
        rows.length === 0
          ? Effect.fail(new RecordNotFound({ message: `No transaction with reference ${reference} in this workspace` }))
          : Effect.succeed(decode(rows[0]!.record))
    )

  return { sync, list, get } satisfies TransactionsShape
})

export const layer = Layer.effect(Transactions, make)
