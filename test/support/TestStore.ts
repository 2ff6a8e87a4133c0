import { migrated } from "../../src/layers/Store.ts"
import { embeddedEngine } from "./SqlEngines.ts"

/**
 * The store test apps run on: an embedded database in memory, started from the global setup's
 * template and migrated, fresh for every app built.
 */
export const testStore = migrated(embeddedEngine, "embedded")
