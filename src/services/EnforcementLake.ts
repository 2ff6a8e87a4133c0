import type { SqlClient } from "@effect/sql/SqlClient"
import { Context, Effect, Layer, Ref, Schedule } from "effect"
import {
  type EnforcementArchiveStats,
  EnforcementContentUnavailable,
  type EnforcementDocument,
  type EnforcementDocumentDetail,
  type EnforcementDocumentList,
  EnforcementDocumentNotFound,
  type EnforcementDocumentsParams,
  type EnforcementSourceCoverage,
  type ParseStatus,
  parseStatuses
} from "../domain/Enforcement.ts"
import { AppConfig } from "./AppConfig.ts"
import { DataGeneration } from "./DataGeneration.ts"
import * as ArchiveRepo from "./enforcement/ArchiveRepo.ts"
import type { ArchiveRow } from "./enforcement/ArchiveRepo.ts"

/**
 * The enforcement document archive on the SQL store: metadata, stored PDFs and their parsed text,
 * searched with PostgreSQL full-text search (ranked, with highlighted passages). It is filled by
 * the collectors (`EnforcementCollection`) and the operator import (`ecds enforcement import`);
 * every instance sharing the store serves the same archive.
 */
export interface EnforcementLakeShape {
  readonly search: (params: Omit<EnforcementDocumentsParams, "stats">) => Effect.Effect<EnforcementDocumentList>
  readonly stats: Effect.Effect<EnforcementArchiveStats>
  /** Every document, newest first: the same object until the archive changes, so callers may key derived data on it. */
  readonly catalog: Effect.Effect<ArchiveCatalog>
  /** `includeText` adds the parsed markdown (null when there is none); the MCP tool's `include_text`. */
  readonly document: (
    id: string,
    options?: { readonly includeText?: boolean }
  ) => Effect.Effect<EnforcementDocumentDetail, EnforcementDocumentNotFound>
  readonly text: (id: string) => Effect.Effect<string, EnforcementDocumentNotFound | EnforcementContentUnavailable>
  readonly file: (
    id: string
  ) => Effect.Effect<
    { readonly bytes: Uint8Array; readonly etag: string },
    EnforcementDocumentNotFound | EnforcementContentUnavailable
  >
}

export interface ArchiveCatalog {
  readonly documents: ReadonlyArray<EnforcementDocument>
  /** Each document's respondents as read from it (the named party first); absent for none. */
  readonly parties: ReadonlyMap<string, ReadonlyArray<string>>
  /** Statutes each document cites (for the feed's statute filter). */
  readonly statutes: ReadonlyMap<string, ReadonlyArray<string>>
  /** When the archive last changed; null when nothing was ever stored. */
  readonly importedAt: string | null
}

export class EnforcementLake extends Context.Tag("app/EnforcementLake")<EnforcementLake, EnforcementLakeShape>() {}

export const defaultLimit = 20

/** How often a running service looks for changes other processes made. */
const watchInterval = "5 seconds"

const zeroStatuses = () => Object.fromEntries(parseStatuses.map((status) => [status, 0])) as Record<ParseStatus, number>

