import { Either, ParseResult, Schema } from "effect"
import { readFile, realpath, stat } from "node:fs/promises"
import { isAbsolute, join, relative, resolve } from "node:path"
import { agencyOfId, EnforcementAgency, EnforcementDocumentId, type ParseStatus } from "../../domain/Enforcement.ts"
import { IsoDate } from "../../domain/Research.ts"
import * as ArchiveIndex from "./ArchiveIndex.ts"
import { type ArchiveStore, type StoredDocument, tally } from "./ArchiveStore.ts"
import { extractMarkdown } from "./PdfText.ts"

/**
 * The operator import: `<dir>/metadata.json` (an array of records, or `{ "documents": [...] }`)
 * plus the PDFs it names by path relative to `<dir>`. Every record is validated before anything is
 * written; one invalid record aborts the import. PDFs are text-extracted here, once, so the
 * service only ever reads stored text. Without `replace`, records are merged into the current
 * archive by id (a record without a PDF keeps the PDF stored earlier for the same id).
 */

export const maxMetadataBytes = 50 * 1024 * 1024
export const maxPdfBytes = 64 * 1024 * 1024

const HttpsUrl = Schema.String.pipe(
  Schema.maxLength(2000),
  Schema.filter((value) => {
    try {
      return new URL(value).protocol === "https:" || "must be an https URL"
    } catch {
      return "must be an https URL"
    }
  })
)

const Text = (max: number) => Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(max))

export const ImportRecord = Schema.Struct({
  id: EnforcementDocumentId,
  agency: EnforcementAgency,
  title: Text(1000),
  party: Schema.optional(Schema.NullOr(Text(500))),
  date: Schema.optional(Schema.NullOr(IsoDate)),
  source_url: Schema.optional(Schema.NullOr(HttpsUrl)),
  original_doc_url: Schema.optional(Schema.NullOr(HttpsUrl)),
  pdf: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500))))
})
export type ImportRecord = typeof ImportRecord.Type

const Metadata = Schema.Union(Schema.Array(Schema.Unknown), Schema.Struct({ documents: Schema.Array(Schema.Unknown) }))

export class ImportRejected extends Error {
  constructor(readonly problems: ReadonlyArray<string>) {
    super(`import rejected: ${problems.length} problem(s)`)
  }
}

export interface ImportReport {
  readonly generation: string
  readonly imported: number
  readonly total: number
  readonly byStatus: Record<ParseStatus, number>
  /** Records whose file could not be read as a PDF (stored as `failed`). */
  readonly warnings: ReadonlyArray<string>
}

/** Where a record's issues are reported: its position and id, never field values (they may name parties). */
const describeIssues = (position: number, id: unknown, error: ParseResult.ParseError) => {
  const where = typeof id === "string" && id.length <= 120 ? `record ${position} (${id})` : `record ${position}`
  const fields = ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) =>
    issue.path.length > 0 ? issue.path.join(".") : "record"
  )
  return [...new Set(fields)].map((field) => `${where}: ${field} is invalid`)
}

const validate = (raw: ReadonlyArray<unknown>) => {
  const problems: Array<string> = []
  const records: Array<ImportRecord> = []
  const seen = new Set<string>()
  const decode = Schema.decodeUnknownEither(ImportRecord, { errors: "all" })
  raw.forEach((item, position) => {
    const id = typeof item === "object" && item !== null ? (item as { id?: unknown }).id : undefined
    const decoded = decode(item)
    if (Either.isLeft(decoded)) return void problems.push(...describeIssues(position, id, decoded.left))
    const record = decoded.right
    if (agencyOfId(record.id) !== record.agency) {
      problems.push(`record ${position} (${record.id}): agency ${record.agency} does not match the id prefix`)
    }
    if (seen.has(record.id)) problems.push(`record ${position} (${record.id}): duplicate id`)
    seen.add(record.id)
    records.push(record)
  })
  return { problems, records }
}

/** The file a record names, which must stay inside the import directory (symbolic links included). */
const resolveInside = async (dir: string, path: string) => {
  if (isAbsolute(path) || path.includes("\0")) return undefined
  const realDir = await realpath(dir)
  const real = await realpath(resolve(realDir, path)).catch(() => undefined)
  if (real === undefined) return undefined
  const inside = relative(realDir, real)
  return inside.length > 0 && !inside.startsWith("..") && !isAbsolute(inside) ? real : undefined
}

/** The checked location of a record's PDF, or the problem with it. */
const locatePdf = async (dir: string, id: string, pdf: string) => {
  const path = await resolveInside(dir, pdf)
  if (path === undefined) return { problem: `${id}: pdf ${pdf} is not a file inside the import directory` }
  const info = await stat(path)
  if (!info.isFile() || info.size > maxPdfBytes) {
    return { problem: `${id}: pdf ${pdf} is not a regular file of at most ${maxPdfBytes} bytes` }
  }
  return { path }
}

