import type { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"
import { isExclusive } from "../store/Exclusive.ts"

/**
 * Which note targets (workspace, kind, key) may hold notes, on a store this process alone writes.
 * Every official answer an agent reads (get_eccn, get_country_chart_row) asks for the caller's notes
 * beside it, and almost none find any: on the embedded engine that statement cost more than the
 * rest of the call. With this index, a lookup whose targets never had a note answers none without
 * asking the store. It only ever errs on the side of asking: a target is added before its note is
 * written (a failed or rolled-back write leaves a harmless extra entry), and a deleted note's target
 * stays. On a shared store (PostgreSQL) there is no index, and every lookup asks the store.
 */
interface Index {
  readonly targets: Set<string>
  /** Until the existing targets are loaded, lookups ask the store. */
  loaded: boolean
}

// by client: every writer of one database (the notes service, the workspace import) shares its index
const indexes = new WeakMap<SqlClient, Index>()

const keyOf = (workspace: string, kind: string, key: string) => `${workspace}\u0000${kind}\u0000${key}`

/**
 * Starts the index of an exclusive client from the notes its database already holds (a no-op for a
 * shared client, or one already indexed). A store that cannot be read leaves no index.
 */
export const track = (sql: SqlClient): Effect.Effect<void> => {
  if (!isExclusive(sql) || indexes.has(sql)) return Effect.void
  const index: Index = { targets: new Set(), loaded: false }
  // registered before the read, so a note written meanwhile is counted too
  indexes.set(sql, index)
  return sql<{ workspace: string; kind: string; key: string }>`SELECT DISTINCT workspace, kind, key
    FROM workspace_notes`.pipe(
    Effect.map((rows) => {
      for (const row of rows) index.targets.add(keyOf(row.workspace, row.kind, row.key))
      index.loaded = true
    }),
    Effect.catchAll(() => Effect.sync(() => indexes.delete(sql)))
  )
}

/** Records that a note is about to be written to a target (before the statement, never after). */
export const mark = (sql: SqlClient, workspace: string, kind: string, key: string): void => {
  indexes.get(sql)?.targets.add(keyOf(workspace, kind, key))
}

/** Whether any of the targets may hold a note: true unless an exclusive client's index says none does. */
export const mayHold = (
  sql: SqlClient,
  workspace: string,
  targets: ReadonlyArray<{ readonly kind: string; readonly key: string }>
): boolean => {
  const index = indexes.get(sql)
  if (index === undefined || !index.loaded) return true
  return targets.some((target) => index.targets.has(keyOf(workspace, target.kind, target.key)))
}
