import type { SqlClient } from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import { Effect } from "effect"
import type { EnforcementAgency } from "../../domain/Enforcement.ts"
import type { ArchiveRow } from "./ArchiveRepo.ts"

/**
 * The enforcement archive's full-text search statement: ranked hits with a highlighted passage,
 * one statement for PostgreSQL and the embedded PGlite.
 */

export interface SearchHit {
  readonly row: ArchiveRow
  readonly score: number
  readonly snippet: string | null
}

/** Text `ts_headline` looks through for a snippet when no query word is found literally in the text. */
const headlineChars = 100_000
/**
 * Around the first literal occurrence of a query word, the text `ts_headline` is given: its cost
 * grows with the text it parses, and two 30-word fragments need far less than a whole document.
 */
const windowBefore = 400
const windowChars = 1_600
/**
 * The first literal occurrence is looked for in the text's beginning first, where a query word
 * usually is (the party and the case in the heading): lower-casing a whole long text for every hit
 * cost more than the snippet. Only an occurrence ending this far before the cut is taken from the
 * beginning, so a word cut there, or one whose lower-casing depends on what follows, falls back to
 * the whole text and the position is the same either way.
 */
const leadChars = 1_000
const leadMargin = 32

/** Case and accents folded, as both the stored vector and the query see words. */
export const fold = (text: string) => text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()

/** The query's words, folded; only letters and digits reach `to_tsquery`, so no query syntax can be injected. */
export const queryTerms = (query: string): Array<string> =>
  fold(query).split(/[^\p{L}\p{N}]+/u).filter((term) => term.length > 0).slice(0, 32)

/** All words must match, the last as a prefix (type-ahead). */
export const tsQuery = (terms: ReadonlyArray<string>) =>
  terms.map((term, i) => (i === terms.length - 1 ? `${term}:*` : term)).join(" & ")

/**
 * Ranked hits (party over title over text) with a highlighted passage; `total` counts every match.
 *
 * Cost, measured (`npm run bench -- enforcement-archive`): matches come from the GIN index (kept
 * without a pending list: the embedded engine has no autovacuum to merge one, and every search
 * would scan it), and the query reaches the scan from the `q` row, so the planner never sees its
 * words and estimates few matches, which keeps it on the index without switching sequential scans
 * off (that took a transaction and three more round trips per search); read as a sub-select it is
 * a parameter of the scan, with no join to run per match. Every match's vector is
 * read once for `ts_rank_cd`, below the window that counts them: computed above it, the window
 * would carry each vector kept in the row (a short document's) through its row store. Only ids,
 * dates and scores reach the sort.
 * `ts_headline` runs on the returned page only, over a window of the text around the first
 * literal occurrence of a query word (its stem), else over the beginning. That occurrence is
 * looked for in the text's first `leadChars` lower-cased, and only then in the whole text
 * lower-cased once (subqueries kept apart with `OFFSET 0`: pulled up into the outer query, each
 * would be computed again wherever the outer query names its result).
 */
export const search =
  (sql: SqlClient, columns: Fragment, toRow: (raw: any) => ArchiveRow) =>
  (query: string, agency: EnforcementAgency | undefined, limit: number) =>
    Effect.gen(function*() {
      const terms = queryTerms(query)
      if (terms.length === 0) return { hits: [] as Array<SearchHit>, total: 0 }
      const rows = yield* sql`WITH q AS (
        SELECT to_tsquery('english', ${tsQuery(terms)}) AS query, stems.stems, stems.longest
        FROM (
          SELECT array_agg(lexeme) AS stems, max(length(lexeme)) AS longest
          FROM unnest(tsvector_to_array(to_tsvector('english', ${terms.join(" ")}))) AS lexeme
        ) AS stems
      ),
      matched AS (
        SELECT r.id, r.score, count(*) OVER () AS total
        FROM (
          SELECT d.id, d.date, ts_rank_cd(d.search, (SELECT query FROM q)) AS score
          FROM enforcement_documents d
          WHERE d.search @@ (SELECT query FROM q) AND ${agency === undefined ? sql`true` : sql`d.agency = ${agency}`}
          OFFSET 0
        ) AS r
        ORDER BY r.score DESC, r.date DESC NULLS LAST, r.id
        LIMIT ${limit}
      )
      SELECT ${columns}, m.score, m.total,
        ts_headline('english',
          concat_ws(E'\n', d.party, d.title, CASE WHEN w.at IS NULL THEN left(d.body, ${headlineChars})
            ELSE substr(d.body, greatest(1, w.at - ${windowBefore}), ${windowChars}) END),
          q.query,
          'MaxFragments=2, MaxWords=30, MinWords=12, StartSel=**, StopSel=**, FragmentDelimiter=" … "'
        ) AS snippet
      FROM matched m JOIN enforcement_documents d USING (id) CROSS JOIN q
      CROSS JOIN LATERAL (SELECT lower(left(d.body, ${leadChars})) AS head OFFSET 0) AS lead
      CROSS JOIN LATERAL (
        SELECT CASE WHEN early.at + q.longest + ${leadMargin} <= length(lead.head) THEN early.at
          ELSE (
            SELECT min(nullif(strpos(lowered.whole, lexeme), 0))
            FROM (SELECT lower(d.body) AS whole OFFSET 0) AS lowered, unnest(q.stems) AS lexeme
          ) END AS at
        FROM (SELECT min(nullif(strpos(lead.head, lexeme), 0)) AS at FROM unnest(q.stems) AS lexeme) AS early
        OFFSET 0
      ) AS w
      ORDER BY m.score DESC, d.date DESC NULLS LAST, d.id`
      return {
        hits: rows.map((raw: any): SearchHit => ({
          row: toRow(raw),
          score: Math.round(Number(raw.score) * 1000) / 1000,
          snippet: typeof raw.snippet === "string" && raw.snippet.length > 0
            ? raw.snippet.replace(/<!--[^>]*-->/g, " ").replace(/\s+/g, " ").trim()
            : null
        })),
        total: rows.length === 0 ? 0 : Number(rows[0]!.total)
      }
    })
