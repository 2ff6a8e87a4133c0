import { Context, Duration, Effect, Layer, Option, Schedule } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { DocumentStorageFull } from "../domain/Documents.ts"
import type { StoreUnavailable } from "../domain/Problem.ts"

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
 * (a full store refuses new documents rather than dropping ones already paid for). The deployment's
 * layer keeps them in the SQL store (`store/DocumentFilesSql.ts`), shared by every instance.
 */
export interface DocumentFilesShape {
  readonly put: (document: StoredDocument) => Effect.Effect<StoredLink, DocumentStorageFull | StoreUnavailable>
  /** The live document behind a token; `None` for unknown and expired tokens alike. */
  readonly get: (token: string) => Effect.Effect<Option.Option<StoredDocument>, StoreUnavailable>
}

export class DocumentFiles extends Context.Tag("app/DocumentFiles")<DocumentFiles, DocumentFilesShape>() {}

/** What is known of an entry without reading its bytes. */
export interface EntryMeta {
  readonly fileName: string
  readonly warnings: number
  readonly size: number
  readonly expiresAt: number
}

/** Where the in-memory fixture keeps entries' bytes. Names are token hashes. */
export interface Blobs {
  readonly write: (name: string, bytes: Uint8Array, meta: EntryMeta) => Effect.Effect<void>
  readonly read: (name: string) => Effect.Effect<Option.Option<Uint8Array>>
  readonly remove: (name: string) => Effect.Effect<void>
}

export interface StoreOptions {
  readonly ttlSeconds: number
  readonly maxBytes: number
  readonly now?: () => number
}

/** What a download link is stored under: the token's SHA-256, hex. */
export const hashOf = (token: string): string => createHash("sha256").update(token).digest("hex")

export const sha256Of = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex")

/** A download token: 32 random bytes, base64url. */
export const newToken = (): string => randomBytes(32).toString("base64url")

/** The in-memory store (tests and the fixture layer): one process's links. */
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
          const token = newToken()
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
            sha256: sha256Of(document.bytes)
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

export const memoryBlobs = (): Blobs => {
  const bytesByName = new Map<string, Uint8Array>()
  return {
    write: (name, bytes) => Effect.sync(() => void bytesByName.set(name, bytes)),
    read: (name) => Effect.sync(() => Option.fromNullable(bytesByName.get(name))),
    remove: (name) => Effect.sync(() => void bytesByName.delete(name))
  }
}

/** An in-memory store for tests, with an injectable clock. */
export const layerMemory = (options: StoreOptions): Layer.Layer<DocumentFiles> =>
  Layer.scoped(DocumentFiles, make(memoryBlobs(), options))
