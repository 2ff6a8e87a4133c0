import { Effect } from "effect"
import { AppConfig } from "../AppConfig.ts"
import * as DataGeneration from "../DataGeneration.ts"
import { httpArchive } from "./Archive.ts"
import { directoryArchive } from "./DirectoryArchive.ts"
import { refreshAll, storeDirectory, upstreamClient } from "./Live.ts"
import * as Mirror from "./Mirror.ts"
import { fileStore } from "./SnapshotStore.ts"

export interface SyncOptions {
  /** A directory of saved eCFR API responses (see DirectoryArchive) instead of the live API. */
  readonly from?: string | undefined
  readonly parts: ReadonlyArray<number>
}

export interface SyncResult {
  readonly part: number
  readonly outcome: "updated" | "unchanged" | "failed"
  readonly detail: string
}

/**
 * Fills the snapshot store under DATA_DIR, part by part, downloading even parts whose issue date is
 * unchanged. A part only counts as synced once its snapshot is on disk.
 */
export const sync = (options: SyncOptions, onPart: (result: SyncResult) => void) =>
  Effect.scoped(Effect.gen(function*() {
    const config = yield* AppConfig
    const archive = options.from === undefined
      ? httpArchive(yield* upstreamClient(config))
      : directoryArchive(options.from)
    const store = fileStore(storeDirectory(config))
    const mirror = yield* Mirror.make({ archive, store, generation: DataGeneration.make() })
    const results: Array<SyncResult> = []
    yield* refreshAll(mirror, options.parts, (part, outcome) =>
      Effect.gen(function*() {
        const stored = (yield* store.index).get(part)
        const result: SyncResult = outcome._tag === "Left"
          ? { part, outcome: "failed", detail: outcome.left.detail }
          : stored === undefined
          ? { part, outcome: "failed", detail: `could not write to ${storeDirectory(config)}` }
          : { part, outcome: outcome.right, detail: `eCFR issue ${stored.issueDate}` }
        results.push(result)
        onPart(result)
      }))
    return results.sort((a, b) => a.part - b.part)
  }))
