import type { HttpClient } from "@effect/platform"
import { Clock, Context, Duration, Effect, Either, Layer, Option, Ref } from "effect"
import { type InvalidRequest, UpstreamUnavailable } from "../domain/Problem.ts"
import type { ScreeningRequest, ScreeningResponse } from "../domain/Screening.ts"
import type { BatchOptions } from "../domain/ScreeningBatch.ts"
import { AppConfig } from "./AppConfig.ts"
import { runSliced } from "./Cooperative.ts"
import { DataGeneration } from "./DataGeneration.ts"
import { RegulatoryStatus } from "./RegulatoryStatus.ts"
import { type BatchLine, type ScreenedBatch, screenLines } from "./screening/Batch.ts"
import { snapshotSteps } from "./screening/ListSnapshot.ts"
import * as ListSource from "./screening/ListSource.ts"
import { type LoadedList, loadSteps } from "./screening/LoadedList.ts"
import { respond } from "./screening/Respond.ts"
import { affiliatesRule } from "./screening/Response.ts"
import { ScreeningChanges, type ScreeningChangesShape } from "./ScreeningChanges.ts"

/**
 * Denied-party screening over the Consolidated Screening List: one `search` that REST
 * (`GET /api/csl`) and MCP (`search_csl`) both call. The list is indexed in memory and refreshed
 * daily; a new index is built beside the old one and swapped in with a single reference update, so
 * a search never sees a half-built index, and a refresh that fails (upstream down, malformed file,
 * a list suddenly less than half its size) keeps the last good one, marked stale.
 */
export interface ScreeningStatus {
  readonly loaded: boolean
  readonly entries: number
  readonly loadedAt: string | null
  readonly publishedAt: string | null
  readonly stale: boolean
}

export type RefreshOutcome = "updated" | "unchanged" | "failed"

export interface ScreeningShape {
  readonly search: (
    request: ScreeningRequest
  ) => Effect.Effect<ScreeningResponse, InvalidRequest | UpstreamUnavailable>
  /**
   * Screens many parties against one list (the one in use when called), lazily and in order: the
   * code path of `POST /api/csl/batch` and of MCP `search_csl` with several names.
   */
  readonly batch: (
    lines: ReadonlyArray<BatchLine>,
    options: BatchOptions
  ) => Effect.Effect<ScreenedBatch, UpstreamUnavailable>
  /** Fetches the list from its source and swaps the index in when the new list is good. */
  readonly refresh: Effect.Effect<RefreshOutcome>
  readonly status: Effect.Effect<ScreeningStatus>
}

export class Screening extends Context.Tag("app/Screening")<Screening, ScreeningShape>() {}

interface State {
  readonly list: LoadedList | undefined
  readonly etag: string | undefined
  readonly stale: boolean
}

/** A new list smaller than this share of the current one is taken for a truncated download. */
const minShareOfCurrent = 0.5

const notLoaded = new UpstreamUnavailable({
  detail: "The screening list has not been loaded yet (the list source is unreachable); retry later.",
  upstream: "csl"
})

export interface MakeOptions {
  readonly source: ListSource.ListSource
  readonly store?: ReturnType<typeof ListSource.makeStore> | undefined
  /** Where each installed list's changes against the previous one are recorded (the shared history). */
  readonly changes?: ScreeningChangesShape | undefined
}