export const importDirectory = async (
  store: ArchiveStore,
  dir: string,
  options: {
    readonly replace?: boolean
    readonly now?: Date
    /** Called after each record is stored (PDFs of up to 64 MB make this the long part). */
    readonly onRecord?: (done: number, total: number) => void
  } = {}
): Promise<ImportReport> => {
  const metadataPath = join(dir, "metadata.json")
  const size = (await stat(metadataPath)).size
  if (size > maxMetadataBytes) throw new ImportRejected([`metadata.json is larger than ${maxMetadataBytes} bytes`])
  const parsed = Schema.decodeUnknownEither(Schema.parseJson(Metadata))(await readFile(metadataPath, "utf8"))
  if (Either.isLeft(parsed)) throw new ImportRejected(["metadata.json is not a JSON array of records or { documents }"])
  const raw = Array.isArray(parsed.right)
    ? parsed.right
    : (parsed.right as { documents: ReadonlyArray<unknown> }).documents
  const { problems, records } = validate(raw)

  const pdfPaths = new Map<string, string>()
  for (const record of records) {
    if (record.pdf == null) continue
    const located = await locatePdf(dir, record.id, record.pdf)
    if (located.path === undefined) problems.push(located.problem)
    else pdfPaths.set(record.id, located.path)
  }
  if (problems.length > 0) throw new ImportRejected(problems)

  const previousName = options.replace ? undefined : await store.currentName()
  const previous = previousName === undefined ? [] : (await store.load(previousName)).catalog.documents
  const byId = new Map<string, StoredDocument>(previous.map((document) => [document.id, document]))

  const warnings: Array<string> = []
  for (const [done, record] of records.entries()) {
    const path = pdfPaths.get(record.id)
    const bytes = path === undefined ? undefined : new Uint8Array(await readFile(path))
    const stored = await storedDocument(store, record, byId.get(record.id), bytes)
    if (stored.warning !== undefined) warnings.push(stored.warning)
    byId.set(record.id, stored.document)
    options.onRecord?.(done + 1, records.length)
  }

  const documents = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : 1))
  const indexed: Array<ArchiveIndex.IndexedDocument> = []
  for (const document of documents) {
    const body = document.text_sha256 === null
      ? ""
      : new TextDecoder().decode(await store.readBlob(document.text_sha256, "md"))
    indexed.push({ id: document.id, party: document.party ?? "", title: document.title, body })
  }
  const now = options.now ?? new Date()
  const catalog = { format: 1 as const, imported_at: now.toISOString(), documents }
  const generation = await store.publish(catalog, ArchiveIndex.build(indexed), now)
  return { generation, imported: records.length, total: documents.length, byStatus: tally(documents), warnings }
}

const withoutFile = { pdf_sha256: null, text_sha256: null, pages: null, text_chars: null }

/**
 * The stored form of one record. Without a file it is `pending` (a PDF is known upstream) or
 * `no_pdf`, unless a PDF was stored for the id before, which is kept; a file that is not a
 * readable PDF is `failed` (or, again, the earlier PDF is kept).
 */
const storedDocument = async (
  store: ArchiveStore,
  record: ImportRecord,
  earlier: StoredDocument | undefined,
  bytes: Uint8Array | undefined
): Promise<{ readonly document: StoredDocument; readonly warning?: string }> => {
  const base = {
    id: record.id,
    agency: record.agency,
    party: record.party ?? null,
    title: record.title,
    date: record.date ?? null,
    original_doc_url: record.original_doc_url ?? null,
    source_url: record.source_url ?? null
  }
  const keptFile = earlier !== undefined && earlier.pdf_sha256 !== null ? { ...earlier, ...base } : undefined
  if (bytes === undefined) {
    return {
      document: keptFile ??
        { ...base, ...withoutFile, parse_status: base.original_doc_url === null ? "no_pdf" : "pending" }
    }
  }
  const extracted = await extractPdf(bytes)
  if (extracted === undefined) {
    return keptFile !== undefined
      ? { document: keptFile, warning: `${record.id}: the file is not a readable PDF; the PDF stored earlier is kept` }
      : {
        document: { ...base, ...withoutFile, parse_status: "failed" },
        warning: `${record.id}: the file is not a readable PDF; recorded as failed and not stored`
      }
  }
  const text = extracted.markdown
  return {
    document: {
      ...base,
      parse_status: text.length > 0 ? "parsed" : "no_text",
      pdf_sha256: await store.putBlob(bytes, "pdf"),
      text_sha256: text.length > 0 ? await store.putBlob(new TextEncoder().encode(text), "md") : null,
      pages: extracted.pages,
      text_chars: text.length
    }
  }
}

const extractPdf = async (bytes: Uint8Array) => {
  if (!new TextDecoder().decode(bytes.subarray(0, 1024)).includes("%PDF-")) return undefined
  try {
    return await extractMarkdown(bytes)
  } catch {
    return undefined
  }
}
