import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import { PGlite, type Results, types } from "@electric-sql/pglite"
import { Effect, Layer, Scope, Stream } from "effect"
import { Buffer } from "node:buffer"
import { lockDirectory } from "./DirectoryLock.ts"
import { changesSchema, makePrepared } from "./PglitePrepared.ts"
import { makeTurns } from "./PgliteTurns.ts"
import { sqlNames } from "./SqlNames.ts"

export interface PgliteOptions {
  /** A directory the database persists in; absent → in memory (tests). */
  readonly dataDir?: string
  /** A new database starts as a copy of this dump (`dumpDataDir`) instead of running initdb (tests). */
  readonly template?: Blob
}

/**
 * `bytea` both ways through Buffer's native hex codec. PGlite's own converts byte by byte in
 * JavaScript: reading a 2 MB document back took about 175 ms of CPU, writing it about as long.
 */
const byteaCodecs = {
  parsers: { [types.BYTEA]: (hex: string) => Buffer.from(hex.slice(2), "hex") },
  serializers: {
    [types.BYTEA]: (value: unknown) =>
      value instanceof Uint8Array
        ? `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex")}`
        : String(value)
  }
}

const failure = (message: string) => (cause: unknown) => new SqlError({ cause, message })

/**
 * An Effect 3 `SqlClient` over PGlite: PostgreSQL compiled to WASM, in this process. Statements
 * compile with the PostgreSQL compiler of `@effect/sql-pg`, so the same queries run here and on a
 * PostgreSQL server. PGlite is one connection: every statement takes a turn on it (`PgliteTurns`)
 * for its duration, and a transaction holds one turn for its whole scope, so statements of other
 * fibers wait instead of landing inside someone else's transaction.
 */
export const make = (
  options: PgliteOptions
): Effect.Effect<SqlClient.SqlClient, SqlError, Reactivity.Reactivity | Scope.Scope> =>
  Effect.gen(function*() {
    if (options.dataDir !== undefined) yield* lockDirectory(options.dataDir)
    const db = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () =>
          PGlite.create({
            ...byteaCodecs,
            ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
            ...(options.template === undefined ? {} : { loadDataDir: options.template })
          }),
        catch: failure(
          `cannot open the embedded database${options.dataDir === undefined ? "" : ` in ${options.dataDir}`}`
        )
      }),
      (db) => Effect.promise(() => db.close())
    )
    const turns = makeTurns()
    const executeFailure = failure("Failed to execute statement")

    const rowsOf = (results: Results<unknown>) => results.rows as ReadonlyArray<any>
    // statements with parameters run prepared (see PglitePrepared); a script without runs as text
    const prepared = makePrepared(db)
    const query = (sql: string, params: ReadonlyArray<unknown>, rowMode?: "array") => {
      if (changesSchema(sql)) prepared.forget()
      return params.length === 0
        ? db.query(sql, [], rowMode === undefined ? undefined : { rowMode })
        : prepared.query(sql, params, rowMode)
    }
    const script = (sql: string) => {
      if (changesSchema(sql)) prepared.forget()
      return db.exec(sql)
    }
    /** A connection whose statements run through `run`: each in a turn of its own, or in a held one. */
    const connectionOf = (run: <A>(query: () => Promise<A>) => Effect.Effect<A, SqlError>): Connection => {
      const connection: Connection = {
        execute: (sql, params, transformRows) =>
          run(() => query(sql, params)).pipe(
            Effect.map((results) => transformRows ? transformRows(rowsOf(results)) : rowsOf(results))
          ),
        executeRaw: (sql, params) => run(() => query(sql, params)),
        executeValues: (sql, params) =>
          run(() => query(sql, params, "array")).pipe(
            Effect.map((results) => results.rows as ReadonlyArray<ReadonlyArray<unknown>>)
          ),
        // without parameters a script may hold several statements (migrations, BEGIN/COMMIT)
        executeUnprepared: (sql, params, transformRows) =>
          params.length > 0
            ? connection.execute(sql, params, transformRows)
            : run(() => script(sql)).pipe(Effect.map((all) => {
              const rows = all.length === 0 ? [] : rowsOf(all[all.length - 1]!)
              return transformRows ? transformRows(rows) : rows
            })),
        // PGlite answers a query whole; a stream is that answer in order
        executeStream: (sql, params, transformRows) =>
          Stream.fromIterableEffect(connection.execute(sql, params, transformRows))
      }
      return connection
    }
    // outside a transaction every statement takes its own turn, so the acquirer has nothing to do
    const shared = connectionOf((query) => turns.statement(query, executeFailure))
    // a transaction holds one turn for its whole scope; its statements run within it. The end of
    // the turn is a plain scope finalizer: `acquireRelease` would diff and patch the caller's
    // FiberRefs around it
    const exclusive = connectionOf((query) => Effect.tryPromise({ try: query, catch: executeFailure }))
    const transactionAcquirer = Effect.uninterruptibleMask((restore) =>
      Effect.flatMap(restore(turns.hold), (end) =>
        Effect.as(
          Effect.flatMap(Effect.scope, (scope) => Scope.addFinalizer(scope, Effect.sync(end))),
          exclusive
        ))
    )

    return yield* SqlClient.make({
      acquirer: Effect.succeed(shared),
      transactionAcquirer,
      compiler: sqlNames.compiler,
      transformRows: sqlNames.transformRows,
      spanAttributes: [["db.system.name", "postgresql"], ["db.namespace", "pglite"]]
    })
  })

export const layer = (options: PgliteOptions): Layer.Layer<SqlClient.SqlClient, SqlError> =>
  Layer.scoped(SqlClient.SqlClient, make(options)).pipe(Layer.provide(Reactivity.layer))
