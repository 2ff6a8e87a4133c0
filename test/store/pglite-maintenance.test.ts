import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, Ref, Schedule, TestClock, TestServices } from "effect"
import { synthetic } from "../../bench/lib/SyntheticArchive.ts"
import { migrated } from "../../src/layers/Store.ts"
import * as ArchiveRepo from "../../src/services/enforcement/ArchiveRepo.ts"
import * as PgliteMaintenance from "../../src/services/store/PgliteMaintenance.ts"
import { embeddedMigratedEngine } from "../support/SqlEngines.ts"

// 100 documents of about 5 KB of text each: every re-import rewrites each row, its TOAST chunks
// and its index entries
const writes = synthetic().slice(0, 100)

const store = () => Layer.fresh(migrated(embeddedMigratedEngine, "embedded"))

const reimport = Effect.flatMap(ArchiveRepo.make, (repo) => repo.upsert(writes))

const archiveSize = Effect.flatMap(
  SqlClient,
  (sql) =>
    sql<{ size: number }>`SELECT pg_total_relation_size('enforcement_documents')::bigint AS size`.pipe(
      Effect.map((rows) => rows[0]!.size)
    )
)

interface TableState {
  readonly lastVacuum: Date | null
  readonly lastAnalyze: Date | null
  readonly reltuples: number
}

const tableState = (table: string) =>
  Effect.flatMap(SqlClient, (sql) =>
    sql<TableState>`
      SELECT s.last_vacuum, s.last_analyze, c.reltuples::float8 AS reltuples
      FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
      WHERE s.relname = ${table}`.pipe(Effect.map((rows) => rows[0]!)))

/** Sizes of the archive table after each of `rounds` re-imports, with `between` run after each. */
const sizes = (rounds: number, between: Effect.Effect<unknown, unknown, SqlClient>) =>
  Effect.gen(function*() {
    const out: Array<number> = []
    for (let n = 0; n < rounds; n++) {
      yield* reimport
      yield* between
      out.push(yield* archiveSize)
    }
    return out
  })

/** Waits (on the live clock, a bounded number of times) until the maintenance fiber has done `done`. */
const until = <A>(probe: Effect.Effect<A, unknown, SqlClient>, done: (a: A) => boolean) =>
  TestServices.provideLive(
    probe.pipe(
      Effect.repeat({ until: done, schedule: Schedule.spaced("20 millis").pipe(Schedule.upTo("20 seconds")) }),
      Effect.zipRight(probe)
    )
  )

describe("embedded store maintenance", () => {
  it.effect(
    "keeps a re-imported archive's size bounded, which grows with every import without it",
    () =>
      Effect.gen(function*() {
        const rounds = 8
        const kept = yield* sizes(rounds, PgliteMaintenance.pass(false)).pipe(Effect.provide(store()))
        const left = yield* sizes(rounds, Effect.void).pipe(Effect.provide(store()))
        // without: every import adds a copy of the archive (about 1.2 MB here), for good
        for (let n = 1; n < rounds; n++) expect(left[n]!).toBeGreaterThan(left[n - 1]! + (left[1]! - left[0]!) * 0.8)
        // with: each import reuses the space of the copy before; the table stays within two copies
        for (const size of kept.slice(2)) expect(size).toBeLessThanOrEqual(kept[1]! * 1.1)
        expect(kept[rounds - 1]!).toBeLessThan(left[rounds - 1]! / 3)
      }),
    { timeout: 120_000 }
  )

  it.effect("gives the planner statistics, and a pass leaves quiet tables alone", () =>
    Effect.gen(function*() {
      // the second import leaves a dead row for every document
      yield* reimport
      yield* reimport
      const before = yield* tableState("enforcement_documents")
      expect(before.lastAnalyze).toBeNull()
      expect(before.reltuples).toBeLessThan(0) // never analyzed

      const due = yield* PgliteMaintenance.pass(false)
      expect(due.map((table) => table.target)).toContain("public.enforcement_documents")
      expect(due.map((table) => table.target)).not.toContain("public.api_keys")
      const after = yield* tableState("enforcement_documents")
      expect(after.lastVacuum).not.toBeNull()
      expect(after.lastAnalyze).not.toBeNull()
      expect(after.reltuples).toBe(writes.length)
      // nothing changed since: the next pass has nothing to do
      expect(yield* PgliteMaintenance.pass(false)).toEqual([])
    }).pipe(Effect.provide(store())), { timeout: 60_000 })

  it.effect(
    "runs in the store's scope: every table a minute after start, then the tables that changed",
    () =>
      Effect.gen(function*() {
        yield* Layer.build(PgliteMaintenance.layer)
        yield* reimport
        yield* TestClock.adjust("59 seconds")
        expect((yield* tableState("enforcement_documents")).lastVacuum).toBeNull()

        yield* TestClock.adjust("1 second")
        const first = yield* until(tableState("enforcement_documents"), (s) => s.lastAnalyze !== null)
        // the first pass takes every table, changed or not
        const quiet = yield* until(tableState("api_keys"), (s) => s.lastVacuum !== null)
        expect(first.lastVacuum).not.toBeNull()
        expect(quiet.lastVacuum).not.toBeNull()

        yield* reimport
        yield* TestClock.adjust("1 minute")
        const second = yield* until(
          tableState("enforcement_documents"),
          (s) => s.lastVacuum !== null && s.lastVacuum.getTime() > first.lastVacuum!.getTime()
        )
        expect(second.lastVacuum!.getTime()).toBeGreaterThan(first.lastVacuum!.getTime())
        expect(second.lastAnalyze!.getTime()).toBeGreaterThan(first.lastAnalyze!.getTime())
        expect((yield* tableState("api_keys")).lastVacuum).toEqual(quiet.lastVacuum)
      }).pipe(Effect.scoped, Effect.provide(store())),
    { timeout: 60_000 }
  )

  it.effect("a failing pass is logged at warning without its statement, and the schedule goes on", () =>
    Effect.gen(function*() {
      const runs = yield* Ref.make(0)
      const logged = yield* Ref.make<Array<string>>([])
      const logger = Logger.make(({ logLevel, message }) => {
        Effect.runSync(Ref.update(logged, (all) => [...all, `${logLevel.label} ${JSON.stringify(message)}`]))
      })
      const failing = Effect.zipRight(
        Ref.update(runs, (n) => n + 1),
        Effect.fail(new Error("boom"))
      )
      yield* Effect.forkScoped(
        PgliteMaintenance.schedule(failing, failing).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger)))
      )
      for (let n = 0; n < 3; n++) yield* TestClock.adjust("1 minute")
      expect(yield* Ref.get(runs)).toBe(3)
      const lines = yield* Ref.get(logged)
      expect(lines).toHaveLength(3)
      expect(lines[0]).toContain("WARN")
      expect(lines[0]).toContain("embedded store maintenance failed")
      expect(lines[0]).toContain("boom")
    }).pipe(Effect.scoped))
})
