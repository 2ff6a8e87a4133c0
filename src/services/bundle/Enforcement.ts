import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Schema } from "effect"
import type { BundleEnforcement } from "../../domain/Bundle.ts"
import { BundledEnforcementDocument } from "../../domain/Bundle.ts"
import type { ArchiveRepo, ArchiveWrite } from "../enforcement/ArchiveRepo.ts"
import { maxEntries, maxEntryBytes, sha256Hex } from "./Archive.ts"

/**
 * The enforcement archive in a bundle: every document row (metadata, parse outcome, parsed text,
 * extracted fields) in JSON files of bounded size, and the stored PDFs by digest when they fit the
 * PDF budget. An import upserts the rows by id, so importing the same bundle twice changes nothing.
 */

type Section = typeof BundleEnforcement.Type
type Entry = readonly [string, Uint8Array]

/** The PDFs a bundle carries at most; a bigger archive travels as texts and metadata only. */
export const maxBundledPdfBytes = 512 * 1024 * 1024
/** The PDF files a bundle carries at most, leaving the import's entry cap room for everything else. */
export const maxBundledPdfs = maxEntries - 1000
/** Rows per documents file are added until it reaches this size (well under the per-entry cap). */
const chunkBytes = Math.min(32 * 1024 * 1024, maxEntryBytes / 4)
const rowsPerRead = 200

const encoder = new TextEncoder()
const decoder = new TextDecoder()

export const documentsPath = (index: number) => `enforcement/documents-${String(index + 1).padStart(4, "0")}.json`
export const pdfPath = (sha256: string) => `enforcement/files/${sha256}.pdf`

/** The PDFs a bundle carries at most: all of them, or none (texts and metadata still travel). */
export interface PdfBudget {
  readonly bytes: number
  readonly files: number
}

export const defaultPdfBudget: PdfBudget = { bytes: maxBundledPdfBytes, files: maxBundledPdfs }

export const exportEnforcement = (repo: ArchiveRepo, budget: PdfBudget = defaultPdfBudget): Effect.Effect<
  { readonly section: Section; readonly entries: ReadonlyArray<Entry> },
  SqlError
> =>
  Effect.gen(function*() {
    const rows = yield* repo.all
    const removedAt = new Map(rows.map((row) => [row.id, row.removedAt]))
    const chunks: Array<Array<string>> = [[]]
    let size = 0
    for (let start = 0; start < rows.length; start += rowsPerRead) {
      const full = yield* repo.full(rows.slice(start, start + rowsPerRead).map((row) => row.id))
      for (const write of full) {
        const bundled: BundledEnforcementDocument = { ...write, removedAt: removedAt.get(write.id) ?? null }
        const text = JSON.stringify(bundled)
        if (size > 0 && size + text.length > chunkBytes) {
          chunks.push([])
          size = 0
        }
        chunks[chunks.length - 1]!.push(text)
        size += text.length
      }
    }
    const entries: Array<Entry> = chunks.map((chunk, index) => [
      documentsPath(index),
      encoder.encode(`[${chunk.join(",")}]`)
    ])
    const files = yield* repo.referencedFiles
    const pdfBytes = files.reduce((sum, file) => sum + file.bytes, 0)
    const included = pdfBytes <= budget.bytes && files.length <= budget.files
    if (included) {
      for (const file of files) {
        const bytes = yield* repo.file(file.sha256)
        if (bytes !== undefined) entries.push([pdfPath(file.sha256), bytes])
      }
    }
    return {
      section: {
        documents: rows.length,
        paths: entries.slice(0, chunks.length).map(([path]) => path),
        pdfs: included ? "included" : "left_out",
        pdf_bytes: pdfBytes
      },
      entries
    }
  })

/** The archive part of a verified bundle, decoded; the problems it has, if any. */
export const readEnforcement = (
  section: Section,
  files: ReadonlyArray<string>,
  read: (path: string) => Uint8Array
) =>
  Effect.gen(function*() {
    const documents: Array<BundledEnforcementDocument> = []
    for (const path of section.paths) {
      const rows = yield* Schema.decodeUnknown(Schema.parseJson(Schema.Array(BundledEnforcementDocument)))(
        decoder.decode(read(path))
      ).pipe(Effect.mapError(() => `${path} is not a list of enforcement documents`))
      documents.push(...rows)
    }
    if (documents.length !== section.documents) {
      return yield* Effect.fail(
        `the manifest counts ${section.documents} enforcement documents, the bundle holds ${documents.length}`
      )
    }
    const pdfs: Array<readonly [string, Uint8Array]> = []
    for (const path of files) {
      const digest = /^enforcement\/files\/([0-9a-f]{64})\.pdf$/.exec(path)?.[1]
      if (digest === undefined) continue
      const bytes = read(path)
      // the manifest's checksum matched already; the name must be that digest too, as the archive keys files by it
      if (sha256Hex(bytes) !== digest) return yield* Effect.fail(`${path} is not named by its SHA-256`)
      pdfs.push([digest, bytes])
    }
    return { documents, pdfs }
  })

/** Upserts the documents and their PDFs in one transaction, keeping when removed ones were removed. */
export const storeEnforcement = (
  repo: ArchiveRepo,
  archive: Effect.Effect.Success<ReturnType<typeof readEnforcement>>
) =>
  Effect.gen(function*() {
    yield* repo.withTransaction(Effect.gen(function*() {
      for (const [, bytes] of archive.pdfs) yield* repo.putFile(bytes)
      yield* repo.upsert(archive.documents.map(({ removedAt: _removedAt, ...write }): ArchiveWrite => write))
      yield* repo.restoreRemoved(
        archive.documents.flatMap((document) =>
          document.removedAt === null ? [] : [{ id: document.id, at: document.removedAt }]
        )
      )
    }))
    // PDFs replaced by the bundle's rows are no longer referred to
    yield* repo.pruneFiles
  })
