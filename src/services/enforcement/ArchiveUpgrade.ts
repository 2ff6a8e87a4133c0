import { SqlClient } from "@effect/sql/SqlClient"
import { Effect, Layer } from "effect"
import { AppConfig } from "../AppConfig.ts"
import * as ArchiveRepo from "./ArchiveRepo.ts"
import type { ArchiveWrite } from "./ArchiveRepo.ts"
import { extractFields } from "./Fields.ts"
import { failedWith, noTextReason, parseFile, type ParseOutcome, parserVersion, withoutFile } from "./ParsePipeline.ts"
import { readBlob, readPrevious, type StoredDocument } from "./PreviousArchive.ts"

/**
 * The one-time import of the enforcement archive the version before the SQL store kept under
 * `DATA_DIR/enforcement/` (see `PreviousArchive`), so an upgraded deployment keeps its documents.
 * Like the account import (`JsonImport`): under an advisory lock, so instances starting together
 * import once; recorded in `store_imports`, so no later start imports again; only into an empty
 * archive. Documents go through `ArchiveRepo.upsert`, which builds their search vectors. The old
 * files stay where they are.
 */

/** The import's row in `store_imports`. */
export const importName = "data_dir_enforcement_archive"

/**
 * The parser version of texts the previous version extracted: older than any current one, so
 * `ecds enforcement reparse` re-reads those files with today's parser when asked.
 */
export const previousParserVersion = 1

/** Documents written per statement batch: bounds the texts held in memory at once. */
const batchSize = 50

export interface ArchiveImportSummary {
  readonly generation: string
  readonly documents: number
  readonly files: number
  /** Documents whose stored text was damaged, so their PDF was read again. */
  readonly reread: number
  /** Problems met (records skipped, files missing or damaged), by id, never by field values. */
  readonly problems: ReadonlyArray<string>
}

export type ArchiveImportOutcome =
  | { readonly _tag: "Imported"; readonly summary: ArchiveImportSummary }
  | { readonly _tag: "ArchiveNotEmpty" }
  | { readonly _tag: "Unreadable"; readonly problem: string }

interface Converted {
  readonly write: ArchiveWrite
  readonly pdf: Uint8Array | undefined
  readonly reread: boolean
  readonly problem?: string
}

/** One previous document as the store keeps it, with the PDF to store (if any). */
const convert = (dataDir: string, document: StoredDocument): Effect.Effect<Converted> =>
  Effect.gen(function*() {
    const meta = { party: document.party, title: document.title }
    const pdf = document.pdf_sha256 === null ? undefined : yield* readBlob(dataDir, document.pdf_sha256, "pdf")
    const write = (outcome: ParseOutcome, attempts: number, version = previousParserVersion): ArchiveWrite => ({
      id: document.id,
      agency: document.agency,
      source: "import",
      party: document.party,
      title: document.title,
      date: document.date,
      originalDocUrl: document.original_doc_url,
      sourceUrl: document.source_url,
      fingerprint: null,
      parserVersion: version,
      pdfSha256: null,
      parseAttempts: attempts,
      ...outcome
    })
    if (pdf === undefined) {
      if (document.pdf_sha256 !== null) {
        const reason = "the previous archive's copy of the file was missing or damaged"
        return {
          write: write(
            document.original_doc_url === null ? failedWith(reason, meta) : withoutFile("pending", reason, meta),
            0
          ),
          pdf,
          reread: false,
          problem: `${document.id}: its stored PDF is missing or damaged; imported without it`
        }
      }
      const outcome = document.parse_status === "failed"
        ? failedWith("the previous version could not read the file and did not store it", meta)
        : document.parse_status === "pending" && document.original_doc_url !== null
        ? withoutFile("pending", "imported without its file", meta)
        : withoutFile("no_pdf", null, meta)
      return { write: write(outcome, outcome.parseStatus === "failed" ? 1 : 0), pdf, reread: false }
    }
    const text = document.text_sha256 === null ? undefined : yield* readBlob(dataDir, document.text_sha256, "md")
    if (document.text_sha256 !== null && text === undefined) {
      // the PDF is whole: today's parser gives the text back
      const outcome = yield* parseFile(pdf, meta)
      return {
        write: write(outcome, 1, parserVersion),
        pdf: outcome.parseStatus === "failed" ? undefined : pdf,
        reread: true,
        problem: `${document.id}: its stored text is missing or damaged; read again from its PDF`
      }
    }
    const body = text === undefined ? null : new TextDecoder().decode(text)
    const outcome: ParseOutcome = {
      parseStatus: body === null ? "no_text" : "parsed",
      parseReason: body === null ? noTextReason : null,
      pages: document.pages,
      textChars: body?.length ?? 0,
      body,
      fields: extractFields(document.party, document.title, body ?? "")
    }
    return { write: write(outcome, 1), pdf, reread: false }
  })

