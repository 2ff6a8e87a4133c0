import { Headers, HttpServerResponse } from "@effect/platform"
import type { DataGenerationShape } from "../../services/DataGeneration.ts"
import { acceptsGzip } from "./Encoding.ts"
import type { RequestInfo } from "./RequestInfo.ts"

interface Entry {
  readonly response: HttpServerResponse.HttpServerResponse
  readonly bytes: number
  readonly expiresAt: number
  readonly generation: number
}

export interface ResponseCacheOptions {
  readonly ttlMillis: number
  readonly maxBytes: number
  readonly maxEntryBytes: number
}

/** Headers about one client's budget: never handed to another client from the cache. */
const perClientHeaders = [
  "ratelimit-limit",
  "ratelimit-remaining",
  "ratelimit-reset",
  "ratelimit-policy",
  "retry-after"
]

export const defaultOptions: ResponseCacheOptions = {
  ttlMillis: 30_000,
  maxBytes: 64 * 1024 * 1024,
  maxEntryBytes: 8 * 1024 * 1024
}

/**
 * A per-process microcache of successful anonymous GET responses, keyed by URL, `Accept` and whether
 * the client takes gzip (some routes send precompressed bodies), holding them with their validators
 * and standard headers already applied. Entries die after a short TTL or as soon as any data service
 * reports new content, so a hit is never older than the data behind it; requests with credentials
 * always reach their handler.
 */
export const make = (generation: DataGenerationShape, options: ResponseCacheOptions = defaultOptions) => {
  const entries = new Map<string, Entry>()
  let totalBytes = 0
  const remove = (key: string, entry: Entry) => {
    entries.delete(key)
    totalBytes -= entry.bytes
  }
  return {
    size: () => entries.size,

    /** The key of a cacheable request, or undefined. */
    keyOf: (info: RequestInfo): string | undefined => {
      const route = info.route
      if (
        route === undefined || route.cachePolicy === "no-store" || info.method !== "GET" ||
        info.request.headers["authorization"] !== undefined
      ) return undefined
      const headers = info.request.headers
      return `${info.request.url}\n${headers["accept"] ?? ""}\n${acceptsGzip(headers["accept-encoding"])}`
    },

    /** A live entry answers with this request's own headers (request id, rate-limit state) laid over it. */
    lookup: (key: string, info: RequestInfo): HttpServerResponse.HttpServerResponse | undefined => {
      const hit = entries.get(key)
      if (hit === undefined) return undefined
      if (hit.expiresAt > Date.now() && hit.generation === generation.current()) {
        return HttpServerResponse.setHeaders(hit.response, info.responseHeaders)
      }
      remove(key, hit)
      return undefined
    },

    /**
     * Keeps a validated 200 built from data of `builtAt` (the generation read before handling). A
     * response that declares itself `no-store` (a degraded fail-soft answer) is not kept.
     */
    store: (key: string, response: HttpServerResponse.HttpServerResponse, builtAt: number) => {
      if (response.status !== 200 || response.body._tag !== "Uint8Array") return
      if (response.headers["cache-control"] === "no-store") return
      const bytes = response.body.body.byteLength
      if (bytes > options.maxEntryBytes) return
      const previous = entries.get(key)
      if (previous) remove(key, previous)
      for (const [oldest, entry] of entries) {
        if (totalBytes + bytes <= options.maxBytes) break
        remove(oldest, entry)
      }
      // the request that filled the entry may have been counted; the ones it answers may not be
      const shared = HttpServerResponse.uint8Array(response.body.body, {
        status: response.status,
        headers: Headers.remove(response.headers, perClientHeaders),
        contentType: response.body.contentType
      })
      entries.set(key, { response: shared, bytes, expiresAt: Date.now() + options.ttlMillis, generation: builtAt })
      totalBytes += bytes
    },

    generation: () => generation.current()
  }
}

export type ResponseCache = ReturnType<typeof make>
