import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { MigrationArea } from "./Area.ts"

/**
 * The enterprise workspace records. Each row is one record of one workspace: the record itself as
 * `record` (JSON, decoded by its domain schema on read) and the columns the lists filter and page on.
 */
const records = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`CREATE TABLE workspace_transactions (
    workspace text NOT NULL,
    reference text NOT NULL,
    day text NOT NULL,
    status text NOT NULL,
    updated_at text NOT NULL,
    record jsonb NOT NULL,
    PRIMARY KEY (workspace, reference)
  )`
  yield* sql`CREATE INDEX workspace_transactions_by_day ON workspace_transactions (workspace, day DESC, reference)`
  yield* sql`CREATE INDEX workspace_transactions_by_status
    ON workspace_transactions (workspace, status, day DESC, reference)`
  yield* sql`CREATE TABLE workspace_products (
    workspace text NOT NULL,
    label_key text NOT NULL,
    updated_at text NOT NULL,
    record jsonb NOT NULL,
    PRIMARY KEY (workspace, label_key)
  )`
  yield* sql`CREATE TABLE workspace_notes (
    workspace text NOT NULL,
    id text NOT NULL,
    kind text NOT NULL,
    key text NOT NULL,
    created_at text NOT NULL,
    record jsonb NOT NULL,
    PRIMARY KEY (workspace, id)
  )`
  yield* sql`CREATE INDEX workspace_notes_by_target ON workspace_notes (workspace, kind, key)`
  yield* sql`CREATE INDEX workspace_notes_by_time ON workspace_notes (workspace, created_at DESC, id)`
  yield* sql`CREATE TABLE workspace_screenings (
    workspace text NOT NULL,
    id text NOT NULL,
    party_key text NOT NULL,
    decision text NOT NULL,
    screened_at text NOT NULL,
    record jsonb NOT NULL,
    PRIMARY KEY (workspace, id)
  )`
  yield* sql`CREATE INDEX workspace_screenings_by_party
    ON workspace_screenings (workspace, party_key, screened_at DESC, id)`
  yield* sql`CREATE INDEX workspace_screenings_by_time ON workspace_screenings (workspace, screened_at DESC, id)`
})

/**
 * The lists page by row comparison, `(day, reference) < (…)` newest first: one uniform direction,
 * so PostgreSQL walks one index range backwards from the cursor instead of filtering an OR.
 */
const keysetIndexes = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`DROP INDEX workspace_transactions_by_day`
  yield* sql`DROP INDEX workspace_transactions_by_status`
  yield* sql`DROP INDEX workspace_notes_by_time`
  yield* sql`DROP INDEX workspace_screenings_by_party`
  yield* sql`DROP INDEX workspace_screenings_by_time`
  yield* sql`CREATE INDEX workspace_transactions_by_day ON workspace_transactions (workspace, day, reference)`
  yield* sql`CREATE INDEX workspace_transactions_by_status
    ON workspace_transactions (workspace, status, day, reference)`
  yield* sql`CREATE INDEX workspace_notes_by_time ON workspace_notes (workspace, created_at, id)`
  yield* sql`CREATE INDEX workspace_screenings_by_party ON workspace_screenings (workspace, party_key, screened_at, id)`
  yield* sql`CREATE INDEX workspace_screenings_by_time ON workspace_screenings (workspace, screened_at, id)`
})

/** Migrations of the enterprise workspace: ids 40–59. Append new ones at the end; never edit a merged one. */
export const workspace: MigrationArea = {
  name: "workspace",
  ids: { first: 40, last: 59 },
  migrations: { "40_workspace_records": records, "41_workspace_keyset_indexes": keysetIndexes }
}
