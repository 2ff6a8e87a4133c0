import { SqlClient } from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { layer as layerSuite, type Vitest } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import pg from "pg"
import { inject } from "vitest"
import { migrated } from "../../src/layers/Store.ts"
import type { DatabaseConfig } from "../../src/services/AppConfig.ts"
import * as Pglite from "../../src/services/store/Pglite.ts"
import * as Postgres from "../../src/services/store/Postgres.ts"
import type { StoreHealth } from "../../src/services/store/StoreHealth.ts"
import type { NoteTargets } from "../../src/services/workspace/NoteTargets.ts"

/** The PostgreSQL server tests create their databases on (trust auth on the development machines). */
export const adminUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"

export const databaseConfig = (url: string): DatabaseConfig => ({
  url: Option.some(Redacted.make(url)),
  poolSize: 5,
  preparedStatements: true,
  statementTimeoutMillis: 10_000,
  connectTimeoutMillis: 5_000,
  ssl: Option.none(),
  sslCaFile: Option.none()
})

const admin = async <A>(f: (client: pg.Client) => Promise<A>): Promise<A> => {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    return await f(client)
  } finally {
    await client.end()
  }
}

/**
 * A database of its own on the test server, dropped (with whatever connections are left) when
 * the scope closes. Yields its URL.
 */
export const scratchDatabase = Effect.acquireRelease(
  Effect.tryPromise({
    try: async () => {
      const name = `ecds_t_${randomBytes(6).toString("hex")}`
      await admin((client) => client.query(`CREATE DATABASE ${name}`))
      const url = new URL(adminUrl)
      url.pathname = `/${name}`
      return { name, url: url.href }
    },
    catch: (cause) => new SqlError({ cause, message: `cannot create a test database on ${adminUrl}` })
  }),
  ({ name }) => Effect.promise(() => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)))
)

/** PostgreSQL: a scratch database, dropped at the end. */
export const postgresEngine: Layer.Layer<SqlClient, SqlError> = Layer.unwrapScoped(
  Effect.map(scratchDatabase, ({ url }) => Postgres.layer(Redacted.make(url), databaseConfig(url)))
)

/**
 * A dump as a Blob whose `arrayBuffer()` copies the bytes in one go. PGlite reads `loadDataDir`
 * with `arrayBuffer()`, which Node 20's Blob assembles from 64 KiB chunks: for the 40 MB dump that
 * was 0.2 to 0.3 s of CPU and garbage on every new store.
 */
class DumpBlob extends Blob {
  readonly #bytes: Uint8Array<ArrayBuffer>
  constructor(bytes: Uint8Array<ArrayBuffer>) {
    super([bytes])
    this.#bytes = bytes
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes.slice().buffer)
  }
}

// read once per worker: a Blob is immutable and PGlite only reads it
const templates = new Map<string, Blob>()
const templateAt = (path: string | undefined): Blob | undefined => {
  if (path === undefined) return undefined
  let template = templates.get(path)
  if (template === undefined) {
    template = new DumpBlob(new Uint8Array(readFileSync(path)))
    templates.set(path, template)
  }
  return template
}

/** The dump the global setup made, so an embedded database starts without initdb. */
export const pgliteTemplate = (): Blob | undefined => templateAt(inject("pgliteTemplate"))

const pgliteFrom = (template: Blob | undefined) => Pglite.layer(template === undefined ? {} : { template })

/** PGlite in memory. */
export const embeddedEngine: Layer.Layer<SqlClient, SqlError> = Layer.suspend(() => pgliteFrom(pgliteTemplate()))

/**
 * PGlite in memory, started from the global setup's migrated dump: the migrator still runs on it
 * (see `migrated`) and finds nothing left to do, which saves each new store about 0.6 s of CPU.
 */
export const embeddedMigratedEngine: Layer.Layer<SqlClient, SqlError> = Layer.suspend(() =>
  pgliteFrom(templateAt(inject("pgliteMigratedTemplate") ?? inject("pgliteTemplate")))
)

export interface Engine {
  readonly name: "embedded" | "postgresql"
  /** A fresh, empty database on this engine. */
  readonly empty: Layer.Layer<SqlClient, SqlError>
  /** A fresh database with every migration applied, and its health probe. */
  readonly store: Layer.Layer<SqlClient | StoreHealth | NoteTargets, unknown>
}

export const engines: ReadonlyArray<Engine> = [
  { name: "embedded", empty: embeddedEngine, store: migrated(embeddedMigratedEngine, "embedded") },
  { name: "postgresql", empty: postgresEngine, store: migrated(postgresEngine, "postgresql") }
]

/**
 * The repository contract harness: runs the same suite once per engine, each on a migrated database
 * of its own shared by the suite's tests. `extra` adds the layers under test on top of the store.
 * Tests run on the live clock: services take their clock as an option where a test needs to move it.
 */
export const forEachEngine = <A>(
  title: string,
  suite: (it: Vitest.MethodsNonLive<A | SqlClient | StoreHealth | NoteTargets, true>, engine: Engine["name"]) => void,
  extra: Layer.Layer<A, unknown, SqlClient | NoteTargets> = Layer.empty as Layer.Layer<A>
): void => {
  for (const engine of engines) {
    layerSuite(extra.pipe(Layer.provideMerge(engine.store)), { timeout: 120_000, excludeTestServices: true })(
      `${title} (${engine.name})`,
      (it) => suite(it, engine.name)
    )
  }
}

/** Runs a statement on the test server outside any test layer (cleanup, inspection). */
export const onServer = <A>(f: (client: pg.Client) => Promise<A>) => Effect.promise(() => admin(f))

export { SqlClient }
