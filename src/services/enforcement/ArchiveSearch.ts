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

/**
 * Text `ts_headline` is given when no query word is found at a word start in the text: the match is
 * then in the party or the title (given too), or in a form the search for an occurrence misses.
 * Bounded, since the parser's cost grows with the text and a PDF's text runs to 100,000 characters
 * and more: such a snippet shows the text's beginning, perhaps without a highlight in it.
 */
const headlineChars = 2_000
/**
 * Around the first literal occurrence of a query word, the text `ts_headline` is given: its cost is
 * parsing that text (about 0.25 µs a character on the embedded engine, a third of a broad search at
 * 1,600 characters), and two 30-word fragments need little more than this: the first fragment
 * centred on the occurrence (about 15 words either side), the second on the next one.
 */
const windowBefore = 100
const windowChars = 500
/**
 * The first literal occurrence is looked for in the text's beginning first, where a query word
 * usually is (the party and the case in the heading): lower-casing a whole long text for every hit
 * cost more than the snippet. Only an occurrence ending this far before the cut is taken from the
 * beginning, so a word cut there, or one whose lower-casing depends on what follows, falls back to
 * the whole text and the position is the same either way.
 */
const leadChars = 1_000
const leadMargin = 32

/**
 * Text with its accents dropped (canonical decomposition, combining marks removed), as
 * `ts_headline` and the search for a query word's occurrence are given it: otherwise neither sees
 * `Société` as the query's `societe`. Text without a character beyond ASCII is left as it is, at no
 * cost. (`translate` with a table of accented letters was 40 times slower.)
 */
const unaccentedSql = (sql: SqlClient, text: Fragment) =>
  sql`CASE WHEN octet_length(${text}) > length(${text})
    THEN regexp_replace(normalize(${text}, NFD), '[\\u0300-\\u036f]', '', 'g') ELSE ${text} END`

const combiningMarks = /[\u0300-\u036f]/g

/**
 * The snippet with the letters of `original` (the text `ts_headline` was given, before its accents
 * were dropped) back. Each fragment is found in the unaccented text and copied from the original
 * letter by letter, markers kept; a fragment not found as it stands (one across a tag
 * `ts_headline` replaced) stays as it came.
 */
const withAccents = (snippet: string, original: string) => {
  // the unaccented text, and for each of its characters the original one it came from
  let unaccented = ""
  const source: Array<number> = []
  for (let i = 0; i < original.length; i++) {
    const letter = original[i]!
    const plain = letter < "\u0080" ? letter : letter.normalize("NFD").replace(combiningMarks, "")
    unaccented += plain
    for (let n = 0; n < plain.length; n++) source.push(i)
  }
  source.push(original.length)
  let from = 0
  return snippet.split(fragmentDelimiter).map((fragment) => {
    const at = unaccented.indexOf(fragment.replaceAll("**", ""), from)
    if (at < 0) return fragment
    let next = at
    const restored = fragment.split("**").map((part) => {
      const end = next + part.length
      // a letter whose marks were dropped comes back with them (the original up to the next letter)
      const piece = original.slice(source[next], source[end])
      next = end
      return piece
    }).join("**")
    from = next
    return restored
  }).join(fragmentDelimiter)
}

const fragmentDelimiter = " … "

/** Case and accents folded, as both the stored vector and the query see words. */
export const fold = (text: string) => text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()

/** The query's words, folded; only letters and digits reach `to_tsquery`, so no query syntax can be injected. */
export const queryTerms = (query: string): Array<string> =>
  fold(query).split(/[^\p{L}\p{N}]+/u).filter((term) => term.length > 0).slice(0, 32)

const joined = (operator: string) => (terms: ReadonlyArray<string>) =>
  terms.map((term, i) => (i === terms.length - 1 ? `${term}:*` : term)).join(operator)

/** All words must match, the last as a prefix (type-ahead). */
export const tsQuery = joined(" & ")

/**
 * Any of the words, for the snippet: `ts_headline` only highlights a passage holding the whole
 * query, and in a window around one word's occurrence the others are often not there, which left
 * the snippet the window's first words, unhighlighted.
 */
export const anyWordQuery = joined(" | ")

/**
 * Ranked hits (party over title over text) with a highlighted passage; `total` counts every match.
 * Matching sees the whole text (up to `searchedChars`); the score only its beginning: `rank`, the
 * vector cut at 1,200 word positions or 7,900 bytes (about the text's first 1,000 words, fewer in a
 * text of rich vocabulary; migration `enforcement/23`), so occurrences past the cut add nothing to
 * a long document's score, and one matching only there scores 0.
 *
 * Cost, measured (`npm run bench -- enforcement-archive`): matches and ranks come from the narrow
 * `enforcement_search` table (migration `enforcement/22`). Matching reads the GIN index only (no
 * recheck: the whole vector, out of line, is never read); ranking reads `rank`, kept in the row
 * whatever the document's length, so a broad query reads one page per match, where ranking on the
 * whole vector fetched and decompressed tens of KB per long document.
 * Its GIN index has no pending list (the embedded engine has no autovacuum to merge
 * one, and every search would scan it), and the query reaches the scan from the `q` row, so the
 * planner never sees its words and estimates few matches, which keeps it on the index without
 * switching sequential scans off (that took a transaction and three more round trips per search);
 * read as a sub-select it is a parameter of the scan, with no join to run per match. Every match's
 * vector is read once for `ts_rank_cd`, below the window that counts them: computed above it, the
 * window would carry each vector through its row store. Only ids, dates and scores reach the sort.
 * `ts_headline` runs on the returned page only, over a window of the text around the first
 * occurrence of a query word's stem at the start of a word (inside one, as `export` in
 * `reexport`, the window could miss every real occurrence), else over the beginning; the window is
 * cut back to whole words. That occurrence is looked for in the text's first `leadChars`
 * lower-cased, and only then in the whole text lower-cased once (subqueries kept apart with
 * `OFFSET 0`: pulled up into the outer query, each would be computed again wherever the outer query
 * names its result). The words are looked for as typed as well as stemmed, and a stem ending in
 * `i` also with `y`: the English stemmer turns a final `y` into `i` (`company`, `companies` both stem
 * to `compani`, which starts neither `company` nor a query for `companies` found in a text saying
 * `company`). Stems and words are letters and digits only (see `queryTerms`), so they are safe in
 * the pattern.
 */
