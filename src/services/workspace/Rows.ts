import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Schema } from "effect"
import { StoreUnavailable } from "../../domain/workspace/Workspace.ts"

/** A store failure as the tools report it; the cause is logged, never the statement's parameters. */
export const storeFailure = <A, R>(
  effect: Effect.Effect<A, SqlError, R>
): Effect.Effect<A, StoreUnavailable, R> =>
  Effect.catchTag(effect, "SqlError", (error) =>
    Effect.zipRight(
      Effect.logWarning("workspace store unavailable", { reason: error.message }),
      Effect.fail(new StoreUnavailable({ message: "The workspace store is unavailable; try again shortly." }))
    ))

/** A stored record decoded by its schema; a row that does not decode is a defect (only this code writes them). */
export const decodeRecord = <A, I>(schema: Schema.Schema<A, I, never>) => {
  const decode = Schema.decodeUnknownSync(schema)
  return (record: unknown): A => decode(typeof record === "string" ? JSON.parse(record) : record)
}

/** A record as the `jsonb` parameter of a statement. */
export const encodeRecord = <A, I>(schema: Schema.Schema<A, I, never>) => {
  const encode = Schema.encodeSync(schema)
  return (value: A): string => JSON.stringify(encode(value))
}

/** Rows of one page plus one: whether another page follows. */
export const pageOf = <Row>(rows: ReadonlyArray<Row>, limit: number) => ({
  rows: rows.slice(0, limit),
  more: rows.length > limit
})
