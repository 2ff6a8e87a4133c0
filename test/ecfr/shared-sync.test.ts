import { FetchHttpClient } from "@effect/platform"
import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { BundleFormat, type BundleManifest } from "../../src/domain/Bundle.ts"
import { ServiceVersion } from "../../src/domain/Service.ts"
import { migrated } from "../../src/layers/Store.ts"
import * as AppConfig from "../../src/services/AppConfig.ts"
import { sha256Hex, writeArchive } from "../../src/services/bundle/Archive.ts"
import * as Bundle from "../../src/services/bundle/Bundle.ts"
import * as DataGeneration from "../../src/services/DataGeneration.ts"
import type { EcfrArchive } from "../../src/services/ecfr/Archive.ts"
import { directoryArchive } from "../../src/services/ecfr/DirectoryArchive.ts"
import * as Mirror from "../../src/services/ecfr/Mirror.ts"
import * as SharedFills from "../../src/services/ecfr/SharedFills.ts"
import { fileStore } from "../../src/services/ecfr/SnapshotStore.ts"
import * as Sync from "../../src/services/ecfr/Sync.ts"
import * as Postgres from "../../src/services/store/Postgres.ts"
import { UpstreamError } from "../../src/services/Upstream.ts"
import { offlineEnv, runCli } from "../support/CliEnv.ts"
import { ecfrFixtures, tempDataDir } from "../support/EcfrFake.ts"
import { databaseConfig, scratchDatabase } from "../support/SqlEngines.ts"
import { freshStore } from "../support/TestStore.ts"

/**
 * Issue 13, offline: an operator of several instances on one PostgreSQL who cannot reach eCFR runs
 * `ecds sync --import` (or `ecds sync`) on one machine; the other instances serve those parts.
 */

const quiet = <A, E, R>(effect: Effect.Effect<A, E, R>) => effect.pipe(Logger.withMinimumLogLevel(LogLevel.None))

/** A scratch database with every migration applied: its URL and the store as an instance is given it. */
const database = Effect.gen(function*() {
  const { url } = yield* scratchDatabase
  const store = yield* Layer.build(migrated(Postgres.layer(Redacted.make(url), databaseConfig(url)), "postgresql"))
  return { url, store, sql: Context.get(store, SqlClient) }
})

/** eCFR as an enclave sees it: nothing answers. */
const unreachable: EcfrArchive = (() => {
  const down = new UpstreamError({ upstream: "ecfr", reason: "unreachable", detail: "connection refused" })
  return {
    name: "ecfr",
    issueDates: Effect.fail(down),
    structure: () => Effect.fail(down),
    partXml: () => Effect.fail(down),
    versions: () => Effect.fail(down)
  }
})()

/** An instance on the shared database with its own DATA_DIR. */
const instance = (sql: SqlClient, archive: EcfrArchive, dataDir = tempDataDir()) =>
  Effect.gen(function*() {
    const fills = yield* SharedFills.make({ ...SharedFills.defaultSharedOptions, pollMillis: 20 }).pipe(
      Effect.provideService(SqlClient, sql)
    )
    const store = fileStore(dataDir)
    return { mirror: yield* Mirror.make({ archive, store, generation: DataGeneration.make(), fills }), store }
  })

const fixture = (path: string) => new Uint8Array(readFileSync(join(ecfrFixtures, path)))

/** A bundle of parts 740 and 121 from the saved fixtures, made at `createdAt`, each part downloaded at `fetchedAt`. */
const writeBundle = async (options: { createdAt: string; fetchedAt: string; issueDate: string }) => {
  const entries: Array<readonly [string, Uint8Array]> = [740, 121].flatMap((part) => {
    const title = part === 121 ? 22 : 15
    return (["xml", "structure.json", "versions.json"] as const).map((kind) =>
      [`ecfr/title-${title}/part-${part}.${kind}`, fixture(`title-${title}/part-${part}.${kind}`)] as const
    )
  })
  const manifest: BundleManifest = {
    format: BundleFormat,
    created_at: options.createdAt,
    service_version: ServiceVersion,
    ecfr: {
      parts: [740, 121].map((part) => ({
        part,
        title: part === 121 ? 22 : 15,
        issue_date: options.issueDate,
        fetched_at: options.fetchedAt
      }))
    },
    screening_list: null,
    files: Object.fromEntries(
      entries.map(([name, bytes]) => [name, { sha256: sha256Hex(bytes), bytes: bytes.byteLength }])
    )
  }
  const file = join(mkdtempSync(join(tmpdir(), "ecds-shared-bundle-")), "bundle.tar.gz")
  await writeArchive(file, [["manifest.json", new TextEncoder().encode(JSON.stringify(manifest))], ...entries])
  return file
}

