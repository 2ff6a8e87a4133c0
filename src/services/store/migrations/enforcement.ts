import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { MigrationArea } from "./Area.ts"

/**
 * The enforcement archive: documents with their parsed text and a full-text vector (GIN-indexed,
 * searched with PostgreSQL's own ranking and `ts_headline`, the same SQL on PGlite), stored files
 * by content digest, each collector's bookkeeping (last success and error, conditional-request
 * validators, a lease so one instance collects at a time) and a version bumped on every change.
 */
const archive = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`CREATE TABLE enforcement_documents (
    id text PRIMARY KEY,
    agency text NOT NULL,
    source text NOT NULL,
    party text,
    title text NOT NULL,
    date text,
    parse_status text NOT NULL,
    parse_reason text,
    parse_attempts integer NOT NULL DEFAULT 0,
    parser_version integer NOT NULL DEFAULT 0,
    original_doc_url text,
    source_url text,
    pdf_sha256 text,
    pages integer,
    text_chars integer,
    body text,
    fields jsonb NOT NULL DEFAULT '{}'::jsonb,
    fingerprint text,
    removed_at timestamptz,
    collected_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    search tsvector NOT NULL
  )`
  yield* sql`CREATE INDEX enforcement_documents_search ON enforcement_documents USING GIN (search)`
  yield* sql`CREATE INDEX enforcement_documents_newest ON enforcement_documents (date DESC NULLS LAST, id)`
  yield* sql`CREATE INDEX enforcement_documents_source ON enforcement_documents (source, parse_status)`
  yield* sql`CREATE TABLE enforcement_files (
    sha256 text PRIMARY KEY,
    bytes bytea NOT NULL,
    stored_at timestamptz NOT NULL DEFAULT now()
  )`
  yield* sql`CREATE TABLE enforcement_sources (
    source text PRIMARY KEY,
    last_attempt_at timestamptz,
    last_success_at timestamptz,
    last_error text,
    last_error_at timestamptz,
    listed integer NOT NULL DEFAULT 0,
    validators jsonb NOT NULL DEFAULT '{}'::jsonb,
    lease_until timestamptz
  )`
  yield* sql`CREATE TABLE enforcement_archive_version (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    version bigint NOT NULL,
    changed_at timestamptz NOT NULL
  )`
  yield* sql`INSERT INTO enforcement_archive_version (singleton, version, changed_at) VALUES (true, 0, now())`
})

/**
 * The search index without a pending list. With `fastupdate` on, new entries wait in an unsorted
 * list that every search reads in full until a vacuum merges them; the embedded engine runs no
 * autovacuum, so the list only grew (about a third of a search's cost over 1,100 documents).
 * Archive writes are batch imports, where merging at once costs little.
 */
const searchIndexWithoutPendingList = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`ALTER INDEX enforcement_documents_search SET (fastupdate = off)`
  yield* sql`SELECT gin_clean_pending_list('enforcement_documents_search'::regclass)`
})

/**
 * What a search reads, in a narrow table of its own: id, agency, date and the search vector, the
 * vector kept in the row (storage `main`) where it fits in a page. Ranking a broad query reads every
 * match's vector; out of line each was a TOAST index lookup and four chunks, half a search's cost
 * over 1,100 documents. Kept in the documents row instead, it made every scan of that table slower
 * (stats, the catalog), so it lives beside it.
 *
 * Rolling upgrade: instances of the previous release keep writing `enforcement_documents` (its
 * `search` column and index stay, and they search them), so triggers copy every written row here,
 * whoever wrote it, and the foreign key removes a deleted document's row. The triggers exist before
 * the copy is filled, and creating them locks out writers until the migration commits: a row written
 * meanwhile is either in the copy or waits and passes through a trigger. Until no instance of the
 * previous release remains, a changed document is indexed twice (about 1.7 times the CPU of writing
 * it before on the embedded engine; a rewrite of an unchanged one costs the same as before): a later
 * migration can drop the documents table's search index once nothing searches it.
 */