export const search =
  (sql: SqlClient, columns: Fragment, toRow: (raw: any) => ArchiveRow) =>
  (query: string, agency: EnforcementAgency | undefined, limit: number) =>
    Effect.gen(function*() {
      const terms = queryTerms(query)
      if (terms.length === 0) return { hits: [] as Array<SearchHit>, total: 0 }
      const rows = yield* sql`WITH q AS (
        SELECT to_tsquery('english', ${tsQuery(terms)}) AS query,
          to_tsquery('english', ${anyWordQuery(terms)}) AS highlight,
          '\\m(' || stems.alternatives || ')' AS starts, stems.longest
        FROM (
          SELECT string_agg(DISTINCT word, '|') AS alternatives, max(length(word)) AS longest
          FROM unnest(tsvector_to_array(
            to_tsvector('english', ${terms.join(" ")}) || to_tsvector('simple', ${terms.join(" ")})
          )) AS lexeme,
            unnest(ARRAY[lexeme, regexp_replace(lexeme, 'i$', 'y')]) AS word
        ) AS stems
      ),
      matched AS (
        SELECT r.id, r.score, count(*) OVER () AS total
        FROM (
          SELECT s.id, s.date, ts_rank_cd(s.rank, (SELECT query FROM q)) AS score
          FROM enforcement_search s
          WHERE s.search @@ (SELECT query FROM q) AND ${agency === undefined ? sql`true` : sql`s.agency = ${agency}`}
          OFFSET 0
        ) AS r
        ORDER BY r.score DESC, r.date DESC NULLS LAST, r.id
        LIMIT ${limit}
      )
      SELECT ${columns}, m.score, m.total,
        ts_headline('english', ${unaccentedSql(sql, sql`h.text`)}, q.highlight,
          ${`MaxFragments=2, MaxWords=30, MinWords=12, StartSel=**, StopSel=**, FragmentDelimiter="${fragmentDelimiter}"`}
        ) AS snippet,
        CASE WHEN octet_length(h.text) > length(h.text) THEN h.text END AS headline_text
      FROM matched m JOIN enforcement_documents d USING (id) CROSS JOIN q
      CROSS JOIN LATERAL (
        SELECT CASE WHEN early.at + q.longest + ${leadMargin} <= early.cut THEN early.at
          ELSE (
            SELECT nullif(regexp_instr(${unaccentedSql(sql, sql`whole.text`)}, q.starts), 0)
            FROM (SELECT lower(d.body) AS text OFFSET 0) AS whole
          ) END AS at
        FROM (
          SELECT nullif(regexp_instr(${unaccentedSql(sql, sql`lead.head`)}, q.starts), 0) AS at,
            length(lead.head) AS cut
          FROM (SELECT lower(substr(d.body, 1, ${leadChars})) AS head OFFSET 0) AS lead
          OFFSET 0
        ) AS early
        OFFSET 0
      ) AS w
      CROSS JOIN LATERAL (
        SELECT concat(CASE WHEN w.at - ${windowBefore} <= 1 THEN ' ' END,
            substr(d.body, greatest(1, w.at - ${windowBefore}) - 1, ${windowChars + 2})) AS text
        OFFSET 0
      ) AS around
      CROSS JOIN LATERAL (
        SELECT concat_ws(E'\n', d.party, d.title, CASE WHEN w.at IS NULL THEN substr(d.body, 1, ${headlineChars})
          ELSE regexp_replace(around.text,
            CASE WHEN length(around.text) = ${windowChars + 2} THEN '^\\S*|\\S*$' ELSE '^\\S*' END, '', 'g')
          END) AS text
        OFFSET 0
      ) AS h
      ORDER BY m.score DESC, d.date DESC NULLS LAST, d.id`
      return {
        hits: rows.map((raw: any): SearchHit => ({
          row: toRow(raw),
          score: Math.round(Number(raw.score) * 1000) / 1000,
          snippet: typeof raw.snippet === "string" && raw.snippet.length > 0
            ? (typeof raw.headlineText === "string" ? withAccents(raw.snippet, raw.headlineText) : raw.snippet)
              .replace(/<!--[^>]*-->/g, " ").replace(/\s+/g, " ").trim()
            : null
        })),
        total: rows.length === 0 ? 0 : Number(rows[0]!.total)
      }
    })
