import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { MigrationArea } from "./Area.ts"

/**
 * Migrations of the shared-state store (keys, credits, accounts, OAuth, documents, leases): ids 1–19.
 * Accounts use 1–9, documents and other shared state 10–19. Append new ones at the end; never edit a
 * merged one.
 */
export const store: MigrationArea = {
  name: "store",
  ids: { first: 1, last: 19 },
  migrations: {
    // rendered documents behind download links: named by the SHA-256 of the token (never the token)
    "10_document_files": Effect.flatMap(SqlClient, (sql) =>
      Effect.andThen(
        sql`CREATE TABLE document_files (
          token_hash text PRIMARY KEY,
          file_name text NOT NULL,
          warnings integer NOT NULL,
          size integer NOT NULL,
          bytes bytea NOT NULL,
          expires_at timestamptz NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now()
        )`,
        sql`CREATE INDEX document_files_expires_at ON document_files (expires_at)`
      ))
  }
}
