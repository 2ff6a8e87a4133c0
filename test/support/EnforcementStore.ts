import { Effect, Layer } from "effect"
import type { StoreLayer } from "../../src/layers/Store.ts"
import * as ArchiveRepo from "../../src/services/enforcement/ArchiveRepo.ts"
import { importDirectory } from "../../src/services/enforcement/Import.ts"
import { testStore } from "./TestStore.ts"

/** The test store with an operator import of `dir` (metadata.json and its PDFs) already in its archive. */
export const storeWithImport = (dir: string): StoreLayer =>
  Layer.effectDiscard(Effect.orDie(Effect.flatMap(ArchiveRepo.make, (repo) => importDirectory(repo, dir)))).pipe(
    Layer.provideMerge(testStore)
  )
