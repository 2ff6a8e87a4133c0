import { SqlClient } from "@effect/sql/SqlClient"
import { Effect, Schema } from "effect"
import { type DocumentStore, StoreError } from "./DocumentStore.ts"

/** The rows of `store_documents`: development users; OAuth connections and tokens (clients: `oauth_clients`). */
export const DocumentNames = { users: "users", oauth: "oauth" } as const

/**
 * A schema-checked JSON document in one row of the SQL store (`store_documents`), with the same
 * contract as the file document store: `update` is a read-modify-write under the row's lock
 * (`SELECT … FOR UPDATE` in a transaction), so writers on every instance are serialised and none is
 * lost; `current` asks the row's version (a primary-key read) and reloads the document only when
 * another writer changed it, so every instance reads what any instance last wrote.
 *
 * Every write rewrites the whole document: right for the account documents (development users,
 * OAuth connections), whose size is bounded, not for unbounded record sets such as registered clients.
 */
export const make = <A, I>(options: {
  readonly name: string
  readonly schema: Schema.Schema<A, I>
  readonly empty: A
}): Effect.Effect<DocumentStore<A>, never, SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const decode = Schema.decodeUnknown(options.schema)
    const encode = Schema.encode(options.schema)
    const fail = (what: string) => () => new StoreError({ reason: `${what} the ${options.name} document` })
    let cached: { readonly version: number; readonly document: A } = { version: 0, document: options.empty }

    const load = (rows: ReadonlyArray<{ readonly version: number; readonly body: unknown }>) =>
      rows[0] === undefined
        ? Effect.succeed({ version: 0, document: options.empty })
        : Effect.map(
          Effect.mapError(decode(rows[0].body), fail("invalid content in")),
          (document) => ({ version: rows[0]!.version, document })
        )

    const current = Effect.gen(function*() {
      const [row] = yield* sql<{ version: number }>`
        SELECT version FROM store_documents WHERE name = ${options.name}`
      if ((row?.version ?? 0) === cached.version) return cached.document
      cached = yield* load(
        yield* sql<{ version: number; body: unknown }>`
          SELECT version, body FROM store_documents WHERE name = ${options.name}`
      )
      return cached.document
    }).pipe(Effect.mapError(fail("cannot read")))

    const update = <B>(change: (document: A) => readonly [B, A]) =>
      sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO store_documents (name, version, body)
          VALUES (${options.name}, 0, 'null'::jsonb) ON CONFLICT DO NOTHING`
        const rows = yield* sql<{ version: number; body: unknown }>`
          SELECT version, body FROM store_documents WHERE name = ${options.name} FOR UPDATE`
        const latest = rows[0]?.version === 0 ? { version: 0, document: options.empty } : yield* load(rows)
        const [result, next] = change(latest.document)
        if (next === latest.document) return result
        const body = yield* Effect.mapError(encode(next), fail("cannot encode"))
        const [written] = yield* sql<{ version: number }>`
          UPDATE store_documents SET version = version + 1, body = ${JSON.stringify(body)}::jsonb
          WHERE name = ${options.name} RETURNING version`
        cached = { version: written!.version, document: next }
        return result
      })).pipe(
        Effect.catchTag("SqlError", fail("cannot write"))
      )

    // an unreachable store is a typed failure: callers answer 503 (OAuth `temporarily_unavailable`)
    return { current, update }
  })
