import type * as Migrator from "@effect/sql/Migrator"
import type { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Layer, Option } from "effect"
import { join } from "node:path"
import { AppConfig, type AppConfigShape } from "../services/AppConfig.ts"
import * as PartFills from "../services/ecfr/PartFills.ts"
import * as SharedFills from "../services/ecfr/SharedFills.ts"
import * as Migrations from "../services/store/Migrations.ts"
import * as Pglite from "../services/store/Pglite.ts"
import * as PgliteMaintenance from "../services/store/PgliteMaintenance.ts"
import * as Postgres from "../services/store/Postgres.ts"
import * as StoreHealth from "../services/store/StoreHealth.ts"
import * as NoteTargets from "../services/workspace/NoteTargets.ts"

/** A migrated SQL store with its health probe, as the app is given it. */
export type StoreLayer = Layer.Layer<
  SqlClient | StoreHealth.StoreHealth | NoteTargets.NoteTargets | PartFills.PartFills,
  SqlError | Migrator.MigrationError,
  AppConfig
>

/** Where the embedded database lives: `DATA_DIR/db`. */
export const embeddedDirectory = (dataDir: string): string => join(dataDir, "db")

/**
 * What only this process writes can be summarised beside it: the embedded database (in memory, or
 * in a directory it locks) keeps an index of its note targets; PostgreSQL is shared by instances.
 */
const noteTargets = {
  embedded: NoteTargets.layerExclusive,
  postgresql: NoteTargets.layerShared
} satisfies Record<StoreHealth.StoreHealthReport["engine"], Layer.Layer<NoteTargets.NoteTargets, never, SqlClient>>

/**
 * Who downloads an eCFR part: the embedded engine serves one process, which downloads alone; the
 * instances on one PostgreSQL share the snapshots and take turns downloading (`SharedFills`).
 */
const partFills = {
  embedded: PartFills.layerAlone,
  postgresql: SharedFills.layer
} satisfies Record<StoreHealth.StoreHealthReport["engine"], Layer.Layer<PartFills.PartFills, never, SqlClient>>

/** An engine with its health probe, migrated before anything else can use it. */
export const migrated = <E, R>(
  engine: Layer.Layer<SqlClient, E, R>,
  name: StoreHealth.StoreHealthReport["engine"]
) =>
  Layer.merge(noteTargets[name], partFills[name]).pipe(
    Layer.provideMerge(Layer.mergeAll(Migrations.layer, StoreHealth.layer(name)).pipe(Layer.provideMerge(engine)))
  )

/**
 * The SQL engine the configuration names, the only place the engines are told apart: PostgreSQL at
 * `DATABASE_URL` (several instances share it), else the embedded database in `DATA_DIR/db`, with
 * the vacuum and analyze the server's autovacuum does (`PgliteMaintenance`).
 */
export const engine = (config: AppConfigShape) =>
  Option.match(config.database.url, {
    onNone: () => ({
      name: "embedded" as const,
      layer: Layer.provideMerge(PgliteMaintenance.layer, Pglite.layer({ dataDir: embeddedDirectory(config.dataDir) }))
    }),
    onSome: (url) => ({ name: "postgresql" as const, layer: Postgres.layer(url, config.database) })
  })

/**
 * Who else takes the eCFR parts `ecds sync` stores: on PostgreSQL the migrated store's shared
 * mirror; on the embedded engine nobody, and `DATA_DIR/db` (which a running service holds) is
 * not opened.
 */
export const partFillsFromConfig: Layer.Layer<
  PartFills.PartFills,
  SqlError | Migrator.MigrationError,
  AppConfig
> = Layer.unwrapEffect(Effect.map(AppConfig, (config) => {
  const { layer, name } = engine(config)
  return name === "embedded" ? PartFills.layerAlone : migrated(layer, name)
}))

/** The deployment's SQL store: the configured engine, migrated at start. */
export const fromConfig: StoreLayer = Layer.unwrapEffect(Effect.map(AppConfig, (config) => {
  const { layer, name } = engine(config)
  return migrated(layer, name)
}))
