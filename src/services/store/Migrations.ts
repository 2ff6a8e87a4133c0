import * as Migrator from "@effect/sql/Migrator"
import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Layer } from "effect"
import type { MigrationArea } from "./migrations/Area.ts"
import { areas as allAreas } from "./migrations/index.ts"

export interface AppliedMigration {
  readonly area: string
  readonly id: number
  readonly name: string
}

const runMigrator = Migrator.make({})

/** The history table of an area: `ecds_migrations_<area>`. */
export const historyTable = (area: MigrationArea): string => `ecds_migrations_${area.name}`

const idOf = (key: string) => Number(/^(\d+)_/.exec(key)?.[1] ?? Number.NaN)

/** Every key is `<id>_<name>`, every id inside the area's range and no id used twice across areas. */
export const checkAreas = (areas: ReadonlyArray<MigrationArea>): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const owner = new Map<number, string>()
  for (const area of areas) {
    for (const key of Object.keys(area.migrations)) {
      const id = idOf(key)
      if (!Number.isInteger(id)) problems.push(`${area.name}: "${key}" does not start with "<id>_"`)
      else if (id < area.ids.first || id > area.ids.last) {
        problems.push(`${area.name}: ${key} is outside ${area.ids.first}–${area.ids.last}`)
      } else if (owner.has(id)) problems.push(`${area.name}: id ${id} is already used by ${owner.get(id)}`)
      else owner.set(id, area.name)
    }
  }
  return problems
}

/**
 * Brings the database to the latest schema: every area's pending migrations, in one transaction
 * under a transaction-scoped advisory lock, so instances starting together take turns (the second
 * finds nothing left to do) and a failing migration leaves nothing half-applied.
 */
export const runAreas = (
  areas: ReadonlyArray<MigrationArea>
): Effect.Effect<ReadonlyArray<AppliedMigration>, Migrator.MigrationError | SqlError, SqlClient> =>
  Effect.gen(function*() {
    const problems = checkAreas(areas)
    if (problems.length > 0) {
      return yield* new Migrator.MigrationError({ reason: "bad-state", message: problems.join("; ") })
    }
    const sql = yield* SqlClient
    return yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql`SELECT pg_advisory_xact_lock(hashtext('ecds:migrations'))`
      const applied: Array<AppliedMigration> = []
      for (const area of areas) {
        const table = historyTable(area)
        // created here, not by the Migrator: its "does the table exist" probe fails by design, which
        // would abort the surrounding transaction
        yield* sql`CREATE TABLE IF NOT EXISTS ${sql(table)} (
          migration_id integer PRIMARY KEY,
          created_at timestamptz NOT NULL DEFAULT now(),
          name text NOT NULL
        )`
        const ran = yield* runMigrator({ loader: Migrator.fromRecord(area.migrations), table })
        for (const [id, name] of ran) applied.push({ area: area.name, id, name })
      }
      return applied
    }))
  })

/** Every area's migrations (the registry in `migrations/index.ts`). */
export const run = runAreas(allAreas)

/** Runs the migrations when the store starts, and says in the log what was applied. */
export const layer: Layer.Layer<never, Migrator.MigrationError | SqlError, SqlClient> = Layer.effectDiscard(
  Effect.flatMap(run, (applied) =>
    applied.length === 0
      ? Effect.void
      : Effect.logInfo("database migrated", {
        migrations: applied.map((migration) => `${migration.area}/${migration.id}_${migration.name}`)
      }))
)
