import type { SqlClient } from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import { Effect } from "effect"
import type { EnforcementAgency } from "../../domain/Enforcement.ts"
import type { ArchiveRow } from "./ArchiveRepo.ts"
import { fold, highlighter } from "./ArchiveSnippet.ts"
import type { StemOptions } from "./EnglishStem.ts"

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
 * The passage the snippet is chosen from (see ArchiveSnippet.ts) when no query word is found at a
 * word start in the text: the match is then in the party or the title (given too), or in a form
 * the search for an occurrence misses. Bounded: a PDF's text runs to 100,000 characters and more,
 * and such a snippet shows the text's beginning, perhaps without a highlight in it.
 */
const headlineChars = 2_000
/**
 * Around the first literal occurrence of a query word, the passage given: two 30-word fragments
 * need little more than this, the first centred on the occurrence (about 15 words either side),
 * the second on the next one.
 */
const windowBefore = 100
const windowChars = 500
/**
 * The first literal occurrence is looked for in the text's beginning first, where a query word
 * usually is (the party and the case in the heading), then in longer beginnings, then in the whole
 * text: lower-casing a long text and dropping its accents cost about 7 ms per 100,000 characters on
 * PostgreSQL and 2.5 times that embedded, for every such hit (2 ms when the text has no letter that
 * can carry an accent, see `accentFreeCharacters`). A beginning is only searched when it is at most a
 * `prefixShare` of the text (its stored size in bytes, known without reading it), so a text without
 * the word costs at most about a third more than searching it whole at once. Only an occurrence ending
 * this far before a cut is taken from a beginning, so a word cut there, or one whose lower-casing
 * or accents depend on what follows, goes on to the next and the position is the same either way.
 */
const searchedPrefixes = [1_000, 8_000, 64_000]
const prefixShare = 4
const wholeText = 2_147_483_647
const leadMargin = 32

/** The beginnings, then the whole text (a text shorter than its cut is whole). */
const prefixesSql = (sql: SqlClient) => sql.literal(`ARRAY[${[...searchedPrefixes, wholeText].join(", ")}]::int[]`)

/**
 * Characters that neither carry nor are accents (ASCII, the Latin-1 signs, general punctuation as
 * PDFs' quotes and dashes, the euro sign, the Latin ligatures): canonical decomposition leaves them
 * as they are. A text of only these needs no accents dropped, and finding that out (a scan that
 * stops at the first other character) costs a tenth of dropping them.
 */
export const accentFreeCharacters = "\\x01-\\u00bf\\u00d7\\u00f7\\u2002-\\u206f\\u20ac\\ufb00-\\ufb06"

/**
 * Text with its accents dropped (canonical decomposition, combining marks removed), as the search
 * for a query word's occurrence is given it: otherwise it would not see `Société` as the query's
 * `societe`. Text of accent-free characters only is left as it is. (`translate` with a table of
 * accented letters was 40 times slower.)
 */
const unaccentedSql = (sql: SqlClient, text: Fragment) =>
  sql`CASE WHEN octet_length(${text}) > length(${text}) AND ${text} ~ ${sql.literal(`'[^${accentFreeCharacters}]'`)}
    THEN regexp_replace(normalize(${text}, NFD), '[\\u0300-\\u036f]', '', 'g') ELSE ${text} END`

export { fold }

/** The query's words, folded; only letters and digits reach `to_tsquery`, so no query syntax can be injected. */
export const queryTerms = (query: string): Array<string> =>
  fold(query).split(/[^\p{L}\p{N}]+/u).filter((term) => term.length > 0).slice(0, 32)

/** All words must match, the last as a prefix (type-ahead). */
export const tsQuery = (terms: ReadonlyArray<string>) =>
  terms.map((term, i) => (i === terms.length - 1 ? `${term}:*` : term)).join(" & ")

