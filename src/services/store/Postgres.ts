import * as PgClient from "@effect/sql-pg/PgClient"
import type * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import type { Layer } from "effect"
import { Effect, Option, Redacted } from "effect"
import { readFile } from "node:fs/promises"
import pg from "pg"
import type { DatabaseConfig } from "../AppConfig.ts"
import { PreparingClient } from "./PostgresPrepared.ts"
import { sqlNames } from "./SqlNames.ts"

const int8 = 20

/**
 * Both engines answer `bigint` columns as JavaScript numbers (PGlite does by default; `pg` would
 * give strings). Every bigint the store keeps (balances, byte sizes, epoch milliseconds) is far
 * below 2^53.
 */
const types: pg.CustomTypesConfig = {
  getTypeParser:
    ((oid: number, format?: "text" | "binary") =>
      oid === int8 ? Number : pg.types.getTypeParser(oid, format as "text")) as pg.CustomTypesConfig["getTypeParser"]
}

const tlsOptions = (config: DatabaseConfig) =>
  Effect.gen(function*() {
    if (Option.isNone(config.ssl)) return {}
    if (config.ssl.value === "disable") return { ssl: false }
    if (config.ssl.value === "require") return { ssl: { rejectUnauthorized: false } }
    const ca = yield* Option.match(config.sslCaFile, {
      onNone: () => Effect.succeed(undefined),
      onSome: (path) =>
        Effect.tryPromise({
          try: () => readFile(path, "utf8"),
          catch: (cause) => new SqlError({ cause, message: `cannot read DATABASE_SSL_CA_FILE ${path}` })
        })
    })
    return { ssl: { rejectUnauthorized: true, ...(ca === undefined ? {} : { ca }) } }
  })

/**
 * A PostgreSQL server through `@effect/sql-pg`: a pool of `DATABASE_POOL_SIZE` connections, each
 * statement cut off after `DATABASE_STATEMENT_TIMEOUT_MS`, TLS as `DATABASE_SSL` says, statements
 * with parameters prepared on each connection unless `DATABASE_PREPARED_STATEMENTS=off`. The server is
 * asked `SELECT 1` at start, so a wrong URL fails the start instead of the first request.
 */
export const layer = (
  url: Redacted.Redacted,
  config: DatabaseConfig,
  applicationName = "export-compliance-data-service"
): Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, SqlError> =>
  PgClient.layerFromPool({
    acquire: Effect.gen(function*() {
      const tls = yield* tlsOptions(config)
      const pool = yield* Effect.acquireRelease(
        Effect.sync(() =>
          new pg.Pool({
            connectionString: Redacted.value(url),
            max: config.poolSize,
            connectionTimeoutMillis: config.connectTimeoutMillis,
            idleTimeoutMillis: 30_000,
            statement_timeout: config.statementTimeoutMillis,
            application_name: applicationName,
            types,
            ...tls,
            // named prepared statements per connection (see PostgresPrepared) unless a pooler can't keep them
            ...(config.preparedStatements ? { Client: PreparingClient } : {})
          })
        ),
        (pool) => Effect.promise(() => pool.end()).pipe(Effect.timeoutOption("2 seconds"))
      )
      // an idle client losing its server is reported here; the next query gets a fresh connection
      pool.on("error", () => {})
      yield* Effect.tryPromise({
        try: () => pool.query("SELECT 1"),
        catch: (cause) => new SqlError({ cause, message: "cannot reach the PostgreSQL server at DATABASE_URL" })
      })
      return pool
    }),
    applicationName,
    transformQueryNames: sqlNames.transformQueryNames,
    transformResultNames: sqlNames.transformResultNames,
    transformJson: false,
    types
  })