const searchTable = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`CREATE TABLE enforcement_search (
    id text PRIMARY KEY REFERENCES enforcement_documents (id) ON DELETE CASCADE ON UPDATE CASCADE,
    agency text NOT NULL,
    date text,
    search tsvector NOT NULL
  )`
  yield* sql`ALTER TABLE enforcement_search ALTER COLUMN search SET STORAGE MAIN`
  yield* sql`CREATE FUNCTION enforcement_search_copy() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO enforcement_search (id, agency, date, search) VALUES (NEW.id, NEW.agency, NEW.date, NEW.search)
      ON CONFLICT (id) DO UPDATE SET agency = excluded.agency, date = excluded.date, search = excluded.search;
      RETURN NULL;
    END $$`
  yield* sql`CREATE TRIGGER enforcement_search_inserted AFTER INSERT ON enforcement_documents
    FOR EACH ROW EXECUTE FUNCTION enforcement_search_copy()`
  // an unchanged document written again (a collector's rerun) leaves its copy and index entries alone
  yield* sql`CREATE TRIGGER enforcement_search_updated AFTER UPDATE OF agency, date, search ON enforcement_documents
    FOR EACH ROW WHEN (OLD.agency IS DISTINCT FROM NEW.agency OR OLD.date IS DISTINCT FROM NEW.date
      OR OLD.search IS DISTINCT FROM NEW.search)
    EXECUTE FUNCTION enforcement_search_copy()`
  yield* sql`INSERT INTO enforcement_search (id, agency, date, search)
    SELECT id, agency, date, search FROM enforcement_documents`
  yield* sql`CREATE INDEX enforcement_search_search ON enforcement_search USING GIN (search) WITH (fastupdate = off)`
})

/**
 * What a search ranks on: the beginning of the search vector, in word positions (party, title and
 * text counted together, a hyphenated word with its parts: about the text's first 1,000 words)...
 */
export const rankedPositions = 1_200

/**
 * ...and in bytes, so that it stays in the search row (a row must fit in an 8 KB page, with the id
 * and the whole vector's pointer beside it). The first 1,200 positions of a text with a rich
 * vocabulary take more; its cut comes earlier. The archive benchmark's 900-word documents (1,075
 * positions, 7,766 bytes at most) keep their whole vector and rank exactly as before.
 */
export const rankedBytes = 7_900

/**
 * What a search ranks on, kept apart from what it matches on: `rank`, the search vector cut at
 * `rankedPositions` or `rankedBytes`, whichever comes first, kept in the row (storage `main`), and
 * the whole vector moved out of it (storage `extended`: compressed, then out of line when over
 * 2 KB). A real document's vector runs to tens of KB, out of line and compressed, and `ts_rank_cd`
 * on it fetched and decompressed the whole of it for every match of a broad query; matching never
 * reads it (the GIN index answers `@@` without a recheck), so a search now reads one row per match
 * whatever the document's length. Occurrences past the cut still match and count in `total`; they
 * no longer add to the score (a document matching only past it scores 0 and comes after the others).
 *
 * Rolling upgrade as in `enforcement/22`: the copy trigger's function (replaced in place, so both
 * triggers call the new body) fills `rank` from the vector for every write to the documents table,
 * by this release or the previous one; the column is added, which locks out those writes (and the
 * previous release's searches) until the migration commits, before the rows already copied are
 * filled (on PostgreSQL, 4 s for 400 real-length documents on a busy machine).
 */
