import { Clock, Data, type Duration, Effect, Ref } from "effect"
import type { EnforcementAgency } from "../../../domain/Enforcement.ts"
import type { UpstreamClient, UpstreamError } from "../../Upstream.ts"
import type { Validators } from "../ArchiveRepo.ts"

/**
 * One source of the enforcement archive. A collector only lists: it yields each document's
 * metadata and the URL of its file (or the text published with it); the collection service
 * fetches, stores and parses. Listing goes through a `PoliteFetch`, which spaces requests, sends
 * the operator's User-Agent and makes conditional requests with the validators of the last run.
 */
export interface ListedItem {
  readonly id: string
  readonly agency: EnforcementAgency
  readonly title: string
  readonly party: string | null
  readonly date: string | null
  readonly sourceUrl: string | null
  /** The document's PDF (absolute URL); null when the source publishes none. */
  readonly fileUrl: string | null
  /** Text published in the listing itself (a DOJ release), stored when there is no file. */
  readonly text: string | null
}

/** The listing did not change since the last run (every page answered 304). */
export const notModified = "not_modified" as const

export interface Listing {
  readonly items: ReadonlyArray<ListedItem> | typeof notModified
  /** Rows the parser could not read; reported, and a listing of nothing but these fails. */
  readonly skipped: number
}

/** What the User-Agent of every collector request says: the operator and how to reach them. */
export const userAgent = (contact: string) => `export-compliance-data-service enforcement collector (${contact})`

export class CollectFailed extends Data.TaggedError("CollectFailed")<{
  readonly reason: string
  /** The upstream failure behind it, when there was one (a page that could not be read has none). */
  readonly upstream?: UpstreamError
}> {}

export interface Collector {
  readonly id: string
  readonly agency: EnforcementAgency
  readonly description: string
  /** How often the service collects this source. */
  readonly every: Duration.DurationInput
  /** Whether a listing holds the whole catalog: only then does an item missing from it count as removed. */
  readonly complete: boolean
  /** The upstream the listing and the files are fetched from. */
  readonly client: UpstreamClient
  readonly list: (fetch: PoliteFetch) => Effect.Effect<Listing, CollectFailed>
}

export interface FetchedPage {
  readonly body: string
  readonly headers: Readonly<Record<string, string>>
}

export interface PoliteFetch {
  /** A listing page; undefined when it answered 304 Not Modified to our validators. */
  readonly page: (
    path: string,
    options?: { readonly params?: Readonly<Record<string, string | number>>; readonly conditional?: boolean }
  ) => Effect.Effect<FetchedPage | undefined, CollectFailed>
  /** A POST answering JSON (the DDTC portal's table widget): never conditional. */
  readonly postJson: (
    path: string,
    body: unknown,
    headers: Readonly<Record<string, string>>
  ) => Effect.Effect<unknown, CollectFailed>
  /** A file's bytes, within `maxBytes`. */
  readonly file: (path: string, maxBytes: number) => Effect.Effect<Uint8Array, CollectFailed>
  /** The validators collected so far (saved after a successful run). */
  readonly validators: Effect.Effect<Readonly<Record<string, Validators>>>
}

const failed = (error: UpstreamError) =>
  new CollectFailed({ reason: `${error.upstream}: ${error.detail}`, upstream: error })

/** The path of an absolute URL on the client's own origin; undefined for another host (never fetched). */
export const pathOn = (client: UpstreamClient, url: string): string | undefined => {
  try {
    const target = new URL(url)
    const base = new URL(client.baseUrl)
    return target.origin === base.origin ? `${target.pathname}${target.search}` : undefined
  } catch {
    return undefined
  }
}

/** An href of a listing, made absolute against the page it is on (or the source's base URL); null when not http(s). */
export const absolute = (client: UpstreamClient, href: string, page?: string | null): string | null => {
  try {
    const url = new URL(href, page ?? `${client.baseUrl}/`)
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null
  } catch {
    return null
  }
}

/**
 * Requests of one collection run: one at a time, at least `spacingMillis` apart, with conditional
 * headers from the last run's validators for listing pages.
 */
export const politeFetch = (
  client: UpstreamClient,
  previous: Readonly<Record<string, Validators>>,
  spacingMillis: number
): Effect.Effect<PoliteFetch> =>
  Effect.gen(function*() {
    const last = yield* Ref.make(0)
    const seen = yield* Ref.make<Record<string, Validators>>({})
    const gate = yield* Effect.makeSemaphore(1)
    const spaced = <A, E>(request: Effect.Effect<A, E>) =>
      gate.withPermits(1)(Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const wait = (yield* Ref.get(last)) + spacingMillis - now
        if (wait > 0) yield* Effect.sleep(wait)
        return yield* Effect.ensuring(request, Effect.flatMap(Clock.currentTimeMillis, (at) => Ref.set(last, at)))
      }))

    const keyOf = (path: string, params?: Readonly<Record<string, string | number>>) =>
      params === undefined
        ? path
        : `${path}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`

    const page: PoliteFetch["page"] = (path, options = {}) =>
      Effect.gen(function*() {
        const key = keyOf(path, options.params)
        const known = options.conditional === false ? undefined : previous[key]
        const response = yield* spaced(client.get(path, {
          ...(options.params === undefined ? {} : { params: options.params }),
          headers: {
            accept: "text/html,application/json;q=0.9",
            ...(known?.etag === undefined ? {} : { "if-none-match": known.etag }),
            ...(known?.lastModified === undefined ? {} : { "if-modified-since": known.lastModified })
          },
          acceptStatus: [304]
        })).pipe(Effect.mapError(failed))
        const validators = {
          ...(response.headers["etag"] === undefined ? {} : { etag: response.headers["etag"] }),
          ...(response.headers["last-modified"] === undefined
            ? {}
            : { lastModified: response.headers["last-modified"] })
        }
        if (response.status === 304) {
          if (known !== undefined) yield* Ref.update(seen, (all) => ({ ...all, [key]: known }))
          return undefined
        }
        if (options.conditional !== false && Object.keys(validators).length > 0) {
          yield* Ref.update(seen, (all) => ({ ...all, [key]: validators }))
        }
        return { body: response.text(), headers: response.headers }
      })

    const postJson: PoliteFetch["postJson"] = (path, body, headers) =>
      spaced(client.post(path, body, { headers: { accept: "application/json", ...headers } })).pipe(
        Effect.mapError(failed),
        Effect.flatMap((response) =>
          Effect.try({
            try: () => JSON.parse(response.text()) as unknown,
            catch: () => new CollectFailed({ reason: `${client.name}: ${path} did not answer JSON` })
          })
        )
      )

    const file: PoliteFetch["file"] = (path, maxBytes) =>
      spaced(client.get(path, { headers: { accept: "application/pdf,*/*;q=0.5" } })).pipe(
        Effect.mapError(failed),
        Effect.filterOrFail(
          (response) => response.body.byteLength <= maxBytes,
          () => new CollectFailed({ reason: `${client.name}: ${path} is larger than ${maxBytes} bytes` })
        ),
        Effect.map((response) => response.body)
      )

    return { page, postJson, file, validators: Ref.get(seen) }
  })
