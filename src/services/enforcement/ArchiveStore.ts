import { Schema } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { EnforcementAgency, ParseStatus, parseStatuses } from "../../domain/Enforcement.ts"

/**
 * The enforcement archive on disk, under `<DATA_DIR>/enforcement/`:
 *
 *   CURRENT                          name of the live generation
 *   generations/<name>/catalog.json  document metadata
 *   generations/<name>/index.json    the full-text index
 *   blobs/<sha256>.pdf | .md         stored PDFs and parsed texts, content-addressed
 *
 * An import writes a complete new generation, then swaps `CURRENT` with an atomic rename, so a
 * reader sees the old archive or the new one, never a mix. File names come only from our own
 * SHA-256 digests and generation names, never from document ids.
 */

export const StoredDocument = Schema.Struct({
  id: Schema.String,
  agency: EnforcementAgency,
  party: Schema.NullOr(Schema.String),
  title: Schema.String,
  date: Schema.NullOr(Schema.String),
  parse_status: ParseStatus,
  original_doc_url: Schema.NullOr(Schema.String),
  source_url: Schema.NullOr(Schema.String),
  pdf_sha256: Schema.NullOr(Schema.String),
  text_sha256: Schema.NullOr(Schema.String),
  pages: Schema.NullOr(Schema.Int),
  text_chars: Schema.NullOr(Schema.Int)
})
export type StoredDocument = typeof StoredDocument.Type

export const Catalog = Schema.Struct({
  format: Schema.Literal(1),
  imported_at: Schema.String,
  documents: Schema.Array(StoredDocument)
})
export type Catalog = typeof Catalog.Type

export type BlobKind = "pdf" | "md"

/** How many documents have each parse status (every status present, zeros included). */
export const tally = (documents: Iterable<StoredDocument>): Record<ParseStatus, number> => {
  const counts = Object.fromEntries(parseStatuses.map((status) => [status, 0])) as Record<ParseStatus, number>
  for (const document of documents) counts[document.parse_status]++
  return counts
}

const sha256Pattern = /^[0-9a-f]{64}$/
const generationPattern = /^g-\d{8}T\d{9}Z-[0-9a-f]{8}$/

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

export interface LoadedGeneration {
  readonly name: string
  readonly catalog: Catalog
  readonly indexJson: string
}

const decodeCatalog = Schema.decodeUnknownSync(Schema.parseJson(Catalog))

/** Writes a file so that readers see either nothing or the whole of it. */
const writeAtomically = async (path: string, data: string | Uint8Array) => {
  const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`
  await writeFile(temporary, data, { mode: 0o644 })
  await rename(temporary, path)
}

export const make = (root: string) => {
  const blobs = join(root, "blobs")
  const generations = join(root, "generations")
  const currentFile = join(root, "CURRENT")

  const blobPath = (digest: string, kind: BlobKind) => {
    if (!sha256Pattern.test(digest)) throw new Error("not a content digest")
    return join(blobs, `${digest}.${kind}`)
  }

  /** The name of the live generation, or undefined for an archive never imported. */
  const currentName = async (): Promise<string | undefined> => {
    try {
      const name = (await readFile(currentFile, "utf8")).trim()
      if (!generationPattern.test(name)) throw new Error("the archive's CURRENT file names no generation")
      return name
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined
      throw error
    }
  }

  const load = async (name: string): Promise<LoadedGeneration> => {
    const dir = join(generations, name)
    const [catalogText, indexJson] = await Promise.all([
      readFile(join(dir, "catalog.json"), "utf8"),
      readFile(join(dir, "index.json"), "utf8")
    ])
    return { name, catalog: decodeCatalog(catalogText), indexJson }
  }

  const readBlob = (digest: string, kind: BlobKind): Promise<Uint8Array> => readFile(blobPath(digest, kind))

  const putBlob = async (bytes: Uint8Array, kind: BlobKind): Promise<string> => {
    const digest = sha256(bytes)
    await mkdir(blobs, { recursive: true })
    await writeAtomically(blobPath(digest, kind), bytes)
    return digest
  }

  /**
   * Makes a new generation live. The previous generation and its blobs are kept (a running server
   * may still be reading them until it notices the swap); older ones are removed.
   */
  const publish = async (catalog: Catalog, indexJson: string, now: Date): Promise<string> => {
    const stamp = now.toISOString().replace(/[-:.]/g, "")
    const name = `g-${stamp}-${randomBytes(4).toString("hex")}`
    const dir = join(generations, name)
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, "catalog.json"), JSON.stringify(catalog))
    await writeFile(join(dir, "index.json"), indexJson)
    const previous = await currentName()
    await writeAtomically(currentFile, `${name}\n`)
    await prune(new Set([name, ...(previous === undefined ? [] : [previous])]))
    return name
  }

  const prune = async (keep: ReadonlySet<string>) => {
    for (const entry of await readdir(generations)) {
      if (!keep.has(entry) && generationPattern.test(entry)) {
        await rm(join(generations, entry), { recursive: true, force: true })
      }
    }
    const referenced = new Set<string>()
    for (const name of keep) {
      for (const document of (await load(name)).catalog.documents) {
        if (document.pdf_sha256) referenced.add(`${document.pdf_sha256}.pdf`)
        if (document.text_sha256) referenced.add(`${document.text_sha256}.md`)
      }
    }
    for (const entry of await readdir(blobs).catch(() => [])) {
      if (/^[0-9a-f]{64}\.(?:pdf|md)$/.test(entry) && !referenced.has(entry)) {
        await rm(join(blobs, entry), { force: true })
      }
    }
  }

  return { root, currentName, load, readBlob, putBlob, publish }
}

export type ArchiveStore = ReturnType<typeof make>
