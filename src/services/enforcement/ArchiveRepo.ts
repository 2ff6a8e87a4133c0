import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import type { EnforcementAgency, ParseStatus } from "../../domain/Enforcement.ts"
import { fold, search, type SearchHit } from "./ArchiveSearch.ts"
import { type ExtractedFields, noFields } from "./Fields.ts"

export { fold, queryTerms, tsQuery } from "./ArchiveSearch.ts"
export type { SearchHit }

/**
 * The enforcement archive's SQL: documents, their files by content digest, and each collector's
 * bookkeeping. One set of statements for PostgreSQL and the embedded PGlite. Full-text search
 * runs on a `tsvector` (party weighted over title over text) computed from case- and
 * accent-folded copies of the fields, so `Société` finds `societe` on both engines without an
 * extension; snippets are built from a window of the text (ArchiveSearch.ts, ArchiveSnippet.ts).
 * The vector is also copied, with the id, agency and date, to `enforcement_search` by triggers
 * (migration `enforcement/22`), which also keep its beginning there as the vector a search ranks on
 * (`enforcement/23`): the search reads that narrow table.
 */

/** Everything written for one document. */
export interface ArchiveWrite {
  readonly id: string
  readonly agency: EnforcementAgency
  /** `import` or the collector's id. */
  readonly source: string
  readonly party: string | null
  readonly title: string
  readonly date: string | null
  readonly parseStatus: ParseStatus
  readonly parseReason: string | null
  readonly parseAttempts: number
  readonly parserVersion: number
  readonly originalDocUrl: string | null
  readonly sourceUrl: string | null
  readonly pdfSha256: string | null
  readonly pages: number | null
  readonly textChars: number | null
  readonly body: string | null
  readonly fields: ExtractedFields
  readonly fingerprint: string | null
}

/** A document as the archive lists it (without its text). */
export interface ArchiveRow extends Omit<ArchiveWrite, "body"> {
  readonly hasText: boolean
  readonly removedAt: string | null
}

/** What the collectors keep per source between runs. */
export interface SourceState {
  readonly source: string
  readonly lastAttemptAt: string | null
  readonly lastSuccessAt: string | null
  readonly lastError: string | null
  readonly lastErrorAt: string | null
  readonly listed: number
  /** Listing URL → the validators of its last answer, for conditional requests. */
  readonly validators: Readonly<Record<string, Validators>>
}

export interface Validators {
  readonly etag?: string
  readonly lastModified?: string
}

/** Text longer than this is searched by its beginning: PostgreSQL caps a `tsvector` at 1 MB. */
export const searchedChars = 400_000

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

const iso = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(value as string | Date).toISOString()

const parseFields = (value: unknown): ExtractedFields => {
  const raw = typeof value === "string" ? JSON.parse(value) as unknown : value
  return typeof raw === "object" && raw !== null ? { ...noFields, ...(raw as Partial<ExtractedFields>) } : noFields
}

const rowColumns = (sql: SqlClient) =>
  sql`id, agency, source, party, title, date, parse_status, parse_reason, parse_attempts, parser_version,
    original_doc_url, source_url, pdf_sha256, pages, text_chars, fields, fingerprint, removed_at,
    body IS NOT NULL AS has_text`