/** `ecds sync --import` as the command runs it: read and verified, then stored into the given store. */
const importBundle = <E>(
  file: string,
  dataDir: string,
  store: Layer.Layer<Layer.Layer.Success<typeof freshStore>, E>
) =>
  Effect.flatMap(Bundle.readBundle(file), (bundle) => Bundle.storeBundle(bundle, () => {})).pipe(
    Effect.provide(store.pipe(Layer.provideMerge(AppConfig.layerWith({ dataDir }))))
  )

const days = (n: number) => n * 24 * 60 * 60 * 1000

interface Row {
  readonly part: number
  readonly issueDate: string
  readonly fetchedAt: number
  readonly verifiedAt: number
}

const rows = (sql: SqlClient) =>
  sql<Row>`SELECT part, issue_date, fetched_at, verified_at FROM ecfr_part_snapshots ORDER BY part`

describe("eCFR parts stored by `ecds sync` on PostgreSQL reach the other instances", () => {
  it.scopedLive(
    "a bundle imported on one machine is served by an instance that has no copy and cannot reach eCFR",
    () =>
      quiet(Effect.gen(function*() {
        const { sql, store } = yield* database
        const now = Date.now()
        const createdAt = new Date(now - days(3)).toISOString()
        const fetchedAt = new Date(now - days(3) - 600_000).toISOString()
        const file = yield* Effect.promise(() => writeBundle({ createdAt, fetchedAt, issueDate: "2026-11-18" }))
        const importing = tempDataDir()
        const { shared } = yield* importBundle(file, importing, Layer.succeedContext(store))
        expect(shared).toEqual(["published", "published"])
        // verified when the bundle was made, not at the import: the same in the table and the files
        expect(yield* rows(sql)).toEqual([121, 740].map((part) => ({
          part,
          issueDate: "2026-11-18",
          fetchedAt: Date.parse(fetchedAt),
          verifiedAt: Date.parse(createdAt)
        })))
        expect((yield* fileStore(join(importing, "ecfr")).index).get(740)?.verifiedAt).toBe(createdAt)

        // another machine: empty DATA_DIR, eCFR unreachable
        const b = yield* instance(sql, unreachable)
        const served = yield* b.mirror.get(740)
        expect(served.issueDate).toBe("2026-11-18")
        expect(served.fetchedAt).toBe(fetchedAt)
        // eCFR could not confirm it: served marked stale, reported as last verified when the bundle was made
        expect(served.stale).toBe(true)
        const [state] = (yield* b.mirror.report).filter((part) => part.part === 740)
        expect(state).toMatchObject({ state: "stale", verifiedAt: createdAt, issueDate: "2026-11-18" })
        expect(state?.lastFailure?.detail).toBe("connection refused")
        // its own copy is kept for reads while the database is away
        expect((yield* b.store.index).get(740)?.fetchedAt).toBe(fetchedAt)
        // a part the bundle did not carry still answers 503
        const missing = yield* Effect.flip(b.mirror.get(774))
        expect(missing._tag).toBe("UpstreamUnavailable")

        // an instance holding an older copy (an earlier bundle's, in its files only) takes the newer
        // shared one once its refresh has failed
        const olderDir = tempDataDir()
        const earlier = new Date(now - days(10)).toISOString()
        const earlierFile = yield* Effect.promise(() =>
          writeBundle({ createdAt: earlier, fetchedAt: earlier, issueDate: "2026-11-01" })
        )
        yield* importBundle(earlierFile, olderDir, freshStore)
        const offline = yield* instance(sql, unreachable, join(olderDir, "ecfr"))
        expect((yield* offline.mirror.get(121)).issueDate).toBe("2026-11-01")
        expect((yield* Effect.flip(offline.mirror.refresh(121, { force: false })))._tag).toBe("UpstreamError")
        const taken = yield* offline.mirror.get(121)
        expect(taken).toMatchObject({ issueDate: "2026-11-18", fetchedAt, stale: true })
      })),
    60_000
  )

  it.scopedLive("an import never replaces a newer shared snapshot", () =>
    quiet(Effect.gen(function*() {
      const { sql, store } = yield* database
      // an instance that could reach eCFR downloaded part 740 just now
      const online = yield* instance(sql, directoryArchive(ecfrFixtures))
      const downloaded = yield* online.mirror.get(740)
      const [before] = yield* rows(sql)
      expect(before?.fetchedAt).toBe(Date.parse(downloaded.fetchedAt))

      const now = Date.now()
      const file = yield* Effect.promise(() =>
        writeBundle({
          createdAt: new Date(now - days(2)).toISOString(),
          fetchedAt: new Date(now - days(2)).toISOString(),
          issueDate: "2026-11-01"
        })
      )
      const { shared } = yield* importBundle(file, tempDataDir(), Layer.succeedContext(store))
      expect(shared).toEqual(["newer kept", "published"])
      const [kept] = (yield* rows(sql)).filter((row) => row.part === 740)
      expect(kept).toEqual(before)

      // so an instance without eCFR serves the later download, not the bundle's older issue
      const offline = yield* instance(sql, unreachable)
      expect((yield* offline.mirror.get(740)).issueDate).toBe(downloaded.issueDate)
    })), 60_000)

  it.scopedLive(
    "`ecds sync --from` publishes what it stored, verified when its files say",
    () =>
      quiet(Effect.gen(function*() {
        const { store, sql } = yield* database
        const dataDir = tempDataDir()
        const results = yield* Sync.sync({ from: ecfrFixtures, parts: [740] }, () => {}).pipe(
          Effect.provide(
            Layer.mergeAll(Layer.succeedContext(store), FetchHttpClient.layer, AppConfig.layerWith({ dataDir }))
          )
        )
        expect(results).toEqual([{
          part: 740,
          outcome: "updated",
          detail: "eCFR issue 2026-11-18; shared with the instances on PostgreSQL"
        }])
        const stored = (yield* fileStore(join(dataDir, "ecfr")).index).get(740)!
        expect(yield* rows(sql)).toEqual([{
          part: 740,
          issueDate: "2026-11-18",
          fetchedAt: Date.parse(stored.fetchedAt),
          verifiedAt: Date.parse(stored.verifiedAt)
        }])
      })),
    60_000
  )

  it.scopedLive("the commands publish with DATABASE_URL set", () =>
    Effect.gen(function*() {
      const { sql, url } = yield* quiet(database)
      const synced = yield* Effect.promise(() =>
        runCli(["sync", "--from", ecfrFixtures, "--parts", "740"], offlineEnv({ DATABASE_URL: url }))
      )
      expect(synced.status, synced.stderr).toBe(0)
      expect(synced.stdout).toContain(
        "part 740: updated (eCFR issue 2026-11-18; shared with the instances on PostgreSQL)"
      )
      expect((yield* rows(sql)).map((row) => row.part)).toEqual([740])

      const old = new Date(Date.now() - days(5)).toISOString()
      const file = yield* Effect.promise(() => writeBundle({ createdAt: old, fetchedAt: old, issueDate: "2026-11-01" }))
      const imported = yield* Effect.promise(() =>
        runCli(["sync", "--import", file], offlineEnv({ DATABASE_URL: url }))
      )
      expect(imported.status, imported.stderr).toBe(0)
      expect(imported.stdout).toContain(
        "1 eCFR part(s) shared with the instances on PostgreSQL; 1 not shared: the instances hold later downloads of them"
      )
      expect((yield* rows(sql)).map((row) => [row.part, row.issueDate])).toEqual([[121, "2026-11-01"], [
        740,
        "2026-11-18"
      ]])
    }), 180_000)

  it.scopedLive(
    "on the embedded store nothing is shared and `ecds sync` leaves the database alone",
    () =>
      Effect.gen(function*() {
        const store = yield* Layer.build(freshStore)
        const now = new Date(Date.now() - days(1)).toISOString()
        const file = yield* Effect.promise(() =>
          writeBundle({ createdAt: now, fetchedAt: now, issueDate: "2026-11-18" })
        )
        const { shared } = yield* quiet(importBundle(file, tempDataDir(), Layer.succeedContext(store)))
        expect(shared).toEqual(["alone", "alone"])
        expect(yield* rows(Context.get(store, SqlClient))).toEqual([])

        // a plain sync does not open DATA_DIR/db, which a running service holds
        const dataDir = tempDataDir()
        const synced = yield* Effect.promise(() =>
          runCli(["sync", "--from", ecfrFixtures, "--parts", "740"], offlineEnv({ DATA_DIR: dataDir }))
        )
        expect(synced.status, synced.stderr).toBe(0)
        expect(synced.stdout).toContain("part 740: updated (eCFR issue 2026-11-18)\n")
        expect(existsSync(join(dataDir, "db"))).toBe(false)
      }),
    180_000
  )
})
