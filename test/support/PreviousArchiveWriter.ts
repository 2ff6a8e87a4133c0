import { createHash, randomBytes } from "node:crypto"
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises"
import { join } from "node:path"
import type { EnforcementAgency } from "../../src/domain/Enforcement.ts"
import { extractMarkdown } from "../../src/services/enforcement/PdfText.ts"
import type { StoredDocument } from "../../src/services/enforcement/PreviousArchive.ts"

/**
 * Writes `<DATA_DIR>/enforcement/` as the last file-based version did (its `ArchiveStore.ts` and the
 * record step of its `Import.ts`, before the archive moved onto the SQL store), reproduced from
 * that source: content-addressed blobs, a generation with `catalog.json` and `index.json`, and
 * `CURRENT` swapped by an atomic rename. One difference: `index.json` held a MiniSearch index,
 * which the upgrade never reads (the store builds its own) and MiniSearch is no longer installed,
 * so a stand-in is written.
 */

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

const writeAtomically = async (path: string, data: string | Uint8Array) => {
  const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`
  await writeFile(temporary, data, { mode: 0o644 })
  await rename(temporary, path)
}

const putBlob = async (root: string, bytes: Uint8Array, kind: "pdf" | "md") => {
  const digest = sha256(bytes)
  await mkdir(join(root, "blobs"), { recursive: true })
  await writeAtomically(join(root, "blobs", `${digest}.${kind}`), bytes)
  return digest
}

/** The previous import's record: its fields, and the bytes of the PDF it named (if any). */
export interface PreviousRecord {
  readonly id: string
  readonly agency: EnforcementAgency
  readonly title: string
  readonly party?: string | null
  readonly date?: string | null
  readonly source_url?: string | null
  readonly original_doc_url?: string | null
  readonly pdf?: Uint8Array
}

const storedDocument = async (root: string, record: PreviousRecord): Promise<StoredDocument> => {
  const base = {
    id: record.id,
    agency: record.agency,
    party: record.party ?? null,
    title: record.title,
    date: record.date ?? null,
    original_doc_url: record.original_doc_url ?? null,
    source_url: record.source_url ?? null
  }
  const withoutFile = { pdf_sha256: null, text_sha256: null, pages: null, text_chars: null }
  if (record.pdf === undefined) {
    return { ...base, ...withoutFile, parse_status: base.original_doc_url === null ? "no_pdf" : "pending" }
  }
  const extracted = new TextDecoder().decode(record.pdf.subarray(0, 1024)).includes("%PDF-")
    ? await extractMarkdown(record.pdf).catch(() => undefined)
    : undefined
  if (extracted === undefined) return { ...base, ...withoutFile, parse_status: "failed" }
  const text = extracted.markdown
  return {
    ...base,
    parse_status: text.length > 0 ? "parsed" : "no_text",
    pdf_sha256: await putBlob(root, record.pdf, "pdf"),
    text_sha256: text.length > 0 ? await putBlob(root, new TextEncoder().encode(text), "md") : null,
    pages: extracted.pages,
    text_chars: text.length
  }
}

export interface WrittenArchive {
  readonly root: string
  readonly generation: string
  readonly documents: ReadonlyArray<StoredDocument>
}

/** Imports `records` into a new archive under `dataDir` and publishes it, as `npm run enforcement -- import` did. */
export const writePreviousArchive = async (
  dataDir: string,
  records: ReadonlyArray<PreviousRecord>,
  now = new Date("2026-11-20T10:00:00.000Z")
): Promise<WrittenArchive> => {
  const root = join(dataDir, "enforcement")
  const documents: Array<StoredDocument> = []
  for (const record of records) documents.push(await storedDocument(root, record))
  documents.sort((a, b) => (a.id < b.id ? -1 : 1))
  const catalog = { format: 1 as const, imported_at: now.toISOString(), documents }
  const generation = `g-${now.toISOString().replace(/[-:.]/g, "")}-${randomBytes(4).toString("hex")}`
  const dir = join(root, "generations", generation)
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, "catalog.json"), JSON.stringify(catalog))
  await writeFile(join(dir, "index.json"), JSON.stringify({ documentCount: documents.length }))
  await writeAtomically(join(root, "CURRENT"), `${generation}\n`)
  return { root, generation, documents }
}

/** Every file under the archive with its bytes: the upgrade must leave them as they were. */
export const snapshotFiles = async (root: string): Promise<Map<string, string>> => {
  const files = new Map<string, string>()
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) await walk(path)
      else files.set(path, sha256(new Uint8Array(await readFile(path))))
    }
  }
  await walk(root)
  return files
}