const rankVector = Effect.gen(function*() {
  const sql = yield* SqlClient
  const cap = sql.literal(`${rankedPositions}::smallint`)
  // occurrences in position order, each costing what it adds to the stored vector (a lexeme's
  // first: its entry, its text padded to even, a count and a position; any other: a position), kept
  // while the total, with the vector's 8-byte header, is within the budget. A lexeme's positions are
  // sorted, so those up to the cut are a slice found by binary search, and a lexeme first seen past
  // it is skipped before its positions are read (a third of the cost). The vector is written back
  // as text, each lexeme quoted with its quotes and backslashes doubled. A vector within both
  // bounds (the 900-word benchmark's, a short notice) is taken as it is, at the cost of one pass
  // over its lexemes: rebuilding it took more than half the CPU of writing the document.
  yield* sql`CREATE FUNCTION enforcement_search_rank(vector tsvector) RETURNS tsvector
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT CASE WHEN whole.fits THEN vector ELSE (
          SELECT coalesce(string_agg(kept.quoted || ':' || kept.positions, ' '), '')::tsvector
          FROM (
            SELECT '''' || replace(replace(costed.lexeme, '\\', '\\\\'), '''', '''''') || '''' AS quoted,
              string_agg(costed.p || costed.w, ',' ORDER BY costed.p)
                FILTER (WHERE costed.bytes <= ${sql.literal(String(rankedBytes))}) AS positions
            FROM (
              SELECT o.lexeme, o.p, o.w, 8 + sum(CASE WHEN o.nth = 1
                  THEN 8 + octet_length(o.lexeme) + octet_length(o.lexeme) % 2 ELSE 2 END)
                OVER (ORDER BY o.p, o.lexeme ROWS UNBOUNDED PRECEDING) AS bytes
              FROM (
                SELECT u.lexeme, x.p, x.w, x.nth
                FROM unnest(vector) AS u(lexeme, positions, weights),
                  unnest(u.positions[:width_bucket(${cap}, u.positions)], u.weights[:width_bucket(${cap}, u.positions)])
                    WITH ORDINALITY AS x(p, w, nth)
                WHERE u.positions[1] <= ${cap}
              ) AS o
            ) AS costed
            GROUP BY costed.lexeme
          ) AS kept
          WHERE kept.positions IS NOT NULL
      ) END
      FROM (
        SELECT coalesce(bool_and(u.positions IS NOT NULL), true)
          AND coalesce(max(u.positions[cardinality(u.positions)]), 0) <= ${cap}
          AND 8 + coalesce(sum(6 + octet_length(u.lexeme) + octet_length(u.lexeme) % 2
            + 2 * cardinality(u.positions)), 0) <= ${sql.literal(String(rankedBytes))} AS fits
        FROM unnest(vector) AS u(lexeme, positions, weights)
      ) AS whole
    $$`
  yield* sql`ALTER TABLE enforcement_search ADD COLUMN rank tsvector`
  yield* sql`ALTER TABLE enforcement_search ALTER COLUMN rank SET STORAGE MAIN`
  yield* sql`ALTER TABLE enforcement_search ALTER COLUMN search SET STORAGE EXTENDED`
  yield* sql`CREATE OR REPLACE FUNCTION enforcement_search_copy() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO enforcement_search (id, agency, date, search, rank)
      VALUES (NEW.id, NEW.agency, NEW.date, NEW.search, enforcement_search_rank(NEW.search))
      ON CONFLICT (id) DO UPDATE SET agency = excluded.agency, date = excluded.date, search = excluded.search,
        rank = excluded.rank;
      RETURN NULL;
    END $$`
  // every row is rewritten: its index entries are built again at once rather than one row at a time
  // (a third of the time over real-length documents)
  yield* sql`DROP INDEX enforcement_search_search`
  yield* sql`UPDATE enforcement_search SET rank = enforcement_search_rank(search)`
  yield* sql`CREATE INDEX enforcement_search_search ON enforcement_search USING GIN (search) WITH (fastupdate = off)`
  yield* sql`ALTER TABLE enforcement_search ALTER COLUMN rank SET NOT NULL`
})

/** Migrations of the enforcement archive: ids 20–39. Append new ones at the end; never edit a merged one. */
export const enforcement: MigrationArea = {
  name: "enforcement",
  ids: { first: 20, last: 39 },
  migrations: {
    "20_enforcement_archive": archive,
    "21_archive_search_without_pending_list": searchIndexWithoutPendingList,
    "22_archive_search_table": searchTable,
    "23_archive_search_rank": rankVector
  }
}
