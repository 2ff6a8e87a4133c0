import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { previousAnswer, previousStatement } from "../../bench/lib/PreviousArchiveSearch.ts"
import { synthetic } from "../../bench/lib/SyntheticArchive.ts"
import * as ArchiveRepo from "../../src/services/enforcement/ArchiveRepo.ts"
import { runAreas } from "../../src/services/store/Migrations.ts"
import { areas } from "../../src/services/store/migrations/index.ts"
import { enforcementMigrationsUpTo } from "../support/EnforcementMigrations.ts"
import { engines } from "../support/SqlEngines.ts"

/**
 * The search table of migration `enforcement/22`: filled from the documents already stored, and
 * kept in step by triggers with every write to the documents table, whoever makes it (instances of
 * the previous release write only that table).
 */

/** The migrations as they were before the search table. */
const before = enforcementMigrationsUpTo(21)

const corpus = synthetic().slice(0, 30)

/** Documents whose search row is missing, left over, or differs from the document. */
const outOfStep = Effect.flatMap(SqlClient, (sql) =>
  sql<{ id: string }>`SELECT coalesce(d.id, s.id) AS id
    FROM enforcement_documents d FULL JOIN enforcement_search s USING (id)
    WHERE d.id IS NULL OR s.id IS NULL OR s.agency IS DISTINCT FROM d.agency OR s.date IS DISTINCT FROM d.date
      OR s.search IS DISTINCT FROM d.search
    ORDER BY 1`.pipe(Effect.map((rows) => rows.map((row) => row.id))))

const searchRows = Effect.flatMap(
  SqlClient,
  (sql) =>
    sql<{ n: unknown }>`SELECT count(*) AS n FROM enforcement_search`.pipe(Effect.map((rows) => Number(rows[0]!.n)))
)

for (const engine of engines) {
  describe(`archive search table (${engine.name})`, () => {
    it.layer(Layer.fresh(engine.empty), { timeout: 120_000 })((it) => {
      it.effect("is filled from documents stored before it, then kept in step by every write", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient
          yield* runAreas(before)
          const repo = yield* ArchiveRepo.make
          // written as the previous release writes them: the documents table only
          yield* repo.upsert(corpus.slice(0, 20))

          const applied = yield* runAreas(areas)
          expect(applied.map((migration) => `${migration.area}/${migration.id}`)).toEqual([
            "enforcement/22",
            "enforcement/23"
          ])
          expect(yield* searchRows).toBe(20)
          expect(yield* outOfStep).toEqual([])

          // same hits, order, scores and totals as the statement on the documents table
          for (const query of ["lasers", "export", "w1a"]) {
            const { hits, total } = yield* repo.search(query, undefined, 10)
            const previous = previousAnswer(yield* previousStatement(sql, query, 10))
            expect({ total, hits: hits.map((hit) => [hit.row.id, hit.score]) }).toEqual({
              total: previous.total,
              hits: previous.hits.map((hit) => [hit.id, hit.score])
            })
          }

          // inserts, changes (agency, date, text), a rewrite of an unchanged document, a removal mark
          yield* repo.upsert(corpus.slice(20))
          const changed = corpus[3]!
          yield* repo.upsert([
            { ...changed, agency: "DOJ", date: "2001-01-01", body: "zymurgy export penalty" },
            corpus[4]!
          ])
          yield* repo.markRemoved([corpus[5]!.id])
          expect(yield* searchRows).toBe(30)
          expect(yield* outOfStep).toEqual([])
          const zymurgy = yield* repo.search("zymurgy", "DOJ", 10)
          expect(zymurgy.hits.map((hit) => hit.row.id)).toEqual([changed.id])
          expect((yield* repo.search("zymurgy", "BIS", 10)).total).toBe(0)

          // deletes
          yield* sql`DELETE FROM enforcement_documents WHERE id = ${corpus[0]!.id}`
          expect(yield* searchRows).toBe(29)
          expect(yield* outOfStep).toEqual([])
          yield* repo.clear
          expect(yield* searchRows).toBe(0)
        }))
    })
  })
}
