import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Either, Layer, Option, Redacted } from "effect"
import * as AppConfig from "../../src/services/AppConfig.ts"
import * as Postgres from "../../src/services/store/Postgres.ts"
import { MaxPrepared } from "../../src/services/store/PostgresPrepared.ts"
import { databaseConfig, scratchDatabase } from "../support/SqlEngines.ts"

/** One connection, so the statements a test runs and `pg_prepared_statements` share a session. */
const oneConnection = (preparedStatements: boolean) =>
  Effect.gen(function*() {
    const { url } = yield* scratchDatabase
    const context = yield* Layer.build(
      Postgres.layer(Redacted.make(url), { ...databaseConfig(url), poolSize: 1, preparedStatements })
    )
    return Context.get(context, SqlClient)
  })

const preparedTexts = (sql: SqlClient) =>
  Effect.map(
    sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements ORDER BY prepare_time`,
    (rows) => rows.map((row) => row.statement)
  )

const plusOne = (sql: SqlClient, n: number) =>
  Effect.map(sql<{ n: number }>`SELECT ${n}::int + 1 AS n`, (rows) => rows[0]?.n)

describe("PostgreSQL statements prepared per connection", () => {
  it.scopedLive("a statement with parameters is prepared at its second use and answers as before", () =>
    Effect.gen(function*() {
      const sql = yield* oneConnection(true)
      expect(yield* plusOne(sql, 1)).toBe(2)
      // once: run unnamed (a text built for one call is never kept)
      expect((yield* preparedTexts(sql)).filter((text) => text.includes("::int + 1"))).toEqual([])
      expect(yield* plusOne(sql, 2)).toBe(3)
      expect(yield* plusOne(sql, 41)).toBe(42)
      expect((yield* preparedTexts(sql)).filter((text) => text.includes("::int + 1"))).toEqual([
        "SELECT $1::int + 1 AS n"
      ])
      // no parameters: a simple query, as before (scripts of several statements must stay possible)
      yield* sql`SELECT 1`
      yield* sql`SELECT 1`
      expect((yield* preparedTexts(sql)).some((text) => text === "SELECT 1")).toBe(false)
    }))

  it.scopedLive("DATABASE_PREPARED_STATEMENTS=off runs every statement unnamed", () =>
    Effect.gen(function*() {
      const sql = yield* oneConnection(false)
      for (let n = 0; n < 3; n++) expect(yield* plusOne(sql, n)).toBe(n + 1)
      expect(yield* preparedTexts(sql)).toEqual([])
    }))

  it.scopedLive("a statement prepared in a transaction rolled back stays usable", () =>
    Effect.gen(function*() {
      const sql = yield* oneConnection(true)
      yield* sql`CREATE TABLE t (id int PRIMARY KEY, v text)`
      const failed = yield* Effect.either(sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO t (id, v) VALUES (${1}, ${"a"})`
        yield* sql`INSERT INTO t (id, v) VALUES (${2}, ${"b"})`
        return yield* Effect.fail("roll back")
      })))
      expect(failed).toEqual(Either.left("roll back"))
      expect(yield* sql`SELECT id FROM t`).toEqual([])
      yield* sql`INSERT INTO t (id, v) VALUES (${3}, ${"c"})`
      expect(yield* sql`SELECT id, v FROM t`).toEqual([{ id: 3, v: "c" }])
    }))

  it.scopedLive("a statement a migration made stale is prepared afresh and answers the new shape", () =>
    Effect.gen(function*() {
      const sql = yield* oneConnection(true)
      yield* sql`CREATE TABLE t (id int PRIMARY KEY, v text)`
      yield* sql`INSERT INTO t (id, v) VALUES (1, 'a')`
      const row = (id: number) => sql`SELECT * FROM t WHERE id = ${id}`
      yield* row(1)
      expect(yield* row(1)).toEqual([{ id: 1, v: "a" }])
      // what another instance's migration does while this one keeps its connections
      yield* sql`ALTER TABLE t ADD COLUMN w int NOT NULL DEFAULT 7`
      expect(yield* row(1)).toEqual([{ id: 1, v: "a", w: 7 }])
      expect(yield* row(1)).toEqual([{ id: 1, v: "a", w: 7 }])
      // the stale one stays until the connection closes; the fresh one answers from now on
      expect((yield* preparedTexts(sql)).filter((text) => text.startsWith("SELECT * FROM t"))).toHaveLength(2)
      yield* sql`DROP TABLE t`
      yield* sql`CREATE TABLE t (id int PRIMARY KEY, label text)`
      yield* sql`INSERT INTO t (id, label) VALUES (1, 'new')`
      expect(yield* row(1)).toEqual([{ id: 1, label: "new" }])
    }))

  it.scopedLive(`a connection keeps at most ${MaxPrepared} statements; past that texts run unnamed`, () =>
    Effect.gen(function*() {
      const sql = yield* oneConnection(true)
      const distinct = (i: number) => sql.unsafe<{ n: number }>(`SELECT $1::int + ${i} AS n`, [i])
      for (let i = 0; i < MaxPrepared + 20; i++) {
        yield* distinct(i)
        expect(yield* distinct(i)).toEqual([{ n: 2 * i }])
      }
      const kept = (yield* preparedTexts(sql)).filter((text) => text.startsWith("SELECT $1::int + "))
      expect(kept).toHaveLength(MaxPrepared)
    }))
})

