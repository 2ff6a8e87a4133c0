import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { MigrationArea } from "./Area.ts"

/** Statements run one by one: the embedded engine prepares each statement and takes one at a time. */
const statements = (...texts: ReadonlyArray<string>) =>
  Effect.flatMap(SqlClient, (sql) => Effect.forEach(texts, (text) => sql.unsafe(text), { discard: true }))

/**
 * Migrations of the shared-state store (keys, credits, accounts, OAuth, documents, leases): ids 1–19.
 * The Migrator runs only ids above the highest recorded, so a new migration always takes the next id
 * above every merged one (documents took 10 first, accounts 11 and 12). Append new ones at the end;
 * never edit a merged one.
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
      )),
    // API keys (only the SHA-256 of a key is kept) and prepaid credits: a balance per account, the
    // append-only ledger of every change to it, and the holds of renders in flight
    "11_keys_and_credits": statements(
      `CREATE TABLE api_keys (
        key_id text PRIMARY KEY,
        key_hash text NOT NULL,
        status text NOT NULL CHECK (status IN ('active', 'inactive', 'billing_issue')),
        plan text NOT NULL,
        label text NOT NULL,
        created_at timestamptz NOT NULL
      )`,
      `CREATE TABLE credit_accounts (
        account text PRIMARY KEY,
        balance bigint NOT NULL CHECK (balance >= 0),
        spent bigint NOT NULL DEFAULT 0,
        last_spent_at timestamptz
      )`,
      `CREATE TABLE credit_holds (
        hold_id text PRIMARY KEY,
        account text NOT NULL REFERENCES credit_accounts (account),
        state text NOT NULL CHECK (state IN ('held', 'settled', 'refunded')),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        closed_at timestamptz
      )`,
      `CREATE INDEX credit_holds_open ON credit_holds (expires_at) WHERE state = 'held'`,
      `CREATE TABLE credit_ledger (
        entry_id bigserial PRIMARY KEY,
        account text NOT NULL REFERENCES credit_accounts (account),
        delta bigint NOT NULL,
        kind text NOT NULL CHECK (kind IN ('added', 'removed', 'debit', 'refund', 'imported')),
        hold_id text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX credit_ledger_account ON credit_ledger (account, entry_id)`,
      // one row per one-time import (e.g. the JSON files of DATA_DIR), so it never runs twice
      `CREATE TABLE store_imports (
        import_name text PRIMARY KEY,
        imported_at timestamptz NOT NULL DEFAULT now(),
        summary jsonb NOT NULL
      )`
    ),
    // account documents (development users; OAuth clients, connections and tokens) as one jsonb row
    // each, written under the row's lock; sign-ins waiting on the consent page and issued codes as
    // rows of their own, so any instance continues a flow another began and a restart loses none
    "12_accounts_and_sign_ins": statements(
      `CREATE TABLE store_documents (
        name text PRIMARY KEY,
        version bigint NOT NULL,
        body jsonb NOT NULL
      )`,
      `CREATE TABLE oauth_pending (
        handle text PRIMARY KEY,
        request jsonb NOT NULL,
        expires_at bigint NOT NULL,
        failures integer NOT NULL DEFAULT 0
      )`,
      `CREATE INDEX oauth_pending_expiry ON oauth_pending (expires_at)`,
      `CREATE TABLE oauth_codes (
        code_id text PRIMARY KEY,
        secret_hash text NOT NULL,
        request jsonb NOT NULL,
        user_id text NOT NULL,
        grant_id text NOT NULL,
        expires_at bigint NOT NULL,
        used_at bigint
      )`,
      `CREATE INDEX oauth_codes_expiry ON oauth_codes (expires_at)`
    ),
    // sign-in attempts per subject (the SHA-256 of an e-mail address as typed, or a client address),
    // shared by every instance: the count, the lock it earned and when the row may be forgotten
    "16_oauth_sign_in_throttle": statements(
      `CREATE TABLE oauth_sign_in_throttle (
        subject text PRIMARY KEY,
        attempts integer NOT NULL,
        locked_until bigint NOT NULL,
        expires_at bigint NOT NULL
      )`,
      `CREATE INDEX oauth_sign_in_throttle_expiry ON oauth_sign_in_throttle (expires_at)`
    ),
    // the eCFR mirror instances on PostgreSQL share: each part's newest snapshot (the parsed snapshot
    // as JSON beside its XML), and the lease of the instance downloading a part, so one asks eCFR
    // while the others wait for its answer. New tables only: instances of the previous version
    // never read them and keep their own files.
    "17_ecfr_part_snapshots": statements(
      `CREATE TABLE ecfr_part_snapshots (
        part integer PRIMARY KEY,
        issue_date text NOT NULL,
        content_hash text NOT NULL,
        fetched_at bigint NOT NULL,
        verified_at bigint NOT NULL,
        snapshot text NOT NULL,
        xml text NOT NULL
      )`,
      `CREATE TABLE ecfr_part_fills (
        part integer PRIMARY KEY,
        holder text NOT NULL,
        lease_until timestamptz NOT NULL
      )`
    )
  }
}
