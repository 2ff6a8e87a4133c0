import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Layer } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Pglite from "../../src/services/store/Pglite.ts"
import { engines, pgliteTemplate } from "../support/SqlEngines.ts"

// The engine contract every repository relies on: the same SQL, types, names and transaction
// semantics on the embedded database and on PostgreSQL.
for (const engine of engines) {
  describe(`SqlClient on ${engine.name}`, () => {
    it.layer(engine.empty, { timeout: 120_000 })((it) => {
      it.effect("runs parameterised statements and maps snake_case columns to camelCase", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient
          yield* sql`CREATE TABLE sample_rows (row_id text PRIMARY KEY, created_at timestamptz NOT NULL, amount bigint NOT NULL, body jsonb NOT NULL, blob bytea)`
          yield* sql`INSERT INTO sample_rows ${
            sql.insert({
              rowId: "a",
              createdAt: new Date(0),
              amount: 9_007_199_254_740_991,
              body: JSON.stringify({ redirect_uris: ["https://x.example"] }),
              blob: new Uint8Array([1, 2, 3])
            })
          }`
          const rows = yield* sql<{
            rowId: string
            createdAt: Date
            amount: number
            body: { redirect_uris: ReadonlyArray<string> }
            blob: Uint8Array
          }>`SELECT * FROM sample_rows WHERE row_id = ${"a"}`
          expect(rows).toHaveLength(1)
          const row = rows[0]!
          expect(row.rowId).toBe("a")
          expect(row.createdAt.getTime()).toBe(0)
          // bigint columns are numbers on both engines
          expect(row.amount).toBe(9_007_199_254_740_991)
          // JSON keys are not renamed
          expect(row.body).toEqual({ redirect_uris: ["https://x.example"] })
          expect([...row.blob]).toEqual([1, 2, 3])
          const values = yield* sql`SELECT row_id, amount FROM sample_rows`.values
          expect(values).toEqual([["a", 9_007_199_254_740_991]])
        }))

      it.effect("round-trips bytea byte for byte: every byte value, empty, a view into a larger buffer", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient
          yield* sql`CREATE TABLE sample_blobs (n integer PRIMARY KEY, blob bytea NOT NULL)`
          const every = Uint8Array.from({ length: 512 }, (_, i) => i % 256)
          const view = new Uint8Array(every.buffer, 3, 7)
          const blobs = [every, new Uint8Array(0), view]
          for (const [n, blob] of blobs.entries()) yield* sql`INSERT INTO sample_blobs ${sql.insert({ n, blob })}`
          const rows = yield* sql<{ n: number; blob: Uint8Array; size: number }>`
            SELECT n, blob, octet_length(blob) AS size FROM sample_blobs ORDER BY n`
          expect(rows.map((row) => [...row.blob])).toEqual(blobs.map((blob) => [...blob]))
          expect(rows.map((row) => row.size)).toEqual([512, 0, 7])
          expect(rows.every((row) => row.blob instanceof Uint8Array)).toBe(true)
        }))

      it.effect("commits a transaction, rolls back a failed one and a failed savepoint only", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient
          yield* sql`CREATE TABLE ledger_sample (n integer NOT NULL)`
          yield* sql.withTransaction(sql`INSERT INTO ledger_sample VALUES (1)`)
          const failed = yield* Effect.exit(sql.withTransaction(
            Effect.zipRight(sql`INSERT INTO ledger_sample VALUES (2)`, Effect.fail("boom"))
          ))
          expect(Exit.isFailure(failed)).toBe(true)
          yield* sql.withTransaction(Effect.gen(function*() {
            yield* sql`INSERT INTO ledger_sample VALUES (3)`
            yield* Effect.ignore(sql.withTransaction(
              Effect.zipRight(sql`INSERT INTO ledger_sample VALUES (4)`, Effect.fail("inner"))
            ))
          }))
          const rows = yield* sql<{ n: number }>`SELECT n FROM ledger_sample ORDER BY n`
          expect(rows.map((row) => row.n)).toEqual([1, 3])
        }))

      it.effect("keeps other fibers' statements out of an open transaction", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient
          yield* sql`CREATE TABLE isolation_sample (n integer NOT NULL)`
          const inside = yield* Effect.makeLatch()
          const finish = yield* Effect.makeLatch()
          const transaction = yield* Effect.fork(sql.withTransaction(Effect.gen(function*() {
            yield* sql`INSERT INTO isolation_sample VALUES (1)`
            yield* inside.open
            yield* finish.await
            yield* Effect.fail("rolled back")
          })))
          yield* inside.await
          // on PostgreSQL another connection does not see uncommitted rows; on PGlite the statement
          // waits until the transaction has ended
          const outside = yield* Effect.fork(
            sql<{ count: number }>`SELECT count(*)::int AS count FROM isolation_sample`
          )
          yield* finish.open
          yield* Fiber.await(transaction)
          expect(yield* Fiber.join(outside)).toEqual([{ count: 0 }])
        }))

      it.effect("reports a bad statement as SqlError and stays usable", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient
          const error = yield* Effect.flip(sql`SELECT * FROM no_such_table`)
          expect(error._tag).toBe("SqlError")
          const failedInTransaction = yield* Effect.exit(sql.withTransaction(sql`SELECT 1/0`))
          expect(Exit.isFailure(failedInTransaction)).toBe(true)
          const rows = yield* sql<{ one: number }>`SELECT 1 AS one`
          expect(rows).toEqual([{ one: 1 }])
        }))

      it.effect("runs several statements in one unprepared script", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient
          yield* sql.unsafe("CREATE TABLE script_a (n int); CREATE TABLE script_b (n int)").unprepared
          const tables = yield* sql<{ tablename: string }>`
            SELECT tablename FROM pg_tables WHERE tablename IN ('script_a', 'script_b') ORDER BY tablename`
          expect(tables.map((table) => table.tablename)).toEqual(["script_a", "script_b"])
        }))
    })
  })
}

describe("embedded database directory", () => {
  it.effect("persists under its directory and refuses a second opener while open", () =>
    Effect.gen(function*() {
      const dataDir = join(mkdtempSync(join(tmpdir(), "ecds-pglite-")), "db")
      const template = pgliteTemplate()
      const open = Pglite.layer({ dataDir, ...(template === undefined ? {} : { template }) })
      yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(open)
        const sql = yield* Effect.provide(SqlClient, context)
        yield* sql`CREATE TABLE kept (n int)`
        yield* sql`INSERT INTO kept VALUES (7)`
        const second = yield* Effect.flip(Effect.scoped(Layer.build(open)))
        expect(second.message).toMatch(/is open in process \d+/)
      }))
      // closed: it opens again, with the data
      const rows = yield* Effect.scoped(
        Effect.flatMap(Layer.build(Pglite.layer({ dataDir })), (context) =>
          Effect.flatMap(Effect.provide(SqlClient, context), (sql) => sql<{ n: number }>`SELECT n FROM kept`))
      )
      expect(rows).toEqual([{ n: 7 }])
    }), 120_000)
})