describe("DATABASE_PREPARED_STATEMENTS", () => {
  const read = (env: Record<string, string>) =>
    Effect.runSync(Effect.either(Effect.map(
      AppConfig.read.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))),
      (config) => config.database.preparedStatements
    ))).pipe(Either.mapLeft((error) => AppConfig.describeError(error, env)))

  it("is on unless set off", () => {
    expect(read({})).toEqual(Either.right(true))
    expect(read({ DATABASE_PREPARED_STATEMENTS: "on" })).toEqual(Either.right(true))
    expect(read({ DATABASE_PREPARED_STATEMENTS: " OFF " })).toEqual(Either.right(false))
  })

  it("refuses anything else at start", () => {
    expect(read({ DATABASE_PREPARED_STATEMENTS: "false" })).toEqual(Either.left([
      `DATABASE_PREPARED_STATEMENTS="false": must be one of on, off (unset: on)`
    ]))
  })
})

describe("DATABASE_SSL_CA_FILE", () => {
  const read = (env: Record<string, string>) =>
    Effect.runSync(Effect.either(Effect.map(
      AppConfig.read.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))),
      (config) => Option.getOrNull(config.database.sslCaFile)
    ))).pipe(Either.mapLeft((error) => AppConfig.describeError(error, env)))

  it("is taken with DATABASE_SSL=verify-full", () => {
    expect(read({ DATABASE_SSL: "verify-full", DATABASE_SSL_CA_FILE: "/etc/ca.pem" })).toEqual(
      Either.right("/etc/ca.pem")
    )
  })

  it("stops the start when nothing would read it, instead of being silently unused", () => {
    for (const ssl of [{}, { DATABASE_SSL: "require" }, { DATABASE_SSL: "disable" }]) {
      const refused = read({ ...ssl, DATABASE_SSL_CA_FILE: "/etc/ca.pem" })
      expect(Either.isLeft(refused)).toBe(true)
      expect(Either.getLeft(refused).pipe(Option.getOrThrow).join("\n")).toMatch(
        /DATABASE_SSL_CA_FILE.*is used only with DATABASE_SSL=verify-full/
      )
    }
  })
})

describe("DATABASE_SSL beside TLS parameters in DATABASE_URL", () => {
  const read = (env: Record<string, string>) =>
    Effect.runSync(Effect.either(Effect.map(
      AppConfig.read.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))),
      (config) => Option.getOrNull(config.database.ssl)
    ))).pipe(Either.mapLeft((error) => AppConfig.describeError(error, env)))
  const url = "postgres://ecds:secret@db.example:5432/ecds"

  it("stops the start, since pg would let the URL's parameters override DATABASE_SSL", () => {
    for (const query of ["?sslmode=no-verify", "?sslmode=disable", "?ssl=true", "?sslrootcert=/etc/ca.pem"]) {
      const refused = read({ DATABASE_URL: `${url}${query}`, DATABASE_SSL: "verify-full" })
      expect(Either.isLeft(refused)).toBe(true)
      const lines = Either.getLeft(refused).pipe(Option.getOrThrow).join("\n")
      expect(lines).toMatch(/DATABASE_SSL="verify-full": is set, and DATABASE_URL sets TLS too \(ssl/)
      expect(lines).not.toContain("secret")
    }
  })

  it("takes either one alone", () => {
    expect(read({ DATABASE_URL: url, DATABASE_SSL: "require" })).toEqual(Either.right("require"))
    expect(read({ DATABASE_URL: `${url}?sslmode=verify-full&application_name=x` })).toEqual(Either.right(null))
    expect(read({ DATABASE_URL: `${url}?application_name=x`, DATABASE_SSL: "disable" })).toEqual(
      Either.right("disable")
    )
  })
})