export const make = (options: MakeOptions) =>
  Effect.gen(function*() {
    const generation = yield* DataGeneration
    const regulatory = yield* RegulatoryStatus
    const state = yield* Ref.make<State>({ list: undefined, etag: undefined, stale: false })
    const refreshing = yield* Effect.makeSemaphore(1)
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis).toISOString())

    const install = (list: LoadedList, etag: string | undefined, stale: boolean, from: string) =>
      Effect.gen(function*() {
        yield* Ref.set(state, { list, etag, stale })
        yield* generation.bump
        yield* Effect.logInfo("screening list loaded", {
          from,
          entries: list.entries.length,
          names: list.matcher.index.nameCount,
          rejectedRecords: list.rejected,
          buildMillis: list.buildMillis
        })
        if (options.changes) yield* recordChanges(options.changes, list)
      })

    // the history is kept beside the list, never in its way: a store outage leaves it unrecorded
    const recordChanges = (changes: ScreeningChangesShape, list: LoadedList) =>
      Effect.gen(function*() {
        const snapshot = yield* runSliced(snapshotSteps(list.entries, list.publishedAt, yield* now))
        const outcome = yield* changes.record(snapshot)
        // answers of GET /api/csl/changes cached before the history was written are dropped
        if (outcome === "recorded" || outcome === "baseline") yield* generation.bump
        yield* Effect.logInfo("screening list changes", { outcome })
      }).pipe(
        Effect.catchAll((error) => Effect.logWarning("screening list changes not recorded", { error: error.message }))
      )

    // the warning says what answers now: the last good list, or nothing (503) before any was loaded
    const failed = (reason: string) =>
      Ref.modify(state, (current) => [current.list !== undefined, { ...current, stale: current.list !== undefined }])
        .pipe(
          Effect.flatMap((kept) =>
            Effect.logWarning(
              kept
                ? "screening list refresh failed; keeping the last good list"
                : "screening list refresh failed; no list is loaded yet, so screening answers 503",
              { reason }
            )
          ),
          Effect.as("failed" as const)
        )

    const refresh: Effect.Effect<RefreshOutcome> = refreshing.withPermits(1)(Effect.gen(function*() {
      const current = yield* Ref.get(state)
      const fetched = yield* Effect.either(options.source.fetch(current.list ? current.etag : undefined))
      if (Either.isLeft(fetched)) return yield* failed(fetched.left.reason)
      if (fetched.right._tag === "Unchanged") {
        yield* Ref.update(state, (s) => ({ ...s, stale: false }))
        return "unchanged" as const
      }
      const { etag, text } = fetched.right
      const loaded = yield* runSliced(loadSteps(text, yield* now))
      if (Either.isLeft(loaded)) return yield* failed(loaded.left.message)
      const list = loaded.right
      if (current.list && list.entries.length < minShareOfCurrent * current.list.entries.length) {
        return yield* failed(
          `the new list has ${list.entries.length} entries, less than half of the ${current.list.entries.length} in use`
        )
      }
      if (options.store) {
        yield* options.store.write({ text, etag, origin: options.source.origin }).pipe(
          Effect.catchAll((error) => Effect.logWarning("screening list copy not kept", { reason: error.reason }))
        )
      }
      yield* install(list, etag, false, options.source.kind)
      return "updated" as const
    }))

    /** Loads the copy kept on disk, so that screening works before (or without) the upstream. */
    const restore = Effect.gen(function*() {
      if (!options.store) return
      const found = yield* options.store.read(options.source.origin)
      if (Option.isNone(found)) return
      if (found.value._tag === "OtherSource") {
        return yield* Effect.logWarning(
          "the stored screening list came from another source and is not used; the configured source will replace it",
          { stored: found.value.stored ?? "unknown", configured: options.source.kind }
        )
      }
      const copy = found.value.copy
      const loaded = yield* runSliced(loadSteps(copy.text, yield* now))
      if (Either.isRight(loaded)) yield* install(loaded.right, copy.etag, true, "stored copy")
    })

    const snapshot = Effect.gen(function*() {
      const { list, stale } = yield* Ref.get(state)
      if (list === undefined) return yield* notLoaded
      return { list, stale, affiliatesRule: affiliatesRule(yield* regulatory.affiliatesRule) }
    })

    const search = (request: ScreeningRequest) => Effect.flatMap(snapshot, (taken) => respond(taken, request))

    const batch = (lines: ReadonlyArray<BatchLine>, options: BatchOptions) =>
      Effect.map(snapshot, (taken) => screenLines(taken, lines, options))

    const status = Effect.map(Ref.get(state), ({ list, stale }): ScreeningStatus => ({
      loaded: list !== undefined,
      entries: list?.entries.length ?? 0,
      loadedAt: list?.loadedAt ?? null,
      publishedAt: list?.publishedAt ?? null,
      stale
    }))

    return { service: { search, batch, refresh, status } satisfies ScreeningShape, restore }
  })

/** Milliseconds until the next daily refresh at 00:30 UTC. */
const untilDailyRefresh = (now: number) => {
  const day = new Date(now)
  const today = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 0, 30)
  return (today > now ? today : today + 86_400_000) - now
}

/** After the first load, refresh daily; after a failure retry in 5 minutes, backing off to hourly. */
const keepFresh = (first: Effect.Effect<RefreshOutcome>, refresh: Effect.Effect<RefreshOutcome>) =>
  Effect.gen(function*() {
    let retry = Duration.minutes(5)
    for (let attempt = first;; attempt = refresh) {
      if ((yield* attempt) === "failed") {
        yield* Effect.sleep(retry)
        retry = Duration.min(Duration.times(retry, 2), Duration.hours(1))
      } else {
        retry = Duration.minutes(5)
        yield* Effect.sleep(untilDailyRefresh(yield* Clock.currentTimeMillis))
      }
    }
  })

/**
 * The live service: the list from `CSL_FILE` or `CSL_BULK_URL`, the last good copy under
 * `DATA_DIR/csl/`. Start-up does not wait for the list: searches before any list is loaded answer
 * 503. A download may be slow, so the stored copy answers first and the download follows; a local
 * file is read first and the stored copy is the fallback when it cannot be used.
 */
export const layer: Layer.Layer<
  Screening,
  never,
  AppConfig | HttpClient.HttpClient | DataGeneration | RegulatoryStatus | ScreeningChanges
> = Layer.scoped(
  Screening,
  Effect.gen(function*() {
    const config = yield* AppConfig
    const source = yield* ListSource.make(config)
    const { restore, service } = yield* make({
      source,
      store: ListSource.makeStore(config.dataDir),
      changes: yield* ScreeningChanges
    })
    const first = source.kind === "file"
      ? Effect.tap(service.refresh, (outcome) => (outcome === "failed" ? restore : Effect.void))
      : Effect.zipRight(restore, service.refresh)
    yield* Effect.forkScoped(keepFresh(first, service.refresh))
    return service
  })
)

/** A fixed list (bulk-file JSON text), loaded before the layer is ready: for tests and small deployments. */
export const layerFromText = (
  text: string
): Layer.Layer<Screening, never, DataGeneration | RegulatoryStatus> =>
  Layer.effect(
    Screening,
    Effect.gen(function*() {
      const { service } = yield* make({
        source: {
          kind: "file",
          origin: "text:fixed",
          fetch: () => Effect.succeed({ _tag: "Fetched", text, etag: undefined })
        }
      })
      yield* service.refresh
      return service
    })
  )