const toRow = (raw: any): ArchiveRow => ({
  id: raw.id,
  agency: raw.agency,
  source: raw.source,
  party: raw.party ?? null,
  title: raw.title,
  date: raw.date ?? null,
  parseStatus: raw.parseStatus,
  parseReason: raw.parseReason ?? null,
  parseAttempts: Number(raw.parseAttempts),
  parserVersion: Number(raw.parserVersion),
  originalDocUrl: raw.originalDocUrl ?? null,
  sourceUrl: raw.sourceUrl ?? null,
  pdfSha256: raw.pdfSha256 ?? null,
  pages: raw.pages === null ? null : Number(raw.pages),
  textChars: raw.textChars === null ? null : Number(raw.textChars),
  fields: parseFields(raw.fields),
  fingerprint: raw.fingerprint ?? null,
  removedAt: iso(raw.removedAt),
  hasText: raw.hasText === true
})

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient

  const bump = sql`UPDATE enforcement_archive_version SET version = version + 1, changed_at = now()`

  const vector = (write: Pick<ArchiveWrite, "party" | "title" | "body" | "fields">) => {
    const parties = [write.party ?? "", ...write.fields.parties].join(" ")
    return sql`setweight(to_tsvector('english', ${fold(parties)}), 'A') ||
      setweight(to_tsvector('english', ${fold(write.title)}), 'B') ||
      setweight(to_tsvector('english', ${fold((write.body ?? "").slice(0, searchedChars))}), 'C')`
  }

  /** Inserts or replaces documents (and makes the change visible to version watchers). */
  const upsert = (writes: ReadonlyArray<ArchiveWrite>): Effect.Effect<void, SqlError> =>
    writes.length === 0 ? Effect.void : sql.withTransaction(Effect.gen(function*() {
      for (const w of writes) {
        yield* sql`INSERT INTO enforcement_documents (id, agency, source, party, title, date, parse_status,
            parse_reason, parse_attempts, parser_version, original_doc_url, source_url, pdf_sha256, pages,
            text_chars, body, fields, fingerprint, removed_at, updated_at, search)
          VALUES (${w.id}, ${w.agency}, ${w.source}, ${w.party}, ${w.title}, ${w.date}, ${w.parseStatus},
            ${w.parseReason}, ${w.parseAttempts}, ${w.parserVersion}, ${w.originalDocUrl}, ${w.sourceUrl},
            ${w.pdfSha256}, ${w.pages}, ${w.textChars}, ${w.body}, ${JSON.stringify(w.fields)}::jsonb,
            ${w.fingerprint}, NULL, now(), ${vector(w)})
          ON CONFLICT (id) DO UPDATE SET agency = excluded.agency, source = excluded.source,
            party = excluded.party, title = excluded.title, date = excluded.date,
            parse_status = excluded.parse_status, parse_reason = excluded.parse_reason,
            parse_attempts = excluded.parse_attempts, parser_version = excluded.parser_version,
            original_doc_url = excluded.original_doc_url, source_url = excluded.source_url,
            pdf_sha256 = excluded.pdf_sha256, pages = excluded.pages, text_chars = excluded.text_chars,
            body = excluded.body, fields = excluded.fields, fingerprint = excluded.fingerprint,
            removed_at = NULL, updated_at = now(), search = excluded.search`
      }
      yield* bump
    }))

  const body = (id: string) =>
    Effect.map(
      sql<{ body: string | null }>`SELECT body FROM enforcement_documents WHERE id = ${id}`,
      (rows) => rows[0]?.body ?? null
    )

  const get = (id: string) =>
    Effect.map(
      sql`SELECT ${rowColumns(sql)} FROM enforcement_documents WHERE id = ${id}`,
      (rows) => (rows[0] === undefined ? undefined : toRow(rows[0]))
    )

  /** The full stored form of some documents (text included), for re-parsing and bundles. */
  const full = (ids: ReadonlyArray<string>) =>
    ids.length === 0 ? Effect.succeed([] as Array<ArchiveWrite>) : Effect.map(
      sql`SELECT ${rowColumns(sql)}, body FROM enforcement_documents WHERE id IN ${sql.in(ids)} ORDER BY id`,
      (rows) =>
        rows.map((raw: any): ArchiveWrite => {
          const { hasText: _hasText, removedAt: _removedAt, ...row } = toRow(raw)
          return { ...row, body: raw.body ?? null }
        })
    )

  /** Every document, newest first (undated last), then by id. */
  const all = Effect.map(
    sql`SELECT ${rowColumns(sql)} FROM enforcement_documents ORDER BY date DESC NULLS LAST, id`,
    (rows) => rows.map(toRow)
  )

  const bySource = (source: string) =>
    Effect.map(
      sql`SELECT ${rowColumns(sql)} FROM enforcement_documents WHERE source = ${source}`,
      (rows) => rows.map(toRow)
    )

  const list = (agency: EnforcementAgency | undefined, limit: number) =>
    Effect.map(
      sql`SELECT ${rowColumns(sql)}, count(*) OVER () AS total FROM enforcement_documents
        WHERE ${agency === undefined ? sql`true` : sql`agency = ${agency}`}
        ORDER BY date DESC NULLS LAST, id LIMIT ${limit}`,
      (rows) => ({ rows: rows.map(toRow), total: rows.length === 0 ? 0 : Number(rows[0]!.total) })
    )

  /** Counts by agency, parse status and source; the newest change. */
  const counts = Effect.gen(function*() {
    const rows = yield* sql<{ agency: string; source: string; parseStatus: string; removed: boolean; n: unknown }>`
      SELECT agency, source, parse_status, removed_at IS NOT NULL AS removed, count(*) AS n
      FROM enforcement_documents GROUP BY agency, source, parse_status, removed_at IS NOT NULL`
    const version = yield* sql<{ version: unknown; changedAt: unknown }>`
      SELECT version, changed_at FROM enforcement_archive_version`
    return {
      groups: rows.map((row) => ({ ...row, n: Number(row.n) })),
      changedAt: iso(version[0]?.changedAt),
      version: Number(version[0]?.version ?? 0)
    }
  })

  const version = Effect.map(
    sql<{ version: unknown }>`SELECT version FROM enforcement_archive_version`,
    (rows) => Number(rows[0]?.version ?? 0)
  )

  const markRemoved = (ids: ReadonlyArray<string>) =>
    ids.length === 0 ? Effect.void : sql.withTransaction(Effect.zipRight(
      sql`UPDATE enforcement_documents SET removed_at = now(), updated_at = now()
        WHERE id IN ${sql.in(ids)} AND removed_at IS NULL`,
      bump
    ))

  const putFile = (bytes: Uint8Array) =>
    Effect.gen(function*() {
      const digest = sha256(bytes)
      yield* sql`INSERT INTO enforcement_files (sha256, bytes) VALUES (${digest}, ${bytes})
        ON CONFLICT (sha256) DO NOTHING`
      return digest
    })

  const file = (digest: string) =>
    Effect.map(
      sql<{ bytes: Uint8Array }>`SELECT bytes FROM enforcement_files WHERE sha256 = ${digest}`,
      (rows) => (rows[0] === undefined ? undefined : new Uint8Array(rows[0].bytes))
    )

  /** The digest and size of every stored file a document refers to (what a bundle would carry). */
  const referencedFiles = Effect.map(
    sql<{ sha256: string; n: unknown }>`SELECT sha256, octet_length(bytes) AS n FROM enforcement_files f
      WHERE EXISTS (SELECT 1 FROM enforcement_documents d WHERE d.pdf_sha256 = f.sha256) ORDER BY sha256`,
    (rows) => rows.map((row) => ({ sha256: row.sha256, bytes: Number(row.n) }))
  )

  /** Restores when documents were marked removed (an upsert clears the mark). */
  const restoreRemoved = (removed: ReadonlyArray<{ readonly id: string; readonly at: string }>) =>
    Effect.forEach(
      removed,
      ({ at, id }) => sql`UPDATE enforcement_documents SET removed_at = ${at}::timestamptz WHERE id = ${id}`,
      { discard: true }
    )

  /** Files no document refers to any more (a replaced PDF). */
  const pruneFiles = sql`DELETE FROM enforcement_files f
    WHERE NOT EXISTS (SELECT 1 FROM enforcement_documents d WHERE d.pdf_sha256 = f.sha256)`

  const clear = sql.withTransaction(Effect.zipRight(sql`DELETE FROM enforcement_documents`, bump))

  // ---- collector bookkeeping ----

  const toState = (raw: any): SourceState => ({
    source: raw.source,
    lastAttemptAt: iso(raw.lastAttemptAt),
    lastSuccessAt: iso(raw.lastSuccessAt),
    lastError: raw.lastError ?? null,
    lastErrorAt: iso(raw.lastErrorAt),
    listed: Number(raw.listed),
    validators: typeof raw.validators === "string" ? JSON.parse(raw.validators) : raw.validators ?? {}
  })

  const sourceStates = Effect.map(sql`SELECT * FROM enforcement_sources ORDER BY source`, (rows) => rows.map(toState))

  const sourceState = (source: string) =>
    Effect.map(
      sql`SELECT * FROM enforcement_sources WHERE source = ${source}`,
      (rows) => (rows[0] === undefined ? undefined : toState(rows[0]))
    )

  /**
   * Takes the source's lease for `millis` unless another instance holds it: one conditional
   * statement, so two instances sharing PostgreSQL never collect the same source together.
   */
  const lease = (source: string, millis: number) =>
    Effect.map(
      sql`INSERT INTO enforcement_sources (source, last_attempt_at, lease_until)
        VALUES (${source}, now(), now() + ${millis} * interval '1 millisecond')
        ON CONFLICT (source) DO UPDATE SET last_attempt_at = now(), lease_until = excluded.lease_until
        WHERE enforcement_sources.lease_until IS NULL OR enforcement_sources.lease_until < now()
        RETURNING source`,
      (rows) => rows.length > 0
    )

  const succeeded = (source: string, listed: number, validators: Readonly<Record<string, Validators>>) =>
    sql`UPDATE enforcement_sources SET last_success_at = now(), last_error = NULL, listed = ${listed},
      validators = ${JSON.stringify(validators)}::jsonb, lease_until = NULL WHERE source = ${source}`

  const failed = (source: string, reason: string) =>
    sql`UPDATE enforcement_sources SET last_error = ${reason.slice(0, 1000)}, last_error_at = now(),
      lease_until = NULL WHERE source = ${source}`

  return {
    /** Runs statements as one transaction (nested calls join it). */
    withTransaction: sql.withTransaction,
    upsert,
    body,
    get,
    full,
    all,
    bySource,
    list,
    search: search(sql, rowColumns(sql), toRow),
    counts,
    version,
    markRemoved,
    putFile,
    file,
    pruneFiles,
    referencedFiles,
    restoreRemoved,
    clear,
    sourceStates,
    sourceState,
    lease,
    succeeded,
    failed
  }
})

export type ArchiveRepo = Effect.Effect.Success<typeof make>
