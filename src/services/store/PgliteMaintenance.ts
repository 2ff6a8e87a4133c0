import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Duration, Effect, Layer } from "effect"

/**
 * How often the embedded store looks for tables to vacuum; the first look, a minute after start,
 * vacuums every table. PostgreSQL's autovacuum wakes once a minute too (`autovacuum_naptime`).
 */
export const interval = Duration.minutes(1)

/** A table and what it needs: dead rows reclaimed (then analyzed too), or only fresh statistics. */
export interface Due {
  readonly target: string
  readonly vacuum: boolean
}

/**
 * The user tables past PostgreSQL's default autovacuum thresholds (`autovacuum_vacuum_*`,
 * `autovacuum_vacuum_insert_*`, `autovacuum_analyze_*`), from the statistics PGlite keeps; `all`
 * names every user table. The target comes back quoted by `format('%I')`, ready to splice.
 */
const dueTables = (all: boolean) =>
  Effect.flatMap(SqlClient, (sql) =>
    sql<Due>`
      SELECT format('%I.%I', s.schemaname, s.relname) AS target,
        (${all} OR s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
          OR s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)) AS vacuum
      FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
      WHERE ${all}
        OR s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
        OR s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)
        OR s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
      ORDER BY 1`)

/**
 * One maintenance pass: `VACUUM (ANALYZE)` or `ANALYZE` of each table that needs it, one statement
 * per table, so statements of requests queued behind the store's single connection wait for one
 * table at a time, never for the whole database. A statement is not interrupted once sent: a
 * shutdown waits for it (a fraction of a second) rather than closing the database under it.
 * The statements run outside any transaction (VACUUM refuses a transaction block): each takes the
 * connection on its own, after whatever transaction held it has ended.
 */
export const pass = (all: boolean): Effect.Effect<ReadonlyArray<Due>, SqlError, SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    // PGlite publishes a statement's row counts at most once a second; this makes the writes up to
    // now count in the statistics the next statement reads
    yield* sql`SELECT pg_stat_force_next_flush()`
    const due = yield* dueTables(all)
    for (const table of due) {
      yield* Effect.uninterruptible(sql.unsafe(`${table.vacuum ? "VACUUM (ANALYZE)" : "ANALYZE"} ${table.target}`))
    }
    return due
  })

/**
 * Runs `first` one interval after start and `next` every interval after that, until the scope
 * closes. A failing pass is logged at warning (its cause's message only, never a statement) and
 * the schedule goes on: maintenance never stops the service.
 */
export const schedule = <E, R>(
  first: Effect.Effect<unknown, E, R>,
  next: Effect.Effect<unknown, E, R>,
  every: Duration.Duration = interval
): Effect.Effect<never, never, R> => {
  const guarded = (run: Effect.Effect<unknown, E, R>) =>
    Effect.zipRight(
      Effect.sleep(every),
      run.pipe(Effect.catchAllCause((cause) =>
        Effect.logWarning("embedded store maintenance failed", {
          reason: cause._tag === "Fail" && cause.error instanceof Error ? cause.error.message : cause._tag
        })
      ))
    )
  return Effect.zipRight(guarded(first), Effect.forever(guarded(next)))
}

/**
 * Vacuum and analyze for the embedded store, which has no autovacuum: without them every update
 * or re-imported document leaves its dead row (and TOAST chunks) in the files for good, and the
 * planner never gets statistics. A background fiber, in the scope of the store's layer:
 *
 * - the first pass, a minute after start, vacuums and analyzes every table: PGlite forgets its
 *   row-change counters when it closes, so what a previous run or an operator command (an
 *   enforcement or bundle import) left behind is only visible this way;
 * - then once a minute, the tables past PostgreSQL's default autovacuum thresholds, so a large
 *   write (an import in the service) is reclaimed within a minute, and a quiet store costs one
 *   statistics query a minute.
 *
 * Short-lived operator commands end before the first pass; the PostgreSQL server has autovacuum,
 * so only the embedded engine's layer includes this one.
 */
export const layer: Layer.Layer<never, never, SqlClient> = Layer.scopedDiscard(
  Effect.forkScoped(schedule(pass(true), pass(false)))
)
