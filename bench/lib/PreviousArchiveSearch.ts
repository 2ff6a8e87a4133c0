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
