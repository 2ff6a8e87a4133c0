import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, Fiber, Layer, Logger, LogLevel, Redacted, Ref, Scope } from "effect"
import { migrated } from "../../src/layers/Store.ts"
import * as DataGeneration from "../../src/services/DataGeneration.ts"
import type { EcfrArchive } from "../../src/services/ecfr/Archive.ts"
import { directoryArchive } from "../../src/services/ecfr/DirectoryArchive.ts"
import * as Mirror from "../../src/services/ecfr/Mirror.ts"
import * as SharedFills from "../../src/services/ecfr/SharedFills.ts"
import { fileStore } from "../../src/services/ecfr/SnapshotStore.ts"
import * as Postgres from "../../src/services/store/Postgres.ts"
import { UpstreamError } from "../../src/services/Upstream.ts"
import { ecfrFixtures, tempDataDir } from "../support/EcfrFake.ts"
import { startTcpRelay } from "../support/Instances.ts"
import { databaseConfig, scratchDatabase } from "../support/SqlEngines.ts"

/**
 * Issue 13: instances on one PostgreSQL share the eCFR mirror. Each instance here is a mirror with
 * a DATA_DIR of its own over the same database; the eCFR upstream is the saved fixtures, counting
 * what is asked of it, and a download can be held open to keep its lease taken.
 */
const countingUpstream = Effect.gen(function*() {
  const downloads = yield* Ref.make(0)
  const titleChecks = yield* Ref.make(0)
  const gate = yield* Ref.make<Deferred.Deferred<void> | undefined>(undefined)
  const failing = yield* Ref.make(false)
  const base = directoryArchive(ecfrFixtures)
  const archive: EcfrArchive = {
    ...base,
    issueDates: Effect.zipRight(Ref.update(titleChecks, (n) => n + 1), base.issueDates),
    partXml: (title, date, part) =>
      Effect.gen(function*() {
        yield* Ref.update(downloads, (n) => n + 1)
        const held = yield* Ref.get(gate)
        if (held !== undefined) yield* Deferred.await(held)
        if (yield* Ref.get(failing)) {
          return yield* new UpstreamError({
            upstream: "ecfr",
            reason: "status",
            status: 503,
            detail: "eCFR answered 503"
          })
        }
        return yield* base.partXml(title, date, part)
      })
  }
  return { archive, downloads, titleChecks, gate, failing }
})

type Upstream = Effect.Effect.Success<typeof countingUpstream>

/** A scratch database on the test server with every migration applied, reached through `port`. */
const databaseAt = (port?: number) =>
  Effect.gen(function*() {
    const { url } = yield* scratchDatabase
    const reached = new URL(url)
    if (port !== undefined) reached.port = String(port)
    const store = yield* Layer.build(
      migrated(Postgres.layer(Redacted.make(reached.href), databaseConfig(reached.href)), "postgresql")
    )
    return Context.get(store, SqlClient)
  })

const instance = (
  sql: SqlClient,
  upstream: Upstream,
  options: Partial<SharedFills.SharedFillsOptions> = {},
  dataDir = tempDataDir()
) =>
  Effect.gen(function*() {
    const fills = yield* SharedFills.make({ ...SharedFills.defaultSharedOptions, pollMillis: 20, ...options }).pipe(
      Effect.provideService(SqlClient, sql)
    )
    const store = fileStore(dataDir)
    const mirror = yield* Mirror.make({ archive: upstream.archive, store, generation: DataGeneration.make(), fills })
    return { mirror, store, dataDir }
  })

const quiet = <A, E, R>(effect: Effect.Effect<A, E, R>) => effect.pipe(Logger.withMinimumLogLevel(LogLevel.None))

