import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { previousStatement } from "../../bench/lib/PreviousArchiveSearch.ts"
import { queries, synthetic } from "../../bench/lib/SyntheticArchive.ts"
import * as ArchiveRepo from "../../src/services/enforcement/ArchiveRepo.ts"
import { runAreas } from "../../src/services/store/Migrations.ts"
import { areas } from "../../src/services/store/migrations/index.ts"
import { engines } from "../support/SqlEngines.ts"

/**
 * The archive search statement against the one it replaced, on a database that had the archive
 * before migration 22 moved the search vectors into the row: same hits in the same order, same
 * scores, totals and snippets, over the benchmark's queries and a few more.
 */

// a slice of the benchmark's corpus, some of it under other agencies, one document without text, one
// with accents in its party and text (folded in the vector, kept in the snippet), and one whose first
// query word straddles where the search for it in the text's beginning stops (1,000 characters), with
// a shorter query word inside it just before: the whole text has to be searched
const corpus = synthetic().slice(0, 240).map((write, i): ArchiveRepo.ArchiveWrite =>
  i === 5
    ? { ...write, body: `${"x".repeat(990)} megalaserbeam ${write.body}` }
    : i === 7
    ? { ...write, body: null, textChars: null }
    : i === 11
    ? { ...write, party: "Société Générale d'Exportation", body: `${write.body}\n\nLa Société a exporté des lasers.` }
    : i % 3 === 0
    ? { ...write, agency: i % 2 === 0 ? "DDTC" : "DOJ" }
    : write
)

const cases: ReadonlyArray<
  { readonly query: string; readonly agency?: ArchiveRepo.ArchiveWrite["agency"]; readonly limit: number }
> = [
  ...[
    ...queries,
    "export",
    "order relating",
    "respondent lasers w2",
    "societe",
    "Société exporté",
    "megalaserbeam laser",
    "zzzz"
  ].map((
    query
  ) => ({ query, limit: 20 })),
  { query: "lasers", agency: "DDTC", limit: 5 },
  { query: "w1a", agency: "BIS", limit: 20 },
  { query: "w1a", limit: 3 },
  { query: "export", limit: 100 }
]

const normalized = (snippet: unknown) =>
  typeof snippet === "string" && snippet.length > 0
    ? snippet.replace(/<!--[^>]*-->/g, " ").replace(/\s+/g, " ").trim()
    : null

/** What the previous statement answers, in the repository's terms. */
const previousAnswers = Effect.gen(function*() {
  const sql = yield* SqlClient
  return yield* Effect.forEach(cases, ({ agency, limit, query }) =>
    Effect.map(
      previousStatement(sql, query, limit, {
        table: "enforcement_documents",
        ...(agency === undefined ? {} : { agency })
      }),
      (rows: ReadonlyArray<any>) => ({
        total: rows.length === 0 ? 0 : Number(rows[0].total),
        hits: rows.map((row) => ({
          id: row.id as string,
          score: Math.round(Number(row.score) * 1000) / 1000,
          snippet: normalized(row.snippet)
        }))
      })
    ))
})

const answers = (repo: ArchiveRepo.ArchiveRepo) =>
  Effect.forEach(
    cases,
    ({ agency, limit, query }) =>
      Effect.map(repo.search(query, agency, limit), ({ hits, total }) => ({
        total,
        hits: hits.map((hit) => ({ id: hit.row.id, score: hit.score, snippet: hit.snippet }))
      }))
  )

const vectors = Effect.flatMap(
  SqlClient,
  (sql) =>
    sql<{ digest: string }>`SELECT md5(string_agg(id || ':' || search::text, '|' ORDER BY id)) AS digest
    FROM enforcement_documents`
)

/** The archive's migrations as they were before the vectors moved into the row. */
const before = areas.map((area) =>
  area.name === "enforcement"
    ? {
      ...area,
      migrations: Object.fromEntries(Object.entries(area.migrations).filter(([id]) => Number.parseInt(id) < 22))
    }
    : area
)

for (const engine of engines) {
  describe(`archive search on ${engine.name}`, () => {
    it.layer(engine.empty, { timeout: 300_000 })((it) => {
      it.effect("answers as the previous statement did, before and after the vectors move into the row", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient
          yield* runAreas(before)
          const repo = yield* ArchiveRepo.make
          yield* repo.upsert(corpus)
          const expected = yield* previousAnswers
          // the cases mean something: many matches, few, none, a filtered and a cut page
          expect(expected.map((answer) => answer.total)).toContain(0)
          expect(Math.max(...expected.map((answer) => answer.total))).toBeGreaterThan(200)
          expect(expected[cases.findIndex((c) => c.query === "societe")]?.hits.map((hit) => hit.id)).toEqual([
            "bis-case:B00012"
          ])
          const vectorsBefore = yield* vectors
          expect(yield* answers(repo)).toEqual(expected)

          const applied = yield* runAreas(areas)
          expect(applied.map((m) => `${m.area}/${m.id}`)).toContain("enforcement/22")
          expect(yield* vectors).toEqual(vectorsBefore)
          const [column] = yield* sql<{ attstorage: string }>`SELECT attstorage FROM pg_attribute
            WHERE attrelid = 'enforcement_documents'::regclass AND attname = 'search'`
          expect(column?.attstorage).toBe("m")
          // the rebuilt GIN index keeps its settings: no pending list
          const [index] = yield* sql<{ options: ReadonlyArray<string> | null }>`SELECT c.reloptions AS options
            FROM pg_class c WHERE c.relname = 'enforcement_documents_search'`
          expect(index?.options).toContain("fastupdate=off")
          expect(yield* answers(repo)).toEqual(expected)
          expect(yield* previousAnswers).toEqual(expected)
        }))
    })
  })
}
