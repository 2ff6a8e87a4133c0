import type { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"
import * as ArchiveRepo from "../../src/services/enforcement/ArchiveRepo.ts"

/**
 * The statement this stop replaced (sequential scans off in a transaction of their own, ranking
 * above the window that counts, the query joined to every match, the snippet position from each
 * hit's whole text lower-cased), run on the same database: the answers must be the same.
 */
export const previousStatement = (
  sql: SqlClient,
  query: string,
  limit: number,
  { agency }: { readonly agency?: string } = {}
) => {
  const terms = ArchiveRepo.queryTerms(query)
  return sql.withTransaction(Effect.zipRight(
    sql`SET LOCAL enable_seqscan = off`,
    sql`WITH q AS (SELECT to_tsquery('english', ${ArchiveRepo.tsQuery(terms)}) AS query),
      matched AS (
        SELECT d.id, ts_rank_cd(d.search, q.query) AS score, count(*) OVER () AS total
        FROM enforcement_documents d, q
        WHERE d.search @@ q.query AND ${agency === undefined ? sql`true` : sql`d.agency = ${agency}`}
        ORDER BY score DESC, d.date DESC NULLS LAST, d.id LIMIT ${limit}
      )
      SELECT d.id, m.score, m.total,
        ts_headline('english',
          concat_ws(E'\n', d.party, d.title, CASE WHEN w.at IS NULL THEN left(d.body, 100000)
            ELSE substr(d.body, greatest(1, w.at - 400), 1600) END),
          q.query,
          'MaxFragments=2, MaxWords=30, MinWords=12, StartSel=**, StopSel=**, FragmentDelimiter=" … "'
        ) AS snippet
      FROM matched m JOIN enforcement_documents d USING (id) CROSS JOIN q
      CROSS JOIN LATERAL (
        SELECT min(nullif(strpos(lowered.body, lexeme), 0)) AS at
        FROM (SELECT lower(d.body) AS body) AS lowered,
          unnest(tsvector_to_array(to_tsvector('english', ${terms.join(" ")}))) AS lexeme
      ) AS w
      ORDER BY m.score DESC, d.date DESC NULLS LAST, d.id`
  ))
}

/** A search's answer, reduced to what the comparison looks at. */
export interface Answer {
  readonly total: number
  readonly hits: ReadonlyArray<{ readonly id: string; readonly score: number; readonly snippet: string | null }>
}

const normalized = (snippet: unknown) =>
  typeof snippet === "string" && snippet.length > 0
    ? snippet.replace(/<!--[^>]*-->/g, " ").replace(/\s+/g, " ").trim()
    : null

/** The previous statement's rows as an answer, scores rounded and snippets cleaned as the repository does. */
export const previousAnswer = (rows: ReadonlyArray<any>): Answer => ({
  total: rows.length === 0 ? 0 : Number(rows[0].total),
  hits: rows.map((row) => ({
    id: row.id as string,
    score: Math.round(Number(row.score) * 1000) / 1000,
    snippet: normalized(row.snippet)
  }))
})

/** Two words stem alike, near enough: they share all but their last three letters. */
const sameStem = (word: string, term: string) => {
  let common = 0
  while (common < Math.min(word.length, term.length) && word[common] === term[common]) common++
  return common >= Math.max(1, Math.min(word.length, term.length) - 3)
}

/**
 * What differs between an answer and the previous statement's: hits, their order, scores and the
 * total must be the same. Snippets come from a narrower window than before, so they are not held
 * to the previous text: each must be words of its document (party, title, text) with a word of the
 * query in `**bold**`.
 */
export const differences = (
  now: Answer,
  before: Answer,
  query: string,
  textOf: (id: string) => string
): Array<string> => {
  const problems: Array<string> = []
  if (now.total !== before.total) problems.push(`total ${now.total}, was ${before.total}`)
  if (now.hits.length !== before.hits.length) problems.push(`${now.hits.length} hits, were ${before.hits.length}`)
  const terms = ArchiveRepo.queryTerms(query)
  now.hits.forEach((hit, i) => {
    const was = before.hits[i]
    if (hit.id !== was?.id || hit.score !== was.score) {
      problems.push(`hit ${i}: ${hit.id} ${hit.score}, was ${was?.id} ${was?.score}`)
      return
    }
    if (hit.snippet === null) return
    const bold = [...hit.snippet.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => ArchiveRepo.fold(m[1]!))
    if (!bold.some((word) => terms.some((term) => sameStem(word, term)))) {
      problems.push(`hit ${i} (${hit.id}): no query word in bold in "${hit.snippet}"`)
    }
    // word by word: a passage may run from the title into the text's window
    const text = ArchiveRepo.fold(textOf(hit.id))
    const foreign = hit.snippet.replaceAll("**", "").split(/\s+/).filter((word) =>
      word !== "…" && !text.includes(ArchiveRepo.fold(word))
    )
    if (foreign.length > 0) problems.push(`hit ${i} (${hit.id}): ${foreign.join(" ")} not in its text`)
  })
  return problems
}