describe("eCFR mirror shared through PostgreSQL", () => {
  it.scopedLive(
    "two instances asking for the same cold part at once download it once and serve the same issue",
    () =>
      quiet(Effect.gen(function*() {
        const sql = yield* databaseAt()
        const upstream = yield* countingUpstream
        const a = yield* instance(sql, upstream)
        const b = yield* instance(sql, upstream)
        const [fromA, fromB] = yield* Effect.all([a.mirror.get(740), b.mirror.get(740)], { concurrency: 2 })
        expect(yield* Ref.get(upstream.downloads)).toBe(1)
        expect(fromB.issueDate).toBe(fromA.issueDate)
        expect(fromB.value.contentHash).toBe(fromA.value.contentHash)
        // each keeps its own copy, for reads while the database is away
        expect((yield* b.store.index).get(740)?.issueDate).toBe(fromA.issueDate)
        expect((yield* a.store.index).get(740)?.issueDate).toBe(fromA.issueDate)

        // an instance started later takes the part from the database without asking eCFR anything
        const checksBefore = yield* Ref.get(upstream.titleChecks)
        const later = yield* instance(sql, upstream)
        const served = yield* later.mirror.get(740)
        expect(served.value.contentHash).toBe(fromA.value.contentHash)
        expect(served.stale).toBe(false)
        expect(yield* Ref.get(upstream.downloads)).toBe(1)
        expect(yield* Ref.get(upstream.titleChecks)).toBe(checksBefore)
        expect((yield* later.store.index).get(740)?.issueDate).toBe(fromA.issueDate)

        // a shared row that does not decode is not taken: the instance asks eCFR…
        yield* sql`UPDATE ecfr_part_snapshots SET snapshot = 'not json'`
        const afterDamage = yield* instance(sql, upstream)
        expect((yield* afterDamage.mirror.get(740)).value.contentHash).toBe(fromA.value.contentHash)
        expect(yield* Ref.get(upstream.downloads)).toBe(2)
        // …and the part is written anew for the next one
        const repaired = yield* instance(sql, upstream)
        expect((yield* repaired.mirror.get(740)).value.contentHash).toBe(fromA.value.contentHash)
        expect(yield* Ref.get(upstream.downloads)).toBe(2)
      })),
    30_000
  )

  it.scopedLive(
    "a forced refresh on every instance at once (the daily refresh) downloads once",
    () =>
      quiet(Effect.gen(function*() {
        const sql = yield* databaseAt()
        const upstream = yield* countingUpstream
        const a = yield* instance(sql, upstream)
        const b = yield* instance(sql, upstream)
        yield* a.mirror.get(740)
        yield* b.mirror.get(740)
        expect(yield* Ref.get(upstream.downloads)).toBe(1)
        const outcomes = yield* Effect.all([
          a.mirror.refresh(740, { force: true }),
          b.mirror.refresh(740, { force: true })
        ], { concurrency: 2 })
        expect(outcomes).toEqual(["unchanged", "unchanged"])
        expect(yield* Ref.get(upstream.downloads)).toBe(2)
      })),
    30_000
  )

  it.scopedLive("with PostgreSQL unreachable an instance downloads by itself and serves reads from its files", () => {
    const warnings: Array<unknown> = []
    const collect = Logger.make(({ logLevel, message }) => {
      if (logLevel._tag === "Warning") warnings.push(Array.isArray(message) ? message[0] : message)
    })
    return Effect.gen(function*() {
      const relay = yield* Effect.acquireRelease(
        Effect.promise(() => startTcpRelay(5432)),
        (r) => Effect.promise(() => r.close())
      )
      const sql = yield* databaseAt(relay.port)
      const upstream = yield* countingUpstream
      const a = yield* instance(sql, upstream)
      yield* Effect.promise(() => relay.cut())
      const served = yield* a.mirror.get(740)
      expect(served.value.part).toBe(740)
      expect(served.stale).toBe(false)
      expect(yield* Ref.get(upstream.downloads)).toBe(1)
      expect(yield* a.mirror.refresh(740, { force: true })).toBe("unchanged")
      expect(yield* Ref.get(upstream.downloads)).toBe(2)
      // a restart on the same DATA_DIR, the database still away: the part is read from the files
      const restarted = yield* instance(sql, upstream, {}, a.dataDir)
      expect((yield* restarted.mirror.get(740)).value.contentHash).toBe(served.value.contentHash)
      expect(yield* Ref.get(upstream.downloads)).toBe(2)
      expect(warnings).toEqual(["shared eCFR mirror unreachable; refreshing eCFR parts alone"])
    }).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, collect)))
  }, 30_000)

  it.scopedLive("when the instance filling a part dies, another one fills it", () =>
    quiet(Effect.gen(function*() {
      const sql = yield* databaseAt()
      const upstream = yield* countingUpstream
      const held = yield* Deferred.make<void>()
      yield* Ref.set(upstream.gate, held)
      // A takes the lease and hangs inside its download; its scope closing is its death
      const scopeA = yield* Scope.make()
      const a = yield* instance(sql, upstream).pipe(Scope.extend(scopeA))
      const pending = yield* Effect.fork(Effect.exit(a.mirror.get(740)))
      while ((yield* Ref.get(upstream.downloads)) === 0) yield* Effect.sleep(5)
      const b = yield* instance(sql, upstream)
      const waiting = yield* Effect.fork(b.mirror.get(740))
      yield* Effect.sleep(100)
      expect(yield* Ref.get(upstream.downloads)).toBe(1)
      yield* Ref.set(upstream.gate, undefined)
      yield* Scope.close(scopeA, Exit.void)
      const served = yield* Fiber.join(waiting)
      expect(served.value.part).toBe(740)
      expect(yield* Ref.get(upstream.downloads)).toBe(2)
      yield* Fiber.interrupt(pending)

      // a holder killed outright never lets go: its lease runs out and the next instance fills
      yield* sql`DELETE FROM ecfr_part_snapshots`
      yield* sql`INSERT INTO ecfr_part_fills (part, holder, lease_until)
        VALUES (740, 'killed', now() + interval '300 milliseconds')`
      const c = yield* instance(sql, upstream)
      const filled = yield* c.mirror.get(740)
      expect(filled.value.part).toBe(740)
      expect(yield* Ref.get(upstream.downloads)).toBe(3)
    })), 30_000)

  it.scopedLive(
    "when the instance filling a part fails, the instances waiting on it do not each ask eCFR",
    () =>
      quiet(Effect.gen(function*() {
        const sql = yield* databaseAt()
        const upstream = yield* countingUpstream
        const held = yield* Deferred.make<void>()
        yield* Ref.set(upstream.gate, held)
        yield* Ref.set(upstream.failing, true)
        const hold = { failureHoldMillis: 1_500 }
        const a = yield* instance(sql, upstream, hold)
        const b = yield* instance(sql, upstream, hold)
        const c = yield* instance(sql, upstream, hold)
        const fromA = yield* Effect.fork(Effect.exit(a.mirror.get(740)))
        while ((yield* Ref.get(upstream.downloads)) === 0) yield* Effect.sleep(5)
        const waiting = yield* Effect.fork(
          Effect.all([Effect.exit(b.mirror.get(740)), Effect.exit(c.mirror.get(740))], { concurrency: 2 })
        )
        yield* Effect.sleep(100)
        // A's download fails: B and C, waiting on it, take its failure instead of downloading in turn
        yield* Deferred.succeed(held, undefined)
        expect(Exit.isFailure(yield* Fiber.join(fromA))).toBe(true)
        const [atB, atC] = yield* Fiber.join(waiting)
        expect(Exit.isFailure(atB)).toBe(true)
        expect(Exit.isFailure(atC)).toBe(true)
        expect(yield* Ref.get(upstream.downloads)).toBe(1)
        const [stateB] = (yield* b.mirror.report).filter((state) => state.part === 740)
        expect(stateB?.lastFailure?.detail).toMatch(/another instance's download of part 740 failed/)

        // an instance asking within the hold does not ask eCFR either…
        const d = yield* instance(sql, upstream, hold)
        expect(Exit.isFailure(yield* Effect.exit(d.mirror.get(740)))).toBe(true)
        expect(yield* Ref.get(upstream.downloads)).toBe(1)
        // …and once it has passed, one instance asks again and fills the part for all
        yield* Ref.set(upstream.failing, false)
        yield* Effect.sleep(1_600)
        const e = yield* instance(sql, upstream, hold)
        expect((yield* e.mirror.get(740)).value.part).toBe(740)
        expect(yield* Ref.get(upstream.downloads)).toBe(2)
      })),
    30_000
  )
})
