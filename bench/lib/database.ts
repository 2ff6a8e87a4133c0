import { Option, Redacted } from "effect"
import pg from "pg"
import { migrated } from "../../src/layers/Store.ts"
import * as Postgres from "../../src/services/store/Postgres.ts"

/** The PostgreSQL server the benchmarks create their scratch databases on. */
export const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/test"

/** Runs `use` against a new database named after `prefix` and this process, dropped afterwards. */
export const withScratchDatabase = async <A>(prefix: string, use: (url: string) => Promise<A>): Promise<A> => {
  const name = `${prefix}_${process.pid}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${name}`)
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    return await use(url.href)
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.end()
  }
}

/** The migrated PostgreSQL store at `url`, configured as a deployment would be, with the pool the bench needs. */
export const postgresStore = (
  url: string,
  options: { readonly poolSize: number; readonly statementTimeoutMillis?: number }
) =>
  migrated(
    Postgres.layer(Redacted.make(url), {
      url: Option.some(Redacted.make(url)),
      poolSize: options.poolSize,
      statementTimeoutMillis: options.statementTimeoutMillis ?? 10_000,
      connectTimeoutMillis: 5_000,
      preparedStatements: true,
      ssl: Option.none(),
      sslCaFile: Option.none()
    }),
    "postgresql"
  )
