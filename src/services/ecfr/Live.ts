import type { HttpClient } from "@effect/platform"
import type { Either } from "effect"
import { Clock, Cron, Effect, Layer, Schedule } from "effect"
import { randomBytes } from "node:crypto"
import { join } from "node:path"
import { supportedPartNumbers } from "../../domain/Service.ts"
import { AppConfig, type AppConfigShape } from "../AppConfig.ts"
import { DataGeneration } from "../DataGeneration.ts"
import { EcfrSource, type EcfrSourceShape } from "../EcfrSource.ts"
import * as Upstream from "../Upstream.ts"
import { type EcfrArchive, httpArchive } from "./Archive.ts"
import { makeCodec } from "./Cursor.ts"
import { directoryArchive } from "./DirectoryArchive.ts"
import * as Mirror from "./Mirror.ts"
import { alone, PartFills, type PartFillsShape } from "./PartFills.ts"
import { fileStore, memoryStore, type SnapshotStore } from "./SnapshotStore.ts"
import * as Source from "./Source.ts"

/** The daily full refresh of every part, in UTC. */
export const refreshCron = Cron.unsafeParse("0 0 * * *", "UTC")
export const refreshSchedule = "daily at 00:00 UTC (cron \"0 0 * * *\"): every part is downloaded again; " +
  "between runs a part is re-checked against the eCFR issue date on first use after 1 hour"

export const storeDirectory = (config: AppConfigShape) => join(config.dataDir, "ecfr")

export const upstreamClient = (config: AppConfigShape) =>
  Upstream.make({ name: "ecfr", baseUrl: config.ecfrBaseUrl, timeout: "20 seconds" })

/** Search has its own circuit breaker: its outages must not stop snapshot refreshes, nor the reverse. */
const searchClient = (config: AppConfigShape) =>
  Upstream.make({ name: "ecfr-search", baseUrl: config.ecfrBaseUrl, timeout: "15 seconds", retries: 1 })

/** Downloads the given parts again, two at a time, reporting each outcome. */
export const refreshAll = (
  mirror: Mirror.Mirror,
  parts: ReadonlyArray<number>,
  onPart: (part: number, outcome: Either.Either<Mirror.RefreshOutcome, Upstream.UpstreamError>) => Effect.Effect<void>
) =>
  Effect.forEach(
    parts,
    (part) => mirror.refresh(part, { force: true }).pipe(Effect.either, Effect.tap((outcome) => onPart(part, outcome))),
    { concurrency: 2, discard: true }
  )

/** Pagination cursors stay valid across restarts when the store can keep a key. */
const cursorSecret = (store: SnapshotStore) =>
  store.secret.pipe(
    Effect.catchAll((error) =>
      Effect.as(
        Effect.logWarning("no persistent cursor key; search cursors will not survive a restart", {
          error: error.message
        }),
        new Uint8Array(randomBytes(32))
      )
    )
  )

const build = (
  archive: EcfrArchive,
  store: SnapshotStore,
  search: Upstream.UpstreamClient,
  given?: Partial<Mirror.MirrorOptions>,
  fills: PartFillsShape = alone
) =>
  Effect.gen(function*() {
    const generation = yield* DataGeneration
    const config = yield* AppConfig
    const options: Mirror.MirrorOptions = {
      ...Mirror.defaultOptions,
      requestDeadlineMillis: config.upstreamDeadlineSeconds * 1000,
      ...given
    }
    const mirror = yield* Mirror.make({ archive, store, generation, options, fills })
    const codec = makeCodec(yield* cursorSecret(store))
    const daily = refreshAll(mirror, supportedPartNumbers, (part, outcome) =>
      outcome._tag === "Left"
        ? Effect.logWarning("daily eCFR refresh failed for a part", { part, reason: outcome.left.reason })
        : Effect.void)
    yield* Effect.forkScoped(Effect.schedule(daily, Schedule.cron(refreshCron)))
    const freshFor = options.freshForMillis
    const cacheReport = Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      return {
        freshForSeconds: Math.round(freshFor / 1000),
        nextDailyRefresh: Cron.next(refreshCron, new Date(now)).toISOString(),
        parts: yield* mirror.report
      }
    })
    const deadlineMillis = options.requestDeadlineMillis
    return { ...Source.make({ mirror, search, codec, deadlineMillis }), cacheReport } satisfies EcfrSourceShape
  })

/**
 * The live mirror: the eCFR API at `ECFR_BASE_URL`, this instance's snapshots under `DATA_DIR/ecfr`,
 * downloaded as the store's `PartFills` says (shared by the instances on one PostgreSQL).
 */
export const layer: Layer.Layer<
  EcfrSource,
  never,
  AppConfig | HttpClient.HttpClient | DataGeneration | PartFills
> = Layer.scoped(
  EcfrSource,
  Effect.gen(function*() {
    const config = yield* AppConfig
    const archive = httpArchive(yield* upstreamClient(config))
    const store = fileStore(storeDirectory(config))
    return yield* build(archive, store, yield* searchClient(config), undefined, yield* PartFills)
  })
)

/**
 * A mirror of saved eCFR API responses (the `npm run sync -- --from` layout) held in memory:
 * fixtures and offline demos. Search still asks `ECFR_BASE_URL` first and falls back to the
 * local index.
 */
export const layerFromDirectory = (
  directory: string,
  options?: Partial<Mirror.MirrorOptions>
): Layer.Layer<EcfrSource, never, AppConfig | HttpClient.HttpClient | DataGeneration> =>
  Layer.scoped(
    EcfrSource,
    Effect.gen(function*() {
      const search = yield* searchClient(yield* AppConfig)
      return yield* build(directoryArchive(directory), memoryStore(), search, options)
    })
  )
