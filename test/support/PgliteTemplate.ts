import { PGlite } from "@electric-sql/pglite"
import { mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { join } from "node:path"
import type { TestProject } from "vitest/node"

declare module "vitest" {
  export interface ProvidedContext {
    /** A freshly initialised PGlite data directory (a `dumpDataDir` tarball) for tests to start from. */
    readonly pgliteTemplate: string
  }
}

const pgliteVersion = async () =>
  (JSON.parse(await readFile(join("node_modules", "@electric-sql", "pglite", "package.json"), "utf8")) as {
    version: string
  }).version

/**
 * vitest global setup: initdb costs PGlite about 4 s of CPU, loading a dump about 0.5 s. The dump is
 * made once per PGlite version and kept in `node_modules/.cache`, so test files start their
 * embedded databases from it.
 */
export default async function setup(project: TestProject) {
  const directory = join("node_modules", ".cache", "ecds")
  const path = join(directory, `pglite-${await pgliteVersion()}-template.tar`)
  const exists = await readFile(path).then(() => true, () => false)
  if (!exists) {
    const db = await PGlite.create()
    const dump = await db.dumpDataDir("none")
    await db.close()
    await mkdir(directory, { recursive: true })
    const temporary = `${path}.${process.pid}.tmp`
    await writeFile(temporary, new Uint8Array(await dump.arrayBuffer()))
    await rename(temporary, path)
  }
  project.provide("pgliteTemplate", path)
}
