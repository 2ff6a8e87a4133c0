import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { synthetic } from "../../bench/lib/SyntheticArchive.ts"
import * as ArchiveRepo from "../../src/services/enforcement/ArchiveRepo.ts"
import { runAreas } from "../../src/services/store/Migrations.ts"
import { rankedBytes, rankedPositions } from "../../src/services/store/migrations/enforcement.ts"
import { areas } from "../../src/services/store/migrations/index.ts"
import { enforcementMigrationsUpTo } from "../support/EnforcementMigrations.ts"
import { engines } from "../support/SqlEngines.ts"

/**
 * The rank vector of migration `enforcement/23`: filled for documents stored before it, kept in
 * step by the triggers with every write to the documents table (instances of the previous release
 * write only that table), and what a search ranks on, while matching and `total` still see every
 * word of the text.
 */

/** `count` different filler words (one position each: no stop words, no hyphens), numbered from `from`. */
const filler = (from: number, count: number) => Array.from({ length: count }, (_, n) => `f${from + n}`)
/** `count` filler words out of 40, so their vector stays small and the cut is by position. */
const repeated = (count: number) => Array.from({ length: count }, (_, n) => `f${n % 40}`)

/**
 * Party and title take four positions (`long party`, `long case`), so the text's word `n` (from 0)
 * is at position `n + 5`: `zymurgy` once early and a hundred times past the cut.
 */
const longText = [
  ...repeated(10),
  "zymurgy",
  ...repeated(1_300),
  ...Array.from({ length: 100 }, () => "zymurgy"),
  ...repeated(50)
]
const base = synthetic()[0]!
const document = (id: string, party: string, title: string, body: string): ArchiveRepo.ArchiveWrite => ({
  ...base,
  id: `bis-case:${id}`,
  party,
  title,
  body,
  textChars: body.length
})
const long = document("L1", "Long Party", "Long Case", longText.join(" "))
// three early occurrences: fewer than the long document's 101, more than the one before its cut
const short = document("S1", "Short Party", "Short Case", ["zymurgy", "zymurgy", "f1", "zymurgy", "f2"].join(" "))
// only past the cut: matches, ranks 0
const late = document("P1", "Late Party", "Late Case", [...filler(0, 1_400), "zymurgy", "f9"].join(" "))
const corpus = synthetic().slice(0, 12)

/** Documents whose search row is missing, left over, or differs from the document (rank included). */
const outOfStep = Effect.flatMap(SqlClient, (sql) =>
  sql<{ id: string }>`SELECT coalesce(d.id, s.id) AS id
    FROM enforcement_documents d FULL JOIN enforcement_search s USING (id)
    WHERE d.id IS NULL OR s.id IS NULL OR s.agency IS DISTINCT FROM d.agency OR s.date IS DISTINCT FROM d.date
      OR s.search IS DISTINCT FROM d.search OR s.rank IS DISTINCT FROM enforcement_search_rank(d.search)
    ORDER BY 1`.pipe(Effect.map((rows) => rows.map((row) => row.id))))

/** The long document's rank vector as it should be: party, title and the text's words up to the cut, built anew. */
const expectedLongRank = (sql: SqlClient) =>
  sql`setweight(to_tsvector('english', 'long party'), 'A') || setweight(to_tsvector('english', 'long case'), 'B') ||
    setweight(to_tsvector('english', ${longText.slice(0, rankedPositions - 4).join(" ")}), 'C')`

