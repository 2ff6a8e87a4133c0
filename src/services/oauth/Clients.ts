import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { Option } from "effect"
import { Effect, Schema } from "effect"
import type { OAuthClient } from "../../domain/Accounts.ts"
import { ClientMetadata } from "../../domain/OAuth.ts"
import { StoreError } from "../accounts/DocumentStore.ts"

interface ClientRow {
  readonly clientId: string
  readonly issuedAt: number
  readonly secretHash: string | null
  readonly metadata: unknown
  readonly revokedAt: number | null
}

/** Which registrations may go: never used, registered before the cutoff, no sign-in or code in flight. */
export interface UnusedClients {
  readonly registeredBefore: number
  /** Pending sign-ins and codes that expire after this are in flight. */
  readonly now: number
}

const decodeMetadata = Schema.decodeUnknown(ClientMetadata)
const failed = (what: string) => () => new StoreError({ reason: `cannot ${what} the OAuth clients` })

/**
 * Registered OAuth clients, one row each in `oauth_clients` (migration 70): registration is one
 * INSERT, lookup a primary-key read, the clean-up one DELETE. Before, they lived in the OAuth
 * document with the connections and tokens, so every registration rewrote that document and every
 * token exchange decoded every client.
 *
 * A registration that ever completed an authorization is marked `connected_at` by the code exchange
 * and is never swept; the operator revokes it.
 */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient

  const toClient = (row: ClientRow) =>
    Effect.map(decodeMetadata(row.metadata), (metadata): OAuthClient => ({
      clientId: row.clientId,
      issuedAt: row.issuedAt,
      metadata,
      ...(row.secretHash === null ? {} : { secretHash: row.secretHash }),
      ...(row.revokedAt === null ? {} : { revokedAt: row.revokedAt })
    }))

  const find = (clientId: string): Effect.Effect<Option.Option<OAuthClient>, StoreError> =>
    Effect.flatMap(
      sql<ClientRow>`SELECT client_id, issued_at, secret_hash, metadata, revoked_at
        FROM oauth_clients WHERE client_id = ${clientId}`,
      (rows) => rows[0] === undefined ? Effect.succeedNone : Effect.asSome(toClient(rows[0]))
    ).pipe(Effect.mapError(failed("read")))

  const list: Effect.Effect<ReadonlyArray<OAuthClient>, StoreError> = Effect.flatMap(
    sql<ClientRow>`SELECT client_id, issued_at, secret_hash, metadata, revoked_at
      FROM oauth_clients ORDER BY issued_at, client_id`,
    (rows) => Effect.forEach(rows, toClient)
  ).pipe(Effect.mapError(failed("read")))

  // the conditions of the clean-up, in one statement: concurrent sweeps on several instances each
  // delete what is still there, and a row another deleted first is simply not counted again
  const deleteUnused = (unused: UnusedClients) =>
    sql<{ clientId: string }>`
      DELETE FROM oauth_clients
      WHERE connected_at IS NULL AND issued_at <= ${unused.registeredBefore}
        AND client_id NOT IN (
          SELECT request->>'clientId' FROM oauth_pending
            WHERE expires_at > ${unused.now} AND request->>'clientId' IS NOT NULL
          UNION SELECT request->>'clientId' FROM oauth_codes
            WHERE expires_at > ${unused.now} AND request->>'clientId' IS NOT NULL)
      RETURNING client_id`

  /**
   * Registers `client` unless `maxClients` are registered; when full, first deletes the unused ones
   * (as the sweep would). The count and the INSERT run under one advisory lock per database, so
   * registrations on every instance together never pass the cap.
   */
  const register = (client: OAuthClient, maxClients: number, unused: UnusedClients) =>
    sql.withTransaction(Effect.gen(function*() {
      yield* sql`SELECT pg_advisory_xact_lock(hashtext('ecds:oauth:clients'))`
      const insert = sql`
        INSERT INTO oauth_clients (client_id, issued_at, secret_hash, metadata)
        SELECT ${client.clientId}::text, ${client.issuedAt}::bigint, ${client.secretHash ?? null}::text,
          ${JSON.stringify(client.metadata)}::jsonb
        WHERE (SELECT count(*) FROM oauth_clients) < ${maxClients}::bigint
        RETURNING client_id`
      if ((yield* insert).length > 0) return true
      if ((yield* deleteUnused(unused)).length === 0) return false
      return (yield* insert).length > 0
    })).pipe(Effect.mapError(failed("register")))

  /**
   * Marks a client as having completed an authorization, false when it is revoked or gone. Run in
   * the transaction that stores the connection: the row stays locked until it commits, so an
   * operator's revocation waits for it and then ends the new connection too.
   */
  const markConnected = (clientId: string, now: number): Effect.Effect<boolean, SqlError> =>
    Effect.map(
      sql`UPDATE oauth_clients SET connected_at = ${now}
        WHERE client_id = ${clientId} AND revoked_at IS NULL RETURNING client_id`,
      (rows) => rows.length > 0
    )

  /** Marks a client revoked (run in the transaction that ends its connections); false when unknown. */
  const markRevoked = (clientId: string, now: number): Effect.Effect<boolean, SqlError> =>
    Effect.map(
      sql`UPDATE oauth_clients SET revoked_at = coalesce(revoked_at, ${now}::bigint)
        WHERE client_id = ${clientId} RETURNING client_id`,
      (rows) => rows.length > 0
    )

  const sweep = (unused: UnusedClients): Effect.Effect<number, StoreError> =>
    Effect.map(deleteUnused(unused), (rows) => rows.length).pipe(Effect.mapError(failed("sweep")))

  return { find, list, register, markConnected, markRevoked, sweep, withTransaction: sql.withTransaction }
})

export type Clients = Effect.Effect.Success<typeof make>
