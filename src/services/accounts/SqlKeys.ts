import { SqlClient } from "@effect/sql/SqlClient"
import { Effect, Layer, Option } from "effect"
import { StoreUnavailable } from "../../domain/Problem.ts"
import {
  hashMatches,
  keyIdOf,
  KeyNotFound,
  type KeyRecord,
  type KeyStatus,
  KeyStore,
  type KeyStoreShape,
  newKey
} from "../KeyStore.ts"

interface KeyRow {
  readonly keyId: string
  readonly keyHash: string
  readonly status: KeyStatus
  readonly plan: string
  readonly label: string
  readonly createdAt: Date
}

const recordOf = (row: KeyRow): KeyRecord => ({
  keyId: row.keyId,
  hash: row.keyHash,
  status: row.status,
  plan: row.plan,
  label: row.label,
  createdAt: row.createdAt.toISOString()
})

/**
 * API keys in the SQL store (`api_keys`): the key id finds the row, the SHA-256 of the key is
 * compared in constant time, the key itself is never stored. Every lookup asks the database, so a
 * key deactivated through any instance (or the operator CLI) is refused by all of them at once.
 * An unreachable database is no answer about the key: `verify` fails with `StoreUnavailable`.
 */
const keyStoreUnavailable = new StoreUnavailable({
  detail: "The API key cannot be checked while the account store is unreachable; retry in a few seconds."
})

export const make = Effect.map(SqlClient, (sql): KeyStoreShape => {
  const rowOf = (keyId: string) =>
    Effect.map(
      sql<KeyRow>`SELECT key_id, key_hash, status, plan, label, created_at FROM api_keys WHERE key_id = ${keyId}`,
      (rows) => Option.fromNullable(rows[0])
    )
  return {
    create: (options) =>
      Effect.gen(function*() {
        const { key, record } = newKey(options, new Date())
        yield* sql`INSERT INTO api_keys ${
          sql.insert({
            keyId: record.keyId,
            keyHash: record.hash,
            status: record.status,
            plan: record.plan,
            label: record.label,
            createdAt: new Date(record.createdAt)
          })
        }`
        return { key, record }
      }).pipe(Effect.orDie),
    verify: (key) => {
      const keyId = keyIdOf(key)
      if (keyId === undefined) return Effect.succeedNone
      return rowOf(keyId).pipe(
        Effect.map(Option.filter((row) => hashMatches(row.keyHash, key))),
        Effect.map(Option.map(recordOf)),
        Effect.catchTag("SqlError", () =>
          Effect.zipRight(
            Effect.logWarning("key store unavailable; the API key could not be checked"),
            Effect.fail(keyStoreUnavailable)
          ))
      )
    },
    list: Effect.map(
      sql<KeyRow>`SELECT key_id, key_hash, status, plan, label, created_at FROM api_keys ORDER BY created_at, key_id`,
      (rows) => rows.map(recordOf)
    ).pipe(Effect.orDie),
    setStatus: (keyId, status) =>
      sql<KeyRow>`UPDATE api_keys SET status = ${status} WHERE key_id = ${keyId}
        RETURNING key_id, key_hash, status, plan, label, created_at`.pipe(
        Effect.orDie,
        Effect.flatMap((rows) =>
          rows[0] === undefined ? Effect.fail(new KeyNotFound({ keyId })) : Effect.succeed(recordOf(rows[0]))
        )
      )
  }
})

export const layer: Layer.Layer<KeyStore, never, SqlClient> = Layer.effect(KeyStore, make)