/**
 * Imports the previous archive into an empty store, once. Undefined when there is nothing to do:
 * no previous archive, or the import was recorded before. An unreadable archive is reported and
 * not recorded, so a repaired one is imported on a later start (while the archive is still empty).
 */
export const importPreviousArchive = (dataDir: string) =>
  Effect.gen(function*() {
    const previous = yield* readPrevious(dataDir)
    if (previous._tag === "Absent") return undefined
    const sql = yield* SqlClient
    const repo = yield* ArchiveRepo.make
    return yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql`SELECT pg_advisory_xact_lock(hashtext('ecds:import:data_dir_enforcement_archive'))`
      const done = yield* sql`SELECT 1 FROM store_imports WHERE import_name = ${importName}`
      if (done.length > 0) return undefined
      const [held] = yield* sql<{ n: unknown }>`SELECT count(*) AS n FROM enforcement_documents`
      if (Number(held?.n ?? 0) > 0) {
        yield* sql`INSERT INTO store_imports ${
          sql.insert({ importName, summary: JSON.stringify({ archiveWasEmpty: false }) })
        }`
        return { _tag: "ArchiveNotEmpty" } as ArchiveImportOutcome
      }
      if (previous._tag === "Unreadable") return previous as ArchiveImportOutcome
      const problems = [...previous.skipped]
      let files = 0
      let reread = 0
      for (let start = 0; start < previous.documents.length; start += batchSize) {
        const writes: Array<ArchiveWrite> = []
        for (const document of previous.documents.slice(start, start + batchSize)) {
          const converted = yield* convert(dataDir, document)
          const pdfSha256 = converted.pdf === undefined ? null : yield* repo.putFile(converted.pdf)
          if (pdfSha256 !== null) files++
          if (converted.reread) reread++
          if (converted.problem !== undefined) problems.push(converted.problem)
          writes.push({ ...converted.write, pdfSha256 })
        }
        yield* repo.upsert(writes)
      }
      const summary: ArchiveImportSummary = {
        generation: previous.generation,
        documents: previous.documents.length,
        files,
        reread,
        problems
      }
      yield* sql`INSERT INTO store_imports ${
        sql.insert({
          importName,
          summary: JSON.stringify({
            ...summary,
            problems: problems.length,
            previousImportedAt: previous.importedAt,
            archiveWasEmpty: true
          })
        })
      }`
      return { _tag: "Imported", summary } as ArchiveImportOutcome
    }))
  })

/** Problems listed in the log at most; the rest are counted. */
const loggedProblems = 20

/**
 * Runs the import at start, before the archive's services read or collect, and says once what it
 * did. It never stops the start: a failure leaves the archive as it was, and a later start retries.
 */
export const layer: Layer.Layer<never, never, SqlClient | AppConfig> = Layer.effectDiscard(
  Effect.gen(function*() {
    const config = yield* AppConfig
    const outcome = yield* importPreviousArchive(config.dataDir).pipe(
      Effect.catchTag("SqlError", () =>
        Effect.as(
          Effect.logWarning("the store refused the import of the previous enforcement archive; a later start retries"),
          undefined
        ))
    )
    if (outcome === undefined) return
    switch (outcome._tag) {
      case "ArchiveNotEmpty":
        return yield* Effect.logWarning(
          "the enforcement archive already holds documents; the previous version's archive files were not imported"
        )
      case "Unreadable":
        return yield* Effect.logWarning(
          `the previous version's enforcement archive was not imported: ${outcome.problem}; a later start retries`
        )
      case "Imported": {
        const { documents, files, generation, problems, reread } = outcome.summary
        yield* Effect.logInfo(
          `imported ${documents} documents (${files} PDFs, ${reread} texts read again) from the previous ` +
            `version's enforcement archive (generation ${generation}); its files under DATA_DIR/enforcement stay`
        )
        if (problems.length > 0) {
          const listed = problems.slice(0, loggedProblems).join("; ")
          const more = problems.length > loggedProblems ? `; and ${problems.length - loggedProblems} more` : ""
          yield* Effect.logWarning(`previous enforcement archive: ${problems.length} problem(s): ${listed}${more}`)
        }
      }
    }
  })
)