for (const engine of engines) {
  describe(`archive search rank vector (${engine.name})`, () => {
    it.layer(Layer.fresh(engine.empty), { timeout: 120_000 })((it) => {
      it.effect("is filled on a populated store, kept in step by every write, and is all a search ranks on", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient
          yield* runAreas(enforcementMigrationsUpTo(22))
          const repo = yield* ArchiveRepo.make
          // written as the previous release writes them: the documents table only
          yield* repo.upsert([...corpus.slice(0, 8), long, short])

          const applied = yield* runAreas(areas)
          expect(applied.map((migration) => `${migration.area}/${migration.id}`)).toEqual(["enforcement/23"])
          expect(yield* outOfStep).toEqual([])
          // the index rebuilt for the fill is as migration 22 made it
          const [index] = yield* sql<{ options: unknown }>`SELECT reloptions AS options FROM pg_class
            WHERE relname = 'enforcement_search_search'`
          expect(index?.options).toEqual(["fastupdate=off"])
          // lexemes that need quoting come back as they were when the vector is cut
          const [quoted] = yield* sql<{ same: boolean }>`SELECT enforcement_search_rank(v || ${"'z':1300"}) = v AS same
            FROM (SELECT ${"'it''s':1A 'a\\\\b':2B 'x y':3,4C"}::tsvector AS v) AS t`
          expect(quoted!.same).toBe(true)
          const filled = yield* sql<{ id: string; same: boolean; full: unknown; ranked: unknown }>`
            SELECT id, rank = search AS same, length(search) AS full, length(rank) AS ranked
            FROM enforcement_search ORDER BY id`
          expect(filled).toHaveLength(10)
          // a 900-word document ranks on its whole vector; the long one on its beginning
          for (const row of filled) expect(row.same).toBe(row.id !== long.id)
          const [cut] = yield* sql<{ same: boolean; beyond: unknown }>`
            SELECT s.rank = ${expectedLongRank(sql)} AS same,
              (SELECT count(*) FROM unnest(s.rank) AS u, unnest(u.positions) AS p WHERE p > ${rankedPositions}) AS beyond
            FROM enforcement_search s WHERE id = ${long.id}`
          expect(cut!.same).toBe(true)
          expect(Number(cut!.beyond)).toBe(0)

          // ranking: the long document's 100 late occurrences do not count, the early one does;
          // matching and the total still see them all
          yield* repo.upsert([late])
          const found = yield* repo.search("zymurgy", undefined, 10)
          expect(found.total).toBe(3)
          expect(found.hits.map((hit) => hit.row.id)).toEqual([short.id, long.id, late.id])
          const [capped] = yield* sql<{ score: unknown; whole: unknown }>`
            SELECT ts_rank_cd(${expectedLongRank(sql)}, to_tsquery('english', 'zymurgy')) AS score,
              ts_rank_cd(d.search, to_tsquery('english', 'zymurgy')) AS whole
            FROM enforcement_documents d WHERE id = ${long.id}`
          expect(found.hits[1]!.score).toBe(Math.round(Number(capped!.score) * 1000) / 1000)
          expect(Number(capped!.whole)).toBeGreaterThan(found.hits[0]!.score)
          expect(found.hits[2]!.score).toBe(0)

          // inserts, a change that shortens the long text, a rewrite of an unchanged document, a
          // write of the vector alone as any other writer could make it, a removal mark
          yield* repo.upsert(corpus.slice(8))
          const [before] = yield* sql<{ version: string }>`
            SELECT xmin::text AS version FROM enforcement_search WHERE id = ${short.id}`
          yield* repo.upsert([{ ...long, body: "zymurgy zymurgy zymurgy zymurgy" }, short])
          const [after] = yield* sql<{ version: string }>`
            SELECT xmin::text AS version FROM enforcement_search WHERE id = ${short.id}`
          expect(after!.version).toBe(before!.version)
          yield* sql`UPDATE enforcement_documents SET search = setweight(to_tsvector('english', ${
            filler(0, 1_500).join(" ")
          }), 'C') WHERE id = ${corpus[0]!.id}`
          yield* repo.markRemoved([corpus[1]!.id])
          expect(yield* outOfStep).toEqual([])
          const [shortened] = yield* sql<{ same: boolean }>`
            SELECT rank = search AS same FROM enforcement_search WHERE id = ${long.id}`
          expect(shortened!.same).toBe(true)
          // 1,500 different words: the cut comes by size, at the longest beginning that fits
          const [rewritten] = yield* sql<{ kept: unknown; bytes: unknown }>`
            SELECT length(rank) AS kept, pg_column_size(rank) AS bytes FROM enforcement_search WHERE id = ${
            corpus[0]!.id
          }`
          const kept = Number(rewritten!.kept)
          expect(kept).toBeGreaterThan(100)
          expect(kept).toBeLessThan(rankedPositions)
          expect(Number(rewritten!.bytes)).toBeLessThanOrEqual(rankedBytes)
          const wordsUpTo = (n: number) => sql`setweight(to_tsvector('english', ${filler(0, n).join(" ")}), 'C')`
          const [fits] = yield* sql<{ same: boolean; more: unknown }>`
            SELECT s.rank = ${wordsUpTo(kept)} AS same, pg_column_size(${wordsUpTo(kept + 1)}) AS more
            FROM enforcement_search s WHERE id = ${corpus[0]!.id}`
          expect(fits!.same).toBe(true)
          expect(Number(fits!.more)).toBeGreaterThan(rankedBytes)
          expect((yield* repo.search("zymurgy", undefined, 10)).hits.map((hit) => hit.row.id)).toEqual([
            long.id,
            short.id,
            late.id
          ])

          // deletes
          yield* sql`DELETE FROM enforcement_documents WHERE id = ${long.id}`
          expect(yield* outOfStep).toEqual([])
          expect((yield* repo.search("zymurgy", undefined, 10)).total).toBe(2)
          yield* repo.clear
          expect(Number((yield* sql<{ n: unknown }>`SELECT count(*) AS n FROM enforcement_search`)[0]!.n)).toBe(0)
        }))
    })
  })
}
