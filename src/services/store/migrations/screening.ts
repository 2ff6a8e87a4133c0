import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { MigrationArea } from "./Area.ts"

/**
 * What each refresh of the Consolidated Screening List changed, shared by every instance:
 * `csl_entries` is the last recorded list (entry id → content hash, name, list), `csl_refreshes`
 * one row per recorded list, `csl_changes` the entries each refresh added, changed or removed.
 */
const listChanges = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`CREATE TABLE csl_entries (
    entry_id text PRIMARY KEY,
    content_hash text NOT NULL,
    name text NOT NULL,
    source_code text NOT NULL,
    source text NOT NULL
  )`
  yield* sql`CREATE TABLE csl_refreshes (
    id bigserial PRIMARY KEY,
    recorded_at text NOT NULL,
    published_at text,
    list_hash text NOT NULL,
    entries integer NOT NULL,
    added integer NOT NULL,
    changed integer NOT NULL,
    removed integer NOT NULL,
    baseline boolean NOT NULL
  )`
  yield* sql`CREATE INDEX csl_refreshes_by_time ON csl_refreshes (recorded_at, id)`
  yield* sql`CREATE TABLE csl_changes (
    refresh_id bigint NOT NULL REFERENCES csl_refreshes (id),
    entry_id text NOT NULL,
    change text NOT NULL CHECK (change IN ('added', 'changed', 'removed')),
    name text NOT NULL,
    source_code text NOT NULL,
    source text NOT NULL,
    PRIMARY KEY (refresh_id, entry_id)
  )`
})

/** Migrations of screening: ids 60–69. Append new ones at the end; never edit a merged one. */
export const screening: MigrationArea = {
  name: "screening",
  ids: { first: 60, last: 69 },
  migrations: { "60_csl_changes": listChanges }
}
