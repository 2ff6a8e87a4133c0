import { Effect, Either } from "effect"
import { supportedParts } from "../../domain/Service.ts"
import { AppConfig } from "../AppConfig.ts"
import * as DataGeneration from "../DataGeneration.ts"
import type { UpstreamError } from "../Upstream.ts"
import { httpArchive } from "./Archive.ts"
import { directoryArchive } from "./DirectoryArchive.ts"
import { refreshAll, storeDirectory, upstreamClient } from "./Live.ts"
import * as Mirror from "./Mirror.ts"
import { PartFills, type PublishOutcome } from "./PartFills.ts"
import { fileStore, type StoredMeta } from "./SnapshotStore.ts"

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

const published: Record<PublishOutcome, string> = {
  alone: "",
  published: "; shared with the instances on PostgreSQL",
  "newer kept": "; not shared: the instances on PostgreSQL hold a later download"
}

/**
 * Fills the snapshot store under DATA_DIR, part by part, downloading even parts whose issue date is
 * unchanged. A part only counts as synced once its snapshot is on disk and, on PostgreSQL, offered
 * to the other instances (`PartFills.publish`): an instance that cannot reach eCFR takes it from
 * there. This process downloads by itself, as asked, whoever else is downloading the part.
 */
export const sync = (options: SyncOptions, onPart: (result: SyncResult) => void) =>
  Effect.scoped(Effect.gen(function*() {
    const config = yield* AppConfig
    const fills = yield* PartFills
    const archive = options.from === undefined
      ? httpArchive(yield* upstreamClient(config))
      : directoryArchive(options.from)
    const store = fileStore(storeDirectory(config))
    const mirror = yield* Mirror.make({ archive, store, generation: DataGeneration.make() })
    // what is on disk is published as verified when its files say: at this sync, by a download or
    // by reading the saved responses
    const publish = (part: number, stored: StoredMeta) =>
      Effect.gen(function*() {
        const info = supportedParts.find((candidate) => candidate.part === part)
        const snapshot = info === undefined ? undefined : yield* store.load(info)
        if (snapshot === undefined) return yield* Effect.fail(new Error("its stored copy cannot be read back"))
        return yield* fills.publish(snapshot, Date.parse(stored.verifiedAt) || 0)
      }).pipe(Effect.either)
    const resultOf = (part: number, outcome: Either.Either<Mirror.RefreshOutcome, UpstreamError>) =>
      Effect.gen(function*() {
        if (Either.isLeft(outcome)) return { part, outcome: "failed", detail: outcome.left.detail } as const
        const stored = (yield* store.index).get(part)
        if (stored === undefined) {
          return { part, outcome: "failed", detail: `could not write to ${storeDirectory(config)}` } as const
        }
        const shared = yield* publish(part, stored)
        if (Either.isLeft(shared)) {
          return {
            part,
            outcome: "failed",
            detail: `stored in ${storeDirectory(config)} but not shared with the instances on PostgreSQL ` +
              `(${shared.left.message})`
          } as const
        }
        return { part, outcome: outcome.right, detail: `eCFR issue ${stored.issueDate}${published[shared.right]}` }
      })
    const results: Array<SyncResult> = []
    yield* refreshAll(mirror, options.parts, (part, outcome) =>
      Effect.map(resultOf(part, outcome), (result) => {
        results.push(result)
        onPart(result)
      }))
    return results.sort((a, b) => a.part - b.part)
  }))
