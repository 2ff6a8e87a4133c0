import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Duration, Effect, Layer, Option, Schedule, Schema } from "effect"
import { DocumentStorageFull } from "../../domain/Documents.ts"
import { StoreUnavailable } from "../../domain/Problem.ts"
import { AppConfig } from "../AppConfig.ts"
import {
  DocumentFiles,
  type DocumentFilesShape,
  hashOf,
  newToken,
  sha256Of,
  type StoreOptions
} from "../DocumentFiles.ts"

const Stored = Schema.Struct({
  fileName: Schema.String,
  warnings: Schema.Int,
  bytes: Schema.Uint8ArrayFromSelf
})

const Used = Schema.Struct({ used: Schema.Number })

const unavailable = (error: SqlError | unknown) =>
  Effect.zipRight(
    // the class of failure only: statement parameters hold document bytes and token hashes
    Effect.logWarning("document store unavailable", { error: error instanceof Error ? error.message : "unknown" }),
    Effect.fail(new StoreUnavailable({ detail: "The document store cannot be reached; retry in a few seconds." }))
  )

/**
 * Rendered documents in the SQL store (table `document_files`), so a link made on one instance
 * downloads on every other. A put runs in one transaction under an advisory lock: it sweeps expired
 * rows, sums what is left and inserts only within the byte cap, so instances rendering at the same
 * time cannot overshoot it together. Expiry is each instance's clock against `expires_at`.
 */
export const make = (options: StoreOptions) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const now = options.now ?? Date.now
    const sweep = Effect.suspend(() => sql`DELETE FROM document_files WHERE expires_at <= ${new Date(now())}`)
    // a sweep at most every minute (sooner with short TTLs) keeps abandoned documents from piling up
    const every = Duration.seconds(Math.max(1, Math.min(60, options.ttlSeconds)))
    yield* Effect.forkScoped(Effect.repeat(Effect.ignore(sweep), Schedule.spaced(every)))

    const decodeUsed = Schema.decodeUnknown(Used)
    const decodeStored = Schema.decodeUnknown(Stored)

    const shape: DocumentFilesShape = {
      put: (document) =>
        Effect.gen(function*() {
          const token = newToken()
          const size = document.bytes.byteLength
          const expiresAt = new Date(now() + options.ttlSeconds * 1000)
          const stored = yield* sql.withTransaction(Effect.gen(function*() {
            yield* sql`SELECT pg_advisory_xact_lock(hashtext('ecds:document_files'))`
            yield* sweep
            const [row] = yield* sql`SELECT coalesce(sum(size), 0)::bigint AS used FROM document_files`
            const { used } = yield* decodeUsed(row)
            if (used + size > options.maxBytes) return false
            yield* sql`INSERT INTO document_files ${
              sql.insert({
                tokenHash: hashOf(token),
                fileName: document.fileName,
                warnings: document.warnings,
                size,
                bytes: document.bytes,
                expiresAt
              })
            }`
            return true
          })).pipe(Effect.catchAll(unavailable))
          if (!stored) {
            return yield* new DocumentStorageFull({
              detail: "Too many rendered documents are waiting for download; retry in a few minutes."
            })
          }
          return { token, expiresAt, sha256: sha256Of(document.bytes) }
        }),
      get: (token) =>
        Effect.gen(function*() {
          const rows = yield* sql`SELECT file_name, warnings, bytes FROM document_files
            WHERE token_hash = ${hashOf(token)} AND expires_at > ${new Date(now())}`
          if (rows.length === 0) return Option.none()
          const stored = yield* decodeStored(rows[0])
          return Option.some({ fileName: stored.fileName, bytes: stored.bytes, warnings: stored.warnings })
        }).pipe(Effect.catchAll(unavailable))
    }
    return shape
  })

/** Documents in the deployment's SQL store, `PDF_LINK_TTL_SECONDS` and `PDF_STORE_MAX_BYTES` from the configuration. */
export const layer: Layer.Layer<DocumentFiles, never, AppConfig | SqlClient> = Layer.scoped(
  DocumentFiles,
  Effect.flatMap(
    AppConfig,
    (config) => make({ ttlSeconds: config.pdfLinkTtlSeconds, maxBytes: config.pdfStoreMaxBytes })
  )
)
