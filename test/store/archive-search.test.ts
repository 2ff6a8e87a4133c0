import { SqlClient } from "@effect/sql/SqlClient"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { differences, previousAnswer, previousStatement } from "../../bench/lib/PreviousArchiveSearch.ts"
import { queries, synthetic } from "../../bench/lib/SyntheticArchive.ts"
import * as ArchiveRepo from "../../src/services/enforcement/ArchiveRepo.ts"
import { forEachEngine } from "../support/SqlEngines.ts"

/**
 * The archive search statement against the one it replaced (kept with the benchmark), on the same
 * documents: same hits in the same order, same scores and totals, and snippets that are passages of
 * each hit's text with a query word in bold, over the benchmark's queries and a few more.
 */

// a slice of the benchmark's corpus, some of it under other agencies, one document without text (found
// by its party, its snippet from party and title), one
// with accents in its party and text (folded in the vector, kept in the snippet), and one whose first
// query word straddles where the search for it in the text's beginning stops (1,000 characters), with
// a shorter query word inside it just before: the whole text has to be searched; and one whose only
// form of a query word comes late and is not its stem's start (`companies` and `company` stem to
// `compani`): looked for in the whole text as typed, stemmed and with the stemmer's `y` (the text
// with the 990-letter word is cut short, so that its vector stays within what a search ranks on,
// `rankedBytes`, and it ranks as it did before that bound)
const corpus = synthetic().slice(0, 240).map((write, i): ArchiveRepo.ArchiveWrite =>
  i === 5
    ? { ...write, body: `${"x".repeat(990)} megalaserbeam ${write.body!.slice(0, 4_000)}` }
    : i === 7
    ? { ...write, party: "Textless Holdings", body: null, textChars: null }
    : i === 11
    ? { ...write, party: "Société Générale d'Exportation", body: `${write.body}\n\nLa Société a exporté des lasers.` }
    : i === 13
    ? { ...write, body: `${write.body}\n\nThe shipping company paid in full.` }
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
    "companies",
    "textless",
    "zzzz"
  ].map((
    query
  ) => ({ query, limit: 20 })),
  { query: "lasers", agency: "DDTC", limit: 5 },
  { query: "w1a", agency: "BIS", limit: 20 },
  { query: "w1a", limit: 3 },
  { query: "export", limit: 100 }
]

/** What the previous statement answers. */
const previousAnswers = Effect.gen(function*() {
  const sql = yield* SqlClient
  return yield* Effect.forEach(cases, ({ agency, limit, query }) =>
    Effect.map(
      previousStatement(sql, query, limit, agency === undefined ? {} : { agency }),
      (rows: ReadonlyArray<any>) => previousAnswer(rows)
    ))
})

const texts = new Map(corpus.map((write) => [write.id, [write.party, write.title, write.body].join("\n")]))

const answers = (repo: ArchiveRepo.ArchiveRepo) =>
  Effect.forEach(
    cases,
    ({ agency, limit, query }) =>
      Effect.map(repo.search(query, agency, limit), ({ hits, total }) => ({
        total,
        hits: hits.map((hit) => ({ id: hit.row.id, score: hit.score, snippet: hit.snippet }))
      }))
  )

forEachEngine("archive search", (it) => {
  it.effect("answers as the previous statement did", () =>
    Effect.gen(function*() {
      const repo = yield* ArchiveRepo.make
      yield* repo.upsert(corpus)
      const expected = yield* previousAnswers
      // the cases mean something: many matches, few, none, a filtered and a cut page
      expect(expected.map((answer) => answer.total)).toContain(0)
      expect(Math.max(...expected.map((answer) => answer.total))).toBeGreaterThan(200)
      expect(expected[cases.findIndex((c) => c.query === "societe")]?.hits.map((hit) => hit.id)).toEqual([
        "bis-case:B00012"
      ])
      const now = yield* answers(repo)
      // accents folded for the highlight, and back in the snippet
      expect(now[cases.findIndex((c) => c.query === "societe")]?.hits[0]?.snippet).toMatch(
        /^\*\*Société\*\* Générale d'Exportation .*\*\*Société\*\* a exporté/
      )
      // the window comes from the late `company`, not the text's beginning (which holds no form of it)
      expect(now[cases.findIndex((c) => c.query === "companies")]?.hits.map((hit) => hit.snippet)).toEqual([
        expect.stringMatching(/shipping \*\*company\*\* paid in full/)
      ])
      // a document without text still answers, its snippet from the party and title
      expect(now[cases.findIndex((c) => c.query === "textless")]?.hits.map((hit) => hit.snippet)).toEqual([
        "**Textless** Holdings Order Relating to Synthetic Benchmark Party 8"
      ])
      expect(cases.map(({ query }, i) => differences(now[i]!, expected[i]!, query, (id) => texts.get(id) ?? "")))
        .toEqual(cases.map(() => []))
    }))
})
