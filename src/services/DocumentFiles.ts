import { Context, Duration, Effect, Layer, Option, Schedule } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { DocumentStorageFull } from "../domain/Documents.ts"
import { AppConfig } from "./AppConfig.ts"

/** A rendered document as a download answers it. */
export interface StoredDocument {
  readonly fileName: string
  readonly bytes: Uint8Array
  /** `X-Render-Warnings` of the download. */
  readonly warnings: number
}

export interface StoredLink {
  /** The download token: 32 random bytes, base64url. Only its hash is kept. */
  readonly token: string
  readonly expiresAt: Date
  /** SHA-256 of the bytes, hex. */
  readonly sha256: string
}

/**
 * Rendered documents waiting behind a download link. The token is the credential and is never
 * stored: entries are named by its SHA-256, so a copy of the store does not yield working links.
 * Links expire after the configured TTL; expired entries are swept, and the total size is capped
 * (a full store refuses new documents rather than dropping ones already paid for).
 */
export interface DocumentFilesShape {
  readonly put: (document: StoredDocument) => Effect.Effect<StoredLink, DocumentStorageFull>
  /** The live document behind a token; `None` for unknown and expired tokens alike. */
  readonly get: (token: string) => Effect.Effect<Option.Option<StoredDocument>>
}

export class DocumentFiles extends Context.Tag("app/DocumentFiles")<DocumentFiles, DocumentFilesShape>() {}

/** What is known of an entry without reading its bytes; persisted next to them by the file layer. */
export interface EntryMeta {
  readonly fileName: string
  readonly warnings: number
  readonly size: number
  readonly expiresAt: number
}

/** Where entries live: a directory under DATA_DIR, or memory (tests). Names are token hashes. */
export interface Blobs {
  readonly write: (name: string, bytes: Uint8Array, meta: EntryMeta) => Effect.Effect<void>
  readonly read: (name: string) => Effect.Effect<Option.Option<Uint8Array>>
  readonly remove: (name: string) => Effect.Effect<void>
  /** Entries left by an earlier process. */
  readonly existing: Effect.Effect<ReadonlyArray<readonly [string, EntryMeta]>>
}

export interface StoreOptions {
  readonly ttlSeconds: number
  readonly maxBytes: number
  readonly now?: () => number
}

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex")

export const make = (blobs: Blobs, options: StoreOptions) =>
  Effect.gen(function*() {
    const now = options.now ?? Date.now
    const index = new Map<string, EntryMeta>()
    let totalBytes = 0
    const forget = (name: string) => {
      const meta = index.get(name)
      if (meta === undefined) return
      index.delete(name)
      totalBytes -= meta.size
    }
    const sweep = Effect.suspend(() => {
      const expired = [...index].filter(([, meta]) => meta.expiresAt <= now()).map(([name]) => name)
      for (const name of expired) forget(name)
      return Effect.forEach(expired, blobs.remove, { discard: true })
    })
    for (const [name, meta] of yield* blobs.existing) {
      index.set(name, meta)
      totalBytes += meta.size
    }
    yield* sweep
    // a sweep at most every minute (sooner with short TTLs) keeps abandoned documents from piling up
    const every = Duration.seconds(Math.max(1, Math.min(60, options.ttlSeconds)))
    yield* Effect.forkScoped(Effect.repeat(sweep, Schedule.spaced(every)))

    // capacity is reserved synchronously, so concurrent renders cannot overshoot the cap together
    const reserve = (name: string, meta: EntryMeta) =>
      Effect.suspend(() => {
        if (totalBytes + meta.size > options.maxBytes) return Effect.succeed(false)
        index.set(name, meta)
        totalBytes += meta.size
        return Effect.succeed(true)
      })

    const shape: DocumentFilesShape = {
      put: (document) =>
        Effect.gen(function*() {
          const token = randomBytes(32).toString("base64url")
          const name = hashOf(token)
          const meta: EntryMeta = {
            fileName: document.fileName,
            warnings: document.warnings,
            size: document.bytes.byteLength,
            expiresAt: now() + options.ttlSeconds * 1000
          }
          if (!(yield* reserve(name, meta))) {
            yield* sweep
            if (!(yield* reserve(name, meta))) {
              return yield* new DocumentStorageFull({
                detail: "Too many rendered documents are waiting for download; retry in a few minutes."
              })
            }
          }
          yield* blobs.write(name, document.bytes, meta).pipe(Effect.onError(() => Effect.sync(() => forget(name))))
          return {
            token,
            expiresAt: new Date(meta.expiresAt),
            sha256: createHash("sha256").update(document.bytes).digest("hex")
          }
        }),
      get: (token) =>
        Effect.suspend(() => {
          const name = hashOf(token)
          const meta = index.get(name)
          if (meta === undefined) return Effect.succeedNone
          if (meta.expiresAt <= now()) {
            forget(name)
            return Effect.as(blobs.remove(name), Option.none())
          }
          return Effect.map(
            blobs.read(name),
            Option.map((bytes) => ({ fileName: meta.fileName, bytes, warnings: meta.warnings }))
          )
        })
    }
    return shape
  })

