import { Clock, Context, Effect, Layer, Ref } from "effect"
import { join } from "node:path"
import {
  type EnforcementArchiveStats,
  EnforcementContentUnavailable,
  type EnforcementDocument,
  type EnforcementDocumentDetail,
  type EnforcementDocumentList,
  EnforcementDocumentNotFound,
  type EnforcementDocumentsParams
} from "../domain/Enforcement.ts"
import { AppConfig } from "./AppConfig.ts"
import { DataGeneration } from "./DataGeneration.ts"
import * as ArchiveIndex from "./enforcement/ArchiveIndex.ts"
import * as ArchiveStore from "./enforcement/ArchiveStore.ts"
import type { StoredDocument } from "./enforcement/ArchiveStore.ts"

/**
 * The enforcement document archive: metadata, stored PDFs and their parsed text, with a full-text
 * index over party, title and text. It is filled by the operator import
 * (`npm run enforcement -- import <dir>`) into the embedded store under `DATA_DIR`; a running
 * service notices a new import within seconds and swaps to it whole.
 */
export interface EnforcementLakeShape {
  readonly search: (params: Omit<EnforcementDocumentsParams, "stats">) => Effect.Effect<EnforcementDocumentList>
  readonly stats: Effect.Effect<EnforcementArchiveStats>
  /** Every document, newest first: the same object until the next import, so callers may key derived data on it. */
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
  /** When the archive was imported; null when nothing was. */
  readonly importedAt: string | null
}

export class EnforcementLake extends Context.Tag("app/EnforcementLake")<EnforcementLake, EnforcementLakeShape>() {}

export const defaultLimit = 20

/** How often a running service looks for a newer import. */
const recheckMillis = 5_000

interface Snapshot {
  readonly generation: string | undefined
  readonly importedAt: string | null
  readonly byId: ReadonlyMap<string, StoredDocument>
  /** Newest first (undated last), then by id. */
  readonly newest: ReadonlyArray<StoredDocument>
  readonly index: ArchiveIndex.ArchiveIndex | undefined
}

const empty: Snapshot = { generation: undefined, importedAt: null, byId: new Map(), newest: [], index: undefined }

const byDateThenId = (a: StoredDocument, b: StoredDocument) => {
  if (a.date !== b.date) return a.date === null ? 1 : b.date === null ? -1 : a.date < b.date ? 1 : -1
  return a.id < b.id ? -1 : 1
}

const snapshotOf = (loaded: ArchiveStore.LoadedGeneration): Snapshot => ({
  generation: loaded.name,
  importedAt: loaded.catalog.imported_at,
  byId: new Map(loaded.catalog.documents.map((document) => [document.id, document])),
  newest: [...loaded.catalog.documents].sort(byDateThenId),
  index: ArchiveIndex.load(loaded.indexJson)
})

const decoder = new TextDecoder()

