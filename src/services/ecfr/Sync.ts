import { Effect } from "effect"
import { isSupportedPart, supportedPartNumbers } from "../../domain/Service.ts"
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

export const usage = "usage: npm run sync [-- --from <dir>] [-- --parts 740,774]\n" +
  "  Downloads the supported eCFR parts into DATA_DIR (default ./.data), or imports them from a\n" +
  "  directory of saved eCFR API responses (layout in docs/operations.md, \"Pre-filling the eCFR store\")."

/** Parses the command line of `npm run sync`; a string is an error message. */
export const parseArgs = (args: ReadonlyArray<string>): SyncOptions | string => {
  let from: string | undefined
  let parts: ReadonlyArray<number> = supportedPartNumbers
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    const value = args[i + 1]
    if (arg === "--from" && value !== undefined) {
      from = value
      i++
    } else if (arg === "--parts" && value !== undefined) {
      const list = value.split(",").map((p) => Number(p.trim()))
      const unsupported = list.filter((p) => !isSupportedPart(p))
      if (unsupported.length > 0) return `unsupported part(s): ${unsupported.join(", ")}\n${usage}`
      parts = list
      i++
    } else {
      return `unknown argument ${arg}\n${usage}`
    }
  }
  return { from, parts }
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