const isEntryMeta = (value: unknown): value is EntryMeta =>
  typeof value === "object" && value !== null && typeof (value as EntryMeta).fileName === "string" &&
  Number.isInteger((value as EntryMeta).warnings) && Number.isInteger((value as EntryMeta).size) &&
  Number.isFinite((value as EntryMeta).expiresAt)

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT"

/** Entries as `<hash>.pdf` and `<hash>.json` (metadata) in one directory, readable by the owner only. */
export const fileBlobs = (directory: string): Blobs => {
  const pdf = (name: string) => join(directory, `${name}.pdf`)
  const metaFile = (name: string) => join(directory, `${name}.json`)
  return {
    write: (name, bytes, meta) =>
      Effect.orDie(Effect.tryPromise(async () => {
        await mkdir(directory, { recursive: true, mode: 0o700 })
        await writeFile(pdf(name), bytes, { mode: 0o600 })
        await writeFile(metaFile(name), JSON.stringify(meta), { mode: 0o600 })
      })),
    read: (name) =>
      Effect.orDie(Effect.tryPromise(async () => {
        try {
          return Option.some(new Uint8Array(await readFile(pdf(name))))
        } catch (error) {
          if (missing(error)) return Option.none()
          throw error
        }
      })),
    remove: (name) =>
      Effect.orDie(Effect.tryPromise(async () => {
        await rm(pdf(name), { force: true })
        await rm(metaFile(name), { force: true })
      })),
    existing: Effect.orDie(Effect.tryPromise(async () => {
      const names: Array<string> = await readdir(directory).catch((error) =>
        missing(error) ? [] : Promise.reject(error)
      )
      const entries: Array<readonly [string, EntryMeta]> = []
      for (const file of names) {
        const match = /^([0-9a-f]{64})\.json$/.exec(file)
        if (match === null || !names.includes(`${match[1]}.pdf`)) continue
        const meta = await readFile(join(directory, file), "utf8").then(JSON.parse).catch(() => undefined)
        if (isEntryMeta(meta)) entries.push([match[1]!, meta])
      }
      // halves of an interrupted write and unreadable metadata belong to no link: remove them
      const kept = new Set(entries.flatMap(([name]) => [`${name}.pdf`, `${name}.json`]))
      const orphans = names.filter((file) => /^[0-9a-f]{64}\.(pdf|json)$/.test(file) && !kept.has(file))
      for (const file of orphans) await rm(join(directory, file), { force: true })
      return entries
    }))
  }
}

export const memoryBlobs = (): Blobs => {
  const bytesByName = new Map<string, Uint8Array>()
  return {
    write: (name, bytes) => Effect.sync(() => void bytesByName.set(name, bytes)),
    read: (name) => Effect.sync(() => Option.fromNullable(bytesByName.get(name))),
    remove: (name) => Effect.sync(() => void bytesByName.delete(name)),
    existing: Effect.succeed([])
  }
}

/** Documents under `DATA_DIR/documents`, `PDF_LINK_TTL_SECONDS` and `PDF_STORE_MAX_BYTES` from the configuration. */
export const layer: Layer.Layer<DocumentFiles, never, AppConfig> = Layer.scoped(
  DocumentFiles,
  Effect.flatMap(AppConfig, (config) =>
    make(fileBlobs(join(config.dataDir, "documents")), {
      ttlSeconds: config.pdfLinkTtlSeconds,
      maxBytes: config.pdfStoreMaxBytes
    }))
)

/** An in-memory store for tests, with an injectable clock. */
export const layerMemory = (options: StoreOptions): Layer.Layer<DocumentFiles> =>
  Layer.scoped(DocumentFiles, make(memoryBlobs(), options))
