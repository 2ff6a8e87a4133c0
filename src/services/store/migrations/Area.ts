import type { SqlClient } from "@effect/sql/SqlClient"
import type { Effect } from "effect"

/** One migration: DDL (and data moves) run once, in order, inside the start-up transaction. */
export type Migration = Effect.Effect<void, unknown, SqlClient>

/**
 * The migrations of one area of the code base. Each area keeps its own history table, so areas
 * merged in any order all run: the Migrator of `@effect/sql` runs only ids above the highest one
 * already recorded in its table. Ids stay inside the area's range (see docs/store.md) and only
 * ever grow; a merged migration is never edited, a change is a new migration.
 */
export interface MigrationArea {
  readonly name: string
  readonly ids: { readonly first: number; readonly last: number }
  /** `"<id>_<name>"` → the migration, e.g. `"1_api_keys"`. */
  readonly migrations: Readonly<Record<string, Migration>>
}
