import { HttpServerResponse } from "@effect/platform"
import { Schema } from "effect"
import { gzipSync } from "node:zlib"
import type { Served } from "../../services/EcfrSource.ts"
import { weakEtag } from "../middleware/Caching.ts"
import { acceptsGzip } from "../middleware/Encoding.ts"

const encoder = new TextEncoder()

/** Bodies smaller than this are not worth compressing. */
const compressFrom = 1024

interface Encoded {
  readonly body: Uint8Array
  readonly etag: string
}

interface Prebuilt {
  readonly identity: Encoded
  gzip: Encoded | undefined
}

const encoded = (body: Uint8Array): Encoded => ({ body, etag: weakEtag(body) })

/**
 * One representation of served values, encoded once per value: snapshot values are the same
 * objects until their part changes, so the bytes of a large part (and their gzip form, built on the
 * first request that accepts it) are computed once per snapshot version, never per request.
 */
export const representation = <A extends object>(contentType: string, render: (value: A) => string) => {
  const built = new WeakMap<A, Prebuilt>()
  return (served: Served<A>, acceptEncoding: string | undefined): HttpServerResponse.HttpServerResponse => {
    let prebuilt = built.get(served.value)
    if (prebuilt === undefined) {
      prebuilt = { identity: encoded(encoder.encode(render(served.value))), gzip: undefined }
      built.set(served.value, prebuilt)
    }
    const compress = prebuilt.identity.body.byteLength >= compressFrom && acceptsGzip(acceptEncoding)
    if (compress) prebuilt.gzip ??= encoded(gzipSync(prebuilt.identity.body))
    const chosen = compress ? prebuilt.gzip! : prebuilt.identity
    const headers: Record<string, string> = {
      etag: chosen.etag,
      vary: "accept-encoding",
      "x-ecfr-issue-date": served.issueDate
    }
    if (compress) headers["content-encoding"] = "gzip"
    if (served.stale) headers["x-data-stale"] = `true; fetched-at=${served.fetchedAt}; issue-date=${served.issueDate}`
    return HttpServerResponse.uint8Array(chosen.body, { contentType, headers })
  }
}

/** A JSON representation of values of a domain schema. */
export const json = <A extends object, I>(schema: Schema.Schema<A, I>) => {
  const encode = Schema.encodeSync(schema)
  return representation<A>("application/json", (value) => JSON.stringify(encode(value)))
}
