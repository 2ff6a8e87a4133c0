import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { MaxPrepared } from "../../src/services/store/PglitePrepared.ts"
import { engines } from "../support/SqlEngines.ts"

// Statements with parameters run as named prepared statements on the embedded engine (as the
// PostgreSQL driver runs them on a server): what a repeated, changed or failing statement returns
// must not differ between the engines.
for (const engine of engines) {
  describe(`prepared statements on ${engine.name}`, () => {
    it.layer(engine.empty, { timeout: 120_000 })((it) => {
      it.effect("binds each call's parameters, nulls included, and answers rows and values", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient
          yield* sql`CREATE TABLE prepared_rows (k text PRIMARY KEY, n integer, body jsonb)`
          for (const [k, n] of [["a", 1], ["b", null], ["c", 3]] as const) {
            yield* sql`INSERT INTO prepared_rows (k, n, body) VALUES (${k}, ${n}, ${JSON.stringify({ k })})`
          }
          const read = (k: string) =>
            sql<{ n: number | null; body: { k: string } }>`
            SELECT n, body FROM prepared_rows WHERE k = ${k}`
          expect(yield* read("a")).toEqual([{ n: 1, body: { k: "a" } }])
          expect(yield* read("b")).toEqual([{ n: null, body: { k: "b" } }])
          expect(yield* read("zz")).toEqual([])
          const values = yield* sql`SELECT k FROM prepared_rows WHERE n > ${0} ORDER BY k`.values
          expect(values).toEqual([["a"], ["c"]])
          const updated = yield* sql`UPDATE prepared_rows SET n = ${7} WHERE k = ${"b"} RETURNING k, n`
          expect(updated).toEqual([{ k: "b", n: 7 }])
        }))

      it.effect("fails a call with bad parameters as SqlError, then runs the same statement again", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient
          yield* sql`CREATE TABLE prepared_checked (n integer NOT NULL CHECK (n > 0))`
          const insert = (n: number) => sql`INSERT INTO prepared_checked (n) VALUES (${n})`
          yield* insert(1)
          const error = yield* Effect.flip(insert(-1))
          expect(error._tag).toBe("SqlError")
          yield* insert(2)
          const rows = yield* sql<{ n: number }>`SELECT n FROM prepared_checked WHERE n > ${0} ORDER BY n`
          expect(rows.map((row) => row.n)).toEqual([1, 2])
        }))

      it.effect("answers the new shape after the table under a statement changed", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient
          yield* sql`CREATE TABLE prepared_shape (k text, n integer)`
          yield* sql`INSERT INTO prepared_shape VALUES (${"a"}, ${1})`
          const read = sql`SELECT * FROM prepared_shape WHERE k = ${"a"}`
          expect(yield* read).toEqual([{ k: "a", n: 1 }])
          yield* sql`ALTER TABLE prepared_shape ADD COLUMN extra text DEFAULT 'x'`
          expect(yield* read).toEqual([{ k: "a", n: 1, extra: "x" }])
          yield* sql`DROP TABLE prepared_shape`
          yield* sql`CREATE TABLE prepared_shape (k text, label text)`
          yield* sql`INSERT INTO prepared_shape VALUES (${"a"}, ${"new"})`
          expect(yield* read).toEqual([{ k: "a", label: "new" }])
        }))

      it.effect("keeps answering past the number of statements kept prepared", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient
          const distinct = (i: number) => sql<{ v: number }>`SELECT ${i}::int + ${sql.literal(String(i))} AS v`
          for (let i = 0; i < MaxPrepared + 20; i++) {
            expect(yield* distinct(i)).toEqual([{ v: 2 * i }])
          }
          // the first ones were closed and prepare again
          expect(yield* distinct(0)).toEqual([{ v: 0 }])
          expect(yield* distinct(MaxPrepared + 19)).toEqual([{ v: 2 * (MaxPrepared + 19) }])
        }))
    })
  })
}
