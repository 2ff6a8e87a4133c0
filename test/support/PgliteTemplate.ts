import { PGlite } from "@electric-sql/pglite"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { createHash } from "node:crypto"
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TestProject } from "vitest/node"
import { migrated } from "../../src/layers/Store.ts"
import * as Pglite from "../../src/services/store/Pglite.ts"
import { installSeparateRuntimes } from "./Runtimes.ts"

declare module "vitest" {
  export interface ProvidedContext {
    /** A freshly initialised PGlite data directory (a `dumpDataDir` tarball) for tests to start from. */
    readonly pgliteTemplate: string
    /** The same with every migration of `src/services/store/migrations` applied. */
    readonly pgliteMigratedTemplate: string
  }
}

const directory = join("node_modules", ".cache", "ecds")
const migrationSources = join("src", "services", "store", "migrations")

const pgliteVersion = async () =>
  (JSON.parse(await readFile(join("node_modules", "@electric-sql", "pglite", "package.json"), "utf8")) as {
    version: string
  }).version

const exists = (path: string) => readFile(path).then(() => true, () => false)

/** Writes through a temporary name, so a parallel run never reads half a file. */
const writeAtomically = async (path: string, bytes: Uint8Array) => {
  const temporary = `${path}.${process.pid}.tmp`
  await writeFile(temporary, bytes)
  await rename(temporary, path)
}

/** A digest of the migration sources: a changed or added migration makes a new migrated template. */
const migrationsDigest = async () => {
  const hash = createHash("sha256")
  for (const name of (await readdir(migrationSources)).sort()) {
    hash.update(name).update(await readFile(join(migrationSources, name)))
  }
  return hash.digest("hex").slice(0, 16)
}

const dumpOf = async (db: PGlite) => new Uint8Array(await (await db.dumpDataDir("none")).arrayBuffer())

/**
 * The migrated template: the bare one, migrated by the app's own migrator in a scratch directory
 * (the migrator runs again on every store built from it and finds nothing to do).
 */
const makeMigrated = async (bare: string, path: string) => {
  const scratch = await mkdtemp(join(tmpdir(), "ecds-template-"))
  try {
    const dataDir = join(scratch, "db")
    const seeded = await PGlite.create({ dataDir, loadDataDir: new Blob([await readFile(bare)]) })
    await seeded.close()
    await Effect.runPromise(
      Effect.scoped(Layer.build(migrated(Pglite.layer({ dataDir }), "embedded"))).pipe(
        Logger.withMinimumLogLevel(LogLevel.Warning)
      )
    )
    const db = await PGlite.create({ dataDir })
    const dump = await dumpOf(db)
    await db.close()
    await writeAtomically(path, dump)
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

/**
 * vitest global setup: initdb costs PGlite about 4 s of CPU, loading a dump about 0.5 s, and the
 * migrations about 0.6 s more on each new store. The bare dump is made once per PGlite version, the
 * migrated one once per version and set of migrations; both are kept in `node_modules/.cache`, so
 * test files start their embedded databases from them. The separately installed runtimes (MCP
 * conformance suite, Deno) are installed here when a run requires them, before any worker starts.
 */
export default async function setup(project: TestProject) {
  installSeparateRuntimes()
  const version = await pgliteVersion()
  const bare = join(directory, `pglite-${version}-template.tar`)
  if (!(await exists(bare))) {
    const db = await PGlite.create()
    const dump = await dumpOf(db)
    await db.close()
    await mkdir(directory, { recursive: true })
    await writeAtomically(bare, dump)
  }
  const migratedPath = join(directory, `pglite-${version}-migrated-${await migrationsDigest()}.tar`)
  if (!(await exists(migratedPath))) await makeMigrated(bare, migratedPath)
  project.provide("pgliteTemplate", bare)
  project.provide("pgliteMigratedTemplate", migratedPath)
}
