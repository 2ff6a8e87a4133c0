import type { SqlError } from "@effect/sql/SqlError"
import { Data, Effect, Either, ParseResult, Schema } from "effect"
import { readFile, realpath, stat } from "node:fs/promises"
import { isAbsolute, join, relative, resolve } from "node:path"
import {
  agencyOfId,
  EnforcementAgency,
  EnforcementDocumentId,
  type ParseStatus,
  parseStatuses
} from "../../domain/Enforcement.ts"
import { IsoDate } from "../../domain/Research.ts"
import type { ArchiveRepo, ArchiveWrite } from "./ArchiveRepo.ts"
import { maxPdfBytes, parseFile, type ParseOutcome, parserVersion, withoutFile } from "./ParsePipeline.ts"

/**
 * The operator import: `<dir>/metadata.json` (an array of records, or `{ "documents": [...] }`)
 * plus the PDFs it names by path relative to `<dir>`. Every record is validated before anything is
 * written; one invalid record aborts the import. PDFs are text-extracted here, once, so the
 * service only ever reads stored text. Without `replace`, records are merged into the current
 * archive by id (a record without a PDF keeps the PDF stored earlier for the same id). Everything
 * is written in one transaction: a running service sees the archive before or after, never a mix.
 */

export const maxMetadataBytes = 50 * 1024 * 1024
export { maxPdfBytes }

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

export class ImportRejected extends Data.TaggedError("ImportRejected")<{ readonly problems: ReadonlyArray<string> }> {
  override get message() {
    return `import rejected: ${this.problems.length} problem(s)`
  }
}

export interface ImportReport {
  readonly imported: number
  readonly total: number
  readonly byStatus: Record<ParseStatus, number>
  /** Records whose file could not be read as a PDF (recorded as `failed` with the reason). */
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

const readMetadata = async (dir: string) => {
  const metadataPath = join(dir, "metadata.json")
  const size = (await stat(metadataPath)).size
  if (size > maxMetadataBytes) {
    throw new ImportRejected({ problems: [`metadata.json is larger than ${maxMetadataBytes} bytes`] })
  }
  const parsed = Schema.decodeUnknownEither(Schema.parseJson(Metadata))(await readFile(metadataPath, "utf8"))
  if (Either.isLeft(parsed)) {
    throw new ImportRejected({ problems: ["metadata.json is not a JSON array of records or { documents }"] })
  }
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
  if (problems.length > 0) throw new ImportRejected({ problems })
  return { records, pdfPaths }
}

export const importDirectory = (
  repo: ArchiveRepo,
  dir: string,
  options: {
    readonly replace?: boolean
    /** Called after each record is parsed (PDFs of up to 64 MB make this the long part). */
    readonly onRecord?: (done: number, total: number) => void
  } = {}
): Effect.Effect<ImportReport, ImportRejected | SqlError> =>
  Effect.gen(function*() {
    const { pdfPaths, records } = yield* Effect.tryPromise({
      try: () => readMetadata(dir),
      catch: (error) =>
        error instanceof ImportRejected
          ? error
          : new ImportRejected({ problems: [`cannot read the import: ${String(error)}`] })
    })
    const earlier = options.replace ? [] : yield* repo.full(records.map((record) => record.id))
    const earlierById = new Map(earlier.map((document) => [document.id, document]))
    const writes: Array<ArchiveWrite> = []
    const warnings: Array<string> = []
    for (const [done, record] of records.entries()) {
      const path = pdfPaths.get(record.id)
      const bytes = path === undefined ? undefined : new Uint8Array(yield* Effect.promise(() => readFile(path)))
      const stored = yield* storedDocument(repo, record, earlierById.get(record.id), bytes)
      if (stored.warning !== undefined) warnings.push(stored.warning)
      writes.push(stored.document)
      options.onRecord?.(done + 1, records.length)
    }
    yield* repo.withTransaction(Effect.gen(function*() {
      if (options.replace) yield* repo.clear
      yield* repo.upsert(writes)
    }))
    yield* repo.pruneFiles
    const counts = yield* repo.counts
    const byStatus = Object.fromEntries(parseStatuses.map((status) => [status, 0])) as Record<ParseStatus, number>
    let total = 0
    for (const group of counts.groups) {
      byStatus[group.parseStatus as ParseStatus] += group.n
      total += group.n
    }
    return { imported: records.length, total, byStatus, warnings }
  })

/**
 * The stored form of one record. Without a file it is `pending` (a PDF is known upstream) or
 * `no_pdf`, unless a PDF was stored for the id before, which is kept; a file that is not a
 * readable PDF is `failed` with the reason (or, again, the earlier PDF is kept).
 */
const storedDocument = (
  repo: ArchiveRepo,
  record: ImportRecord,
  earlier: ArchiveWrite | undefined,
  bytes: Uint8Array | undefined
): Effect.Effect<{ readonly document: ArchiveWrite; readonly warning?: string }, SqlError> =>
  Effect.gen(function*() {
    const meta = { party: record.party ?? null, title: record.title }
    const common = {
      id: record.id,
      agency: record.agency,
      source: "import",
      party: meta.party,
      title: record.title,
      date: record.date ?? null,
      originalDocUrl: record.original_doc_url ?? null,
      sourceUrl: record.source_url ?? null,
      fingerprint: null,
      parserVersion
    }
    const keptFile = earlier !== undefined && earlier.pdfSha256 !== null ? { ...earlier, ...common } : undefined
    const written = (outcome: ParseOutcome, pdfSha256: string | null, attempts: number): ArchiveWrite => ({
      ...common,
      ...outcome,
      pdfSha256,
      parseAttempts: attempts
    })
    if (bytes === undefined) {
      return {
        document: keptFile ?? written(
          common.originalDocUrl === null
            ? withoutFile("no_pdf", null, meta)
            : withoutFile("pending", "imported without its file", meta),
          null,
          0
        )
      }
    }
    const outcome = yield* parseFile(bytes, meta)
    if (outcome.parseStatus === "failed") {
      return keptFile !== undefined
        ? {
          document: keptFile,
          warning: `${record.id}: the file is not a readable PDF; the PDF stored earlier is kept`
        }
        : {
          document: written(outcome, null, 1),
          warning: `${record.id}: the file is not a readable PDF; recorded as failed and not stored`
        }
    }
    return { document: written(outcome, yield* repo.putFile(bytes), 1) }
  })
