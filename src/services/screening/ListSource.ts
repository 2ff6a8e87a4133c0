import type { HttpClient } from "@effect/platform"
import { Data, Effect, Option } from "effect"
import { existsSync } from "node:fs"
import { mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { join, resolve } from "node:path"
import type { AppConfigShape } from "../AppConfig.ts"
import * as Upstream from "../Upstream.ts"

/**
 * Where the list comes from (`CSL_FILE` when set, else the trade.gov bulk URL) and where the last
 * good copy is kept (`DATA_DIR/csl/`), so that a restart without the upstream still screens.
 */

/** The bulk file is about 30 MB; anything far larger is not the list. */
export const maxListBytes = 256 * 1024 * 1024

export class ListSourceError extends Data.TaggedError("ListSourceError")<{ readonly reason: string }> {
  override get message() {
    return this.reason
  }
}

export type Fetched =
  | { readonly _tag: "Fetched"; readonly text: string; readonly etag: string | undefined }
  | { readonly _tag: "Unchanged" }

export interface ListSource {
  /** Human-readable origin for logs: "file" or "url". */
  readonly kind: "file" | "url"
  /**
   * Which list this is (`file:<absolute path>` or the URL): a copy kept on disk is used only by the
   * source that wrote it, so a test list never stands in for the real one after a restart.
   */
  readonly origin: string
  /** The current list; with `etag` (from a copy in hand) the URL source may answer `Unchanged`. */
  readonly fetch: (etag: string | undefined) => Effect.Effect<Fetched, ListSourceError>
}

const decoder = new TextDecoder()

const fromFile = (path: string): ListSource => ({
  kind: "file",
  origin: `file:${resolve(path)}`,
  fetch: () =>
    Effect.tryPromise({
      try: () => readFile(path),
      catch: () => new ListSourceError({ reason: "CSL_FILE could not be read" })
    }).pipe(
      Effect.filterOrFail(
        (bytes) => bytes.byteLength <= maxListBytes,
        () => new ListSourceError({ reason: "CSL_FILE is larger than a screening list can be" })
      ),
      Effect.map((bytes): Fetched => ({ _tag: "Fetched", text: decoder.decode(bytes), etag: undefined }))
    )
})

const fromUrl = (url: string) =>
  Effect.gen(function*() {
    const parsed = new URL(url)
    const client = yield* Upstream.make({
      name: "csl",
      baseUrl: parsed.origin,
      timeout: "120 seconds",
      retries: 2,
      breaker: { failures: 3, cooldownMillis: 60_000 }
    })
    const path = `${parsed.pathname}${parsed.search}`
    return {
      kind: "url",
      origin: url,
      fetch: (etag) =>
        client.get(path, { headers: etag ? { "if-none-match": etag } : {}, acceptStatus: [304] }).pipe(
          Effect.mapError((error) => new ListSourceError({ reason: `bulk list download failed: ${error.detail}` })),
          Effect.filterOrFail(
            (response) => response.body.byteLength <= maxListBytes,
            () => new ListSourceError({ reason: "bulk list download is larger than a screening list can be" })
          ),
          Effect.map((response): Fetched =>
            response.status === 304
              ? { _tag: "Unchanged" }
              : { _tag: "Fetched", text: response.text(), etag: response.headers["etag"] }
          )
        )
    } satisfies ListSource
  })

export const make = (config: AppConfigShape): Effect.Effect<ListSource, never, HttpClient.HttpClient> =>
  Option.match(config.cslFile, {
    onSome: (path) => Effect.succeed(fromFile(path)),
    onNone: () => fromUrl(config.cslBulkUrl)
  })

export interface StoredCopy {
  readonly text: string
  readonly etag: string | undefined
  /** The `origin` of the source it came from. */
  readonly origin: string
}

/** The last good list on disk: written atomically (temporary file, then rename), with its origin. */
export const makeStore = (dataDir: string) => {
  const dir = join(dataDir, "csl")
  const listPath = join(dir, "consolidated.json")
  const etagPath = join(dir, "consolidated.etag")
  const originPath = join(dir, "consolidated.source")
  const readOptional = (path: string) =>
    readFile(path, "utf8").then((value) => value.trim() || undefined, () => undefined)
  return {
    /** The copy a source may use: none when the copy on disk came from another source (or an unknown one). */
    read: (origin: string) =>
      Effect.tryPromise(async () => {
        const stored = await readOptional(originPath)
        // a DATA_DIR with no copy at all (a first start) has nothing to restore and nothing to warn of
        if (stored === undefined && !existsSync(listPath)) return undefined
        if (stored !== origin) return { _tag: "OtherSource" as const, stored }
        const text = await readFile(listPath, "utf8")
        return { _tag: "Copy" as const, copy: { text, etag: await readOptional(etagPath), origin } }
      }).pipe(Effect.option, Effect.map(Option.flatMap(Option.fromNullable))),
    write: (copy: StoredCopy) =>
      Effect.tryPromise({
        try: async () => {
          await mkdir(dir, { recursive: true })
          await writeFile(`${listPath}.tmp`, copy.text)
          await rename(`${listPath}.tmp`, listPath)
          await writeFile(etagPath, copy.etag ?? "")
          await writeFile(originPath, copy.origin)
        },
        catch: () => new ListSourceError({ reason: "the list copy could not be written under DATA_DIR" })
      })
  }
}