export const make = (root: string) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const generation = yield* DataGeneration
    const store = ArchiveStore.make(root)
    const base = config.publicBaseUrl
    const link = (id: string, representation?: "text" | "file") =>
      `${base}/api/enforcement/docs/${encodeURIComponent(id)}${
        representation === undefined ? "" : `/${representation}`
      }`

    const loadCurrent = (known: string | undefined) =>
      Effect.tryPromise(async () => {
        const name = await store.currentName()
        if (name === known) return undefined
        return name === undefined ? empty : snapshotOf(await store.load(name))
      })

    const initial = yield* loadCurrent(undefined).pipe(
      Effect.map((snapshot) => snapshot ?? empty),
      Effect.catchAll((error) =>
        Effect.as(
          Effect.logError("enforcement archive unreadable; serving it empty", { cause: String(error.error) }),
          empty
        )
      )
    )
    const current = yield* Ref.make(initial)
    const checkedAt = yield* Ref.make(yield* Clock.currentTimeMillis)
    const reload = yield* Effect.makeSemaphore(1)

    /** The archive as of the latest import, re-read when another generation went live. */
    const snapshot = Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      if (now - (yield* Ref.get(checkedAt)) < recheckMillis) return yield* Ref.get(current)
      return yield* reload.withPermits(1)(Effect.gen(function*() {
        if (now - (yield* Ref.get(checkedAt)) < recheckMillis) return yield* Ref.get(current)
        yield* Ref.set(checkedAt, now)
        const known = yield* Ref.get(current)
        const next = yield* loadCurrent(known.generation).pipe(
          Effect.catchAll((error) =>
            Effect.as(Effect.logError("enforcement archive reload failed", { cause: String(error.error) }), undefined)
          )
        )
        if (next === undefined) return known
        yield* Ref.set(current, next)
        yield* generation.bump
        yield* Effect.logInfo("enforcement archive reloaded", { documents: next.byId.size })
        return next
      }))
    })

    const view = (document: StoredDocument): EnforcementDocument => ({
      id: document.id,
      agency: document.agency,
      party: document.party,
      title: document.title,
      date: document.date,
      parse_status: document.parse_status,
      file_url: document.pdf_sha256 === null ? null : link(document.id, "file"),
      text_url: document.text_sha256 === null ? null : link(document.id, "text"),
      original_doc_url: document.original_doc_url,
      source_url: document.source_url,
      pages: document.pages,
      text_chars: document.text_chars
    })

    const readText = (digest: string) =>
      Effect.map(Effect.promise(() => store.readBlob(digest, "md")), (bytes) => decoder.decode(bytes))

    const find = (id: string) =>
      Effect.flatMap(snapshot, (s) => {
        const document = s.byId.get(id)
        return document === undefined
          ? Effect.fail(new EnforcementDocumentNotFound({ detail: `The archive holds no document ${id}.`, id }))
          : Effect.succeed(document)
      })

    const unavailable = (document: StoredDocument, what: string) =>
      new EnforcementContentUnavailable({
        detail: `Document ${document.id} has no stored ${what} (parse_status ${document.parse_status}).` +
          (document.original_doc_url === null ? "" : ` The upstream PDF: ${document.original_doc_url}`),
        id: document.id,
        parse_status: document.parse_status
      })

    const search: EnforcementLakeShape["search"] = (params) =>
      Effect.gen(function*() {
        const s = yield* snapshot
        const limit = params.limit ?? defaultLimit
        const inAgency = (document: StoredDocument) => params.agency === undefined || document.agency === params.agency
        if (params.q === undefined) {
          const listed = s.newest.filter(inAgency)
          const page = listed.slice(0, limit).map((document) => ({
            ...view(document),
            score: null,
            match_snippet: null
          }))
          return {
            query: null,
            agency: params.agency ?? null,
            count: page.length,
            total: listed.length,
            documents: page
          }
        }
        const terms = ArchiveIndex.queryTerms(params.q)
        const hits = (s.index?.search(params.q) ?? []).flatMap((hit) => {
          const document = s.byId.get(hit.id)
          return document !== undefined && inAgency(document) ? [{ document, score: hit.score }] : []
        })
        const page = yield* Effect.forEach(hits.slice(0, limit), ({ document, score }) =>
          Effect.map(
            document.text_sha256 === null ? Effect.succeed("") : readText(document.text_sha256),
            (text) => ({
              ...view(document),
              score: Math.round(score * 1000) / 1000,
              match_snippet: ArchiveIndex.snippet(text, terms) ?? ArchiveIndex.snippet(document.title, terms) ??
                (document.party === null ? null : ArchiveIndex.snippet(document.party, terms))
            })
          ), { concurrency: 8 })
        return {
          query: params.q,
          agency: params.agency ?? null,
          count: page.length,
          total: hits.length,
          documents: page
        }
      })

    const stats = Effect.map(snapshot, (s): EnforcementArchiveStats => {
      const byAgency = { BIS: 0, DDTC: 0, DOJ: 0 }
      for (const document of s.newest) byAgency[document.agency]++
      return {
        total: s.newest.length,
        by_parse_status: ArchiveStore.tally(s.newest),
        by_agency: byAgency,
        imported_at: s.importedAt
      }
    })

    const catalogs = new WeakMap<Snapshot, ArchiveCatalog>()
    const catalog = Effect.map(snapshot, (s) => {
      let built = catalogs.get(s)
      if (built === undefined) {
        built = { documents: s.newest.map(view), importedAt: s.importedAt }
        catalogs.set(s, built)
      }
      return built
    })

    const document: EnforcementLakeShape["document"] = (id, options = {}) =>
      Effect.flatMap(find(id), (stored) => {
        if (options.includeText !== true) return Effect.succeed(view(stored))
        return Effect.map(
          stored.text_sha256 === null ? Effect.succeed(null) : readText(stored.text_sha256),
          (text) => ({ ...view(stored), text })
        )
      })

    const text: EnforcementLakeShape["text"] = (id) =>
      Effect.flatMap(
        find(id),
        (stored) =>
          stored.text_sha256 === null ? Effect.fail(unavailable(stored, "text")) : readText(stored.text_sha256)
      )

    const file: EnforcementLakeShape["file"] = (id) =>
      Effect.flatMap(find(id), (stored) => {
        const digest = stored.pdf_sha256
        if (digest === null) {
          return Effect.fail(unavailable(stored, "PDF"))
        }
        return Effect.map(Effect.promise(() => store.readBlob(digest, "pdf")), (bytes) => ({
          bytes,
          etag: `W/"${digest.slice(0, 40)}"`
        }))
      })

    return { search, stats, catalog, document, text, file } satisfies EnforcementLakeShape
  })

/** The archive under `<DATA_DIR>/enforcement`. */
export const archiveRoot = (dataDir: string) => join(dataDir, "enforcement")

export const layer: Layer.Layer<EnforcementLake, never, AppConfig | DataGeneration> = Layer.effect(
  EnforcementLake,
  Effect.flatMap(AppConfig, (config) => make(archiveRoot(config.dataDir)))
)