/**
 * How the engine's English stemmer treats a double letter after `-ed`/`-ing` (the one rule its
 * Snowball releases differ on, see EnglishStem.ts), asked once per client: the snippet highlights
 * a word exactly when the engine's vector matched it.
 */
const engineStemOptions = (sql: SqlClient) => {
  let known: StemOptions | undefined
  return Effect.suspend(() =>
    known !== undefined
      ? Effect.succeed(known)
      : Effect.map(
        sql<{ readonly legacy: boolean }>`SELECT ts_lexize('english_stem', 'added') = '{ad}' AS legacy`,
        ([row]) => (known = { legacyUndouble: row?.legacy === true })
      )
  )
}

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
 * The snippet (ArchiveSnippet.ts) is chosen in TypeScript from a passage the statement returns for
 * the returned page only: party, title and a window of the text around the first occurrence of a
 * query word's stem at the start of a word (inside one, as `export` in `reexport`, the window could
 * miss every real occurrence), else the text's beginning; the window is cut back to whole words.
 * (`ts_headline` took as long as matching and ranking for a broad query: it parses its whole input,
 * on the embedded engine at a quarter of a microsecond a character.) That occurrence is looked for
 * in the text's first `searchedPrefixes` lower-cased, from the shortest, and only then in the whole
 * text (subqueries kept apart with `OFFSET 0`: pulled up into the outer query, each would be
 * computed again wherever the outer query names its result), as the length of what precedes the
 * first match (`regexp_match` with a lazy `^(.*?)`, which stops there: `regexp_instr` collects every
 * match first, 14 ms embedded on a 100,000-character text with a common word; a match is letters
 * and digits after a word start, so none begins inside another and the first to end is the first
 * to begin). The words are looked for as typed as
 * well as stemmed, and a stem ending in `i` also with `y`: the English stemmer turns a final `y` into
 * `i` (`company`, `companies` both stem to `compani`, which starts neither `company` nor a query for
 * `companies` found in a text saying `company`). Stems and words are letters and digits only (see
 * `queryTerms`), so they are safe in the pattern.
 */
export const search = (sql: SqlClient, columns: Fragment, toRow: (raw: any) => ArchiveRow) => {
  const stemOptions = engineStemOptions(sql)
  return (query: string, agency: EnforcementAgency | undefined, limit: number) =>
    Effect.gen(function*() {
      const terms = queryTerms(query)
      if (terms.length === 0) return { hits: [] as Array<SearchHit>, total: 0 }
      const rows = yield* sql`WITH q AS (
        SELECT to_tsquery('english', ${tsQuery(terms)}) AS query,
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
      SELECT ${columns}, m.score, m.total, h.text AS passage
      FROM matched m JOIN enforcement_documents d USING (id) CROSS JOIN q
      LEFT JOIN LATERAL (
        SELECT found.at
        FROM (
          SELECT chars FROM unnest(${prefixesSql(sql)}) AS prefix(chars)
          WHERE chars = ${wholeText} OR chars * ${prefixShare} <= octet_length(d.body)
        ) AS prefix
        CROSS JOIN LATERAL (SELECT lower(substr(d.body, 1, prefix.chars)) AS head OFFSET 0) AS part
        CROSS JOIN LATERAL (
          SELECT length((regexp_match(${unaccentedSql(sql, sql`part.head`)}, '^(.*?)' || q.starts))[1]) + 1 AS at,
            length(part.head) AS cut
          OFFSET 0
        ) AS found
        WHERE found.cut < prefix.chars OR found.at + q.longest + ${leadMargin} <= found.cut
        LIMIT 1
      ) AS w ON true
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
      const snippet = highlighter(terms, yield* stemOptions)
      return {
        hits: rows.map((raw: any): SearchHit => ({
          row: toRow(raw),
          score: Math.round(Number(raw.score) * 1000) / 1000,
          snippet: typeof raw.passage === "string" ? snippet(raw.passage) : null
        })),
        total: rows.length === 0 ? 0 : Number(rows[0]!.total)
      }
    })
}
