import type { SqlClient } from "@effect/sql/SqlClient"
import { type Context, Effect, Layer, Logger, LogLevel, Scope } from "effect"
import { embeddedDirectory, migrated, type StoreLayer } from "../../src/layers/Store.ts"
import * as AppConfig from "../../src/services/AppConfig.ts"
import type { PartFills } from "../../src/services/ecfr/PartFills.ts"
import * as KeysCommand from "../../src/services/KeysCommand.ts"
import * as Pglite from "../../src/services/store/Pglite.ts"
import type { StoreHealth } from "../../src/services/store/StoreHealth.ts"
import type { NoteTargets } from "../../src/services/workspace/NoteTargets.ts"
import { embeddedMigratedEngine } from "./SqlEngines.ts"

type Store = Context.Context<SqlClient | StoreHealth | NoteTargets | PartFills>

// stores live as long as the test file's worker: a server restarted on the same DATA_DIR finds its state
const kept = Effect.runSync(Scope.make())
const stores = new Map<string, Promise<Store>>()

/**
 * The store of a data directory: an embedded database in memory (started from the global setup's
 * template), migrated, built on first use and then shared by everything given that DATA_DIR — the
 * server under test, a restarted server, and the operator commands a test runs (as one folder was
 * shared before the SQL store).
 */
export const storeOf = (dataDir: string): Promise<Store> => {
  let store = stores.get(dataDir)
  if (store === undefined) {
    store = Effect.runPromise(
      Layer.buildWithScope(migrated(embeddedMigratedEngine, "embedded"), kept).pipe(
        Logger.withMinimumLogLevel(LogLevel.Warning)
      ) as Effect.Effect<Store, unknown>
    )
    stores.set(dataDir, store)
  }
  return store
}

/** A fresh migrated in-memory store of its own each time it is built (for tests outside an app). */
export const freshStore = migrated(embeddedMigratedEngine, "embedded")

/** The store test apps run on: the in-memory store of the configured DATA_DIR (fresh for a fresh directory). */
export const testStore: StoreLayer = Layer.unwrapEffect(
  Effect.flatMap(
    AppConfig.AppConfig,
    (config) => Effect.map(Effect.promise(() => storeOf(config.dataDir)), (store) => Layer.succeedContext(store))
  )
)

/** The operator's account stores (`ecds keys`) over the test store of `dataDir`. */
export const accountStores = (dataDir: string) =>
  KeysCommand.stores.pipe(Layer.provideMerge(testStore), Layer.provideMerge(AppConfig.layerWith({ dataDir })))

/** `ecds keys …` against the test store of `dataDir`; resolves to its output. */
export const keysCommand = (dataDir: string) => (...args: ReadonlyArray<string>): Promise<string> =>
  Effect.runPromise(KeysCommand.run(args).pipe(Effect.provide(accountStores(dataDir)), Effect.scoped))

/**
 * The store a child process started with `DATA_DIR=dataDir` opens: the embedded database in
 * `DATA_DIR/db`. Open it only while no such process runs (the database has one owner at a time).
 */
export const dataDirStore = (dataDir: string) =>
  migrated(Pglite.layer({ dataDir: embeddedDirectory(dataDir) }), "embedded")

/** `ecds keys …` against the embedded database of `dataDir`, closed again afterwards (for child processes). */
export const keysInDataDir = (dataDir: string) => (...args: ReadonlyArray<string>): Promise<string> =>
  Effect.runPromise(
    KeysCommand.run(args).pipe(
      Effect.provide(
        KeysCommand.stores.pipe(
          Layer.provideMerge(dataDirStore(dataDir)),
          Layer.provideMerge(AppConfig.layerWith({ dataDir }))
        )
      ),
      Effect.scoped,
      Logger.withMinimumLogLevel(LogLevel.Warning)
    )
  )
