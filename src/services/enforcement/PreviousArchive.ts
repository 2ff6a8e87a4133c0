import { Effect, Either, Schema } from "effect"
import { readFile, stat } from "node:fs/promises"
import { join } from "node:path"
import { agencyOfId, EnforcementAgency, ParseStatus } from "../../domain/Enforcement.ts"
import { sha256 } from "./ArchiveRepo.ts"

/**
 * The archive files the version before the SQL store kept under `<DATA_DIR>/enforcement/`, read
 * for the one-time import (`ArchiveUpgrade`). Its layout, as its `ArchiveStore` wrote it:
 *
 *   CURRENT                          name of the live generation
 *   generations/<name>/catalog.json  document metadata (format 1)
 *   generations/<name>/index.json    its MiniSearch index (not read: the store builds its own)
 *   blobs/<sha256>.pdf | .md         stored PDFs and parsed texts, content-addressed
 *
 * Reading never throws: what cannot be read is described, by generation and document id only
 * (field values may name parties).
 */

/**
 * A catalog record as the previous version wrote it: its own schema, not derived from the domain's
 * `EnforcementDocument`, which describes today's API and may change while old files stay as written.
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

// documents are decoded one by one, so one damaged record does not hide the others
const Catalog = Schema.Struct({
  format: Schema.Literal(1),
  imported_at: Schema.String,
  documents: Schema.Array(Schema.Unknown)
})

/** The previous version refused larger metadata, so a larger catalog is not one it wrote. */
export const maxCatalogBytes = 50 * 1024 * 1024
/** The previous version's largest PDF; its texts were extracted from those. */
const maxBlobBytes = 64 * 1024 * 1024

const generationPattern = /^g-\d{8}T\d{9}Z-[0-9a-f]{8}$/
const digestPattern = /^[0-9a-f]{64}$/

export const archiveRoot = (dataDir: string) => join(dataDir, "enforcement")

export type PreviousArchive =
  | { readonly _tag: "Absent" }
  | { readonly _tag: "Unreadable"; readonly problem: string }
  | {
    readonly _tag: "Found"
    readonly generation: string
    readonly importedAt: string
    readonly documents: ReadonlyArray<StoredDocument>
    /** Records that do not decode or contradict their id, described without their values. */
    readonly skipped: ReadonlyArray<string>
  }

const isMissing = (error: unknown) => (error as { code?: unknown } | undefined)?.code === "ENOENT"

const attempt = <A>(run: () => Promise<A>) => Effect.either(Effect.tryPromise({ try: run, catch: (error) => error }))

/** The live generation's catalog: absent when the previous version never imported an archive here. */
export const readPrevious = (dataDir: string): Effect.Effect<PreviousArchive> =>
  Effect.gen(function*() {
    const root = archiveRoot(dataDir)
    const current = yield* attempt(() => readFile(join(root, "CURRENT"), "utf8"))
    if (Either.isLeft(current)) {
      return isMissing(current.left)
        ? { _tag: "Absent" as const }
        : { _tag: "Unreadable" as const, problem: "enforcement/CURRENT cannot be read" }
    }
    const generation = current.right.trim()
    if (!generationPattern.test(generation)) {
      return { _tag: "Unreadable" as const, problem: "enforcement/CURRENT names no generation" }
    }
    const path = join(root, "generations", generation, "catalog.json")
    const text = yield* attempt(async () => {
      if ((await stat(path)).size > maxCatalogBytes) throw new RangeError("too large")
      return readFile(path, "utf8")
    })
    const catalog = Either.flatMap(text, Schema.decodeUnknownEither(Schema.parseJson(Catalog)))
    if (Either.isLeft(catalog)) {
      return {
        _tag: "Unreadable" as const,
        problem: `the catalog of generation ${generation} is missing, damaged or not what the previous version wrote`
      }
    }
    const decode = Schema.decodeUnknownEither(StoredDocument)
    const documents: Array<StoredDocument> = []
    const skipped: Array<string> = []
    const seen = new Set<string>()
    catalog.right.documents.forEach((raw, position) => {
      const decoded = decode(raw)
      if (Either.isLeft(decoded)) return void skipped.push(`record ${position} does not decode`)
      const document = decoded.right
      const where = `record ${position} (${document.id.slice(0, 120)})`
      if (agencyOfId(document.id) !== document.agency) return void skipped.push(`${where}: agency and id disagree`)
      if (seen.has(document.id)) return void skipped.push(`${where}: duplicate id`)
      seen.add(document.id)
      documents.push(document)
    })
    return {
      _tag: "Found" as const,
      generation,
      importedAt: catalog.right.imported_at,
      documents,
      skipped
    }
  })

/**
 * A stored PDF (`pdf`) or parsed text (`md`), only when it is there whole: its bytes hash to the
 * digest that names it. Undefined for a missing, damaged or oversized file.
 */
export const readBlob = (dataDir: string, digest: string, kind: "pdf" | "md"): Effect.Effect<Uint8Array | undefined> =>
  digestPattern.test(digest)
    ? Effect.map(
      attempt(async () => {
        const path = join(archiveRoot(dataDir), "blobs", `${digest}.${kind}`)
        if ((await stat(path)).size > maxBlobBytes) throw new RangeError("too large")
        return new Uint8Array(await readFile(path))
      }),
      (read) => Either.isRight(read) && sha256(read.right) === digest ? read.right : undefined
    )
    : Effect.succeed(undefined)
