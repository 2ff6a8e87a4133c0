import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { MigrationArea } from "./Area.ts"

/** Statements run one by one: the embedded engine prepares each statement and takes one at a time. */
const statements = (...texts: ReadonlyArray<string>) =>
  Effect.flatMap(SqlClient, (sql) => Effect.forEach(texts, (text) => sql.unsafe(text), { discard: true }))

/** Migrations of hardening: ids 70–79. Append new ones at the end; never edit a merged one. */
export const hardening: MigrationArea = {
  name: "hardening",
  ids: { first: 70, last: 79 },
  migrations: {
    // registered OAuth clients as rows of their own, out of the OAuth document (which every
    // registration rewrote and every token exchange decoded whole). The clients already in the
    // document move over here, inside the migration's transaction, so exactly once; a client with a
    // connection in the document is marked connected (the sweep never deletes it)
    "70_oauth_clients": statements(
      `CREATE TABLE oauth_clients (
        client_id text PRIMARY KEY,
        issued_at bigint NOT NULL,
        secret_hash text,
        metadata jsonb NOT NULL,
        revoked_at bigint,
        connected_at bigint
      )`,
      `CREATE INDEX oauth_clients_unused ON oauth_clients (issued_at) WHERE connected_at IS NULL`,
      `INSERT INTO oauth_clients (client_id, issued_at, secret_hash, metadata, revoked_at, connected_at)
        SELECT client.key, (client.value->>'issuedAt')::numeric::bigint, client.value->>'secretHash',
          client.value->'metadata', (client.value->>'revokedAt')::numeric::bigint,
          (SELECT max((grant_row.value->>'createdAt')::numeric::bigint)
            FROM jsonb_each(CASE WHEN jsonb_typeof(document.body->'grants') = 'object'
              THEN document.body->'grants' ELSE '{}'::jsonb END) AS grant_row
            WHERE grant_row.value->>'clientId' = client.key)
        FROM store_documents AS document, jsonb_each(CASE WHEN jsonb_typeof(document.body->'clients') = 'object'
          THEN document.body->'clients' ELSE '{}'::jsonb END) AS client
        WHERE document.name = 'oauth'
        ON CONFLICT (client_id) DO NOTHING`,
      // the key stays (empty) so an instance of the previous version still reads the document
      `UPDATE store_documents SET version = version + 1, body = jsonb_set(body, '{clients}', '{}'::jsonb)
        WHERE name = 'oauth' AND jsonb_typeof(body->'clients') = 'object' AND body->'clients' <> '{}'::jsonb`
    )
  }
}