export const make = Effect.gen(function*() {
  const config = yield* AppConfig
  const generation = yield* DataGeneration
  const repo = yield* ArchiveRepo.make
  const base = config.publicBaseUrl
  const link = (id: string, representation?: "text" | "file") =>
    `${base}/api/enforcement/docs/${encodeURIComponent(id)}${representation === undefined ? "" : `/${representation}`}`

  const view = (row: ArchiveRow): EnforcementDocument => ({
    id: row.id,
    agency: row.agency,
    party: row.party,
    title: row.title,
    date: row.date,
    parse_status: row.parseStatus,
    file_url: row.pdfSha256 === null ? null : link(row.id, "file"),
    text_url: row.hasText ? link(row.id, "text") : null,
    original_doc_url: row.originalDocUrl,
    source_url: row.sourceUrl,
    pages: row.pages,
    text_chars: row.textChars
  })

  /** A store failure is a fault of this deployment, not of the request: it surfaces as a defect (500). */
  const orDie = <A, E>(effect: Effect.Effect<A, E>) =>
    effect.pipe(
      Effect.tapError((error) => Effect.logError("enforcement archive unavailable", { cause: String(error) })),
      Effect.orDie
    )

  const find = (id: string) =>
    Effect.flatMap(orDie(repo.get(id)), (row) =>
      row === undefined
        ? Effect.fail(new EnforcementDocumentNotFound({ detail: `The archive holds no document ${id}.`, id }))
        : Effect.succeed(row))

  const unavailable = (row: ArchiveRow, what: string) =>
    new EnforcementContentUnavailable({
      detail: `Document ${row.id} has no stored ${what} (parse_status ${row.parseStatus}).` +
        (row.originalDocUrl === null ? "" : ` The upstream PDF: ${row.originalDocUrl}`),
      id: row.id,
      parse_status: row.parseStatus
    })

  const search: EnforcementLakeShape["search"] = (params) =>
    orDie(Effect.gen(function*() {
      const limit = params.limit ?? defaultLimit
      if (params.q === undefined) {
        const { rows, total } = yield* repo.list(params.agency, limit)
        return {
          query: null,
          agency: params.agency ?? null,
          count: rows.length,
          total,
          documents: rows.map((row) => ({ ...view(row), score: null, match_snippet: null }))
        }
      }
      const { hits, total } = yield* repo.search(params.q, params.agency, limit)
      return {
        query: params.q,
        agency: params.agency ?? null,
        count: hits.length,
        total,
        documents: hits.map((hit) => ({ ...view(hit.row), score: hit.score, match_snippet: hit.snippet }))
      }
    }))

  const stats = orDie(Effect.gen(function*() {
    const { changedAt, groups, version } = yield* repo.counts
    const states = yield* repo.sourceStates
    const byAgency = { BIS: 0, DDTC: 0, DOJ: 0 }
    const byStatus = zeroStatuses()
    const sources = new Map<string, EnforcementSourceCoverage>()
    const coverage = (source: string) => {
      let entry = sources.get(source)
      if (entry === undefined) {
        const state = states.find((s) => s.source === source)
        entry = {
          source,
          documents: 0,
          by_parse_status: zeroStatuses(),
          removed_upstream: 0,
          listed: state?.lastSuccessAt == null ? null : state.listed,
          last_success_at: state?.lastSuccessAt ?? null,
          last_attempt_at: state?.lastAttemptAt ?? null,
          last_error: state?.lastError ?? null,
          last_error_at: state?.lastErrorAt ?? null
        }
        sources.set(source, entry)
      }
      return entry
    }
    let total = 0
    for (const group of groups) {
      const status = group.parseStatus as ParseStatus
      total += group.n
      byAgency[group.agency as keyof typeof byAgency] += group.n
      byStatus[status] += group.n
      const entry = coverage(group.source)
      sources.set(group.source, {
        ...entry,
        documents: entry.documents + group.n,
        by_parse_status: { ...entry.by_parse_status, [status]: entry.by_parse_status[status] + group.n },
        removed_upstream: entry.removed_upstream + (group.removed ? group.n : 0)
      })
    }
    for (const state of states) coverage(state.source)
    return {
      total,
      by_parse_status: byStatus,
      by_agency: byAgency,
      imported_at: version === 0 ? null : changedAt,
      by_source: [...sources.values()].sort((a, b) => a.source.localeCompare(b.source))
    }
  }))

  // Another process (the CLI import, another instance's collector) may change the archive: the
  // version is watched, so response caches drop answers built from an older archive within seconds.
  const seen = yield* Ref.make(yield* repo.version.pipe(Effect.orElseSucceed(() => 0)))
  yield* repo.version.pipe(
    Effect.flatMap((version) =>
      Ref.getAndSet(seen, version).pipe(
        Effect.flatMap((before) => (before === version ? Effect.void : generation.bump))
      )
    ),
    Effect.catchAll(() => Effect.void),
    Effect.repeat(Schedule.spaced(watchInterval)),
    Effect.forkScoped
  )

  const cached = yield* Ref.make<{ readonly version: number; readonly catalog: ArchiveCatalog } | undefined>(undefined)
  const catalog = orDie(Effect.gen(function*() {
    const version = yield* repo.version
    const known = yield* Ref.get(cached)
    if (known !== undefined && known.version === version) return known.catalog
    const [rows, counts] = yield* Effect.all([repo.all, repo.counts])
    const built: ArchiveCatalog = {
      documents: rows.map(view),
      parties: new Map(rows.flatMap((row) => row.fields.parties.length === 0 ? [] : [[row.id, row.fields.parties]])),
      statutes: new Map(rows.map((row) => [row.id, row.fields.statutes])),
      importedAt: counts.version === 0 ? null : counts.changedAt
    }
    yield* Ref.set(cached, { version, catalog: built })
    return built
  }))

  const document: EnforcementLakeShape["document"] = (id, options = {}) =>
    Effect.flatMap(find(id), (row) => {
      const detail: EnforcementDocumentDetail = {
        ...view(row),
        parse_reason: row.parseReason,
        parse_attempts: row.parseAttempts,
        extracted: row.fields
      }
      if (options.includeText !== true) return Effect.succeed(detail)
      return Effect.map(orDie(repo.body(row.id)), (text) => ({ ...detail, text }))
    })

  const text: EnforcementLakeShape["text"] = (id) =>
    Effect.flatMap(find(id), (row) =>
      Effect.flatMap(
        row.hasText ? orDie(repo.body(row.id)) : Effect.succeed(null),
        (body) => (body === null ? Effect.fail(unavailable(row, "text")) : Effect.succeed(body))
      ))

  const file: EnforcementLakeShape["file"] = (id) =>
    Effect.flatMap(find(id), (row) => {
      const digest = row.pdfSha256
      if (digest === null) return Effect.fail(unavailable(row, "PDF"))
      return Effect.flatMap(orDie(repo.file(digest)), (bytes) =>
        bytes === undefined
          ? Effect.fail(unavailable(row, "PDF"))
          : Effect.succeed({ bytes, etag: `W/"${digest.slice(0, 40)}"` }))
    })

  return { search, stats, catalog, document, text, file } satisfies EnforcementLakeShape
})

export const layer: Layer.Layer<EnforcementLake, never, AppConfig | DataGeneration | SqlClient> = Layer.scoped(
  EnforcementLake,
  make
)
