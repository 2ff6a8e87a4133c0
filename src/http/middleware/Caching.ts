import { HttpServerResponse } from "@effect/platform"
import { createHash } from "node:crypto"
import type { CachePolicyName } from "../Annotations.ts"
import type { RequestInfo } from "./RequestInfo.ts"

export const DataCacheControl = "public, max-age=3600, stale-while-revalidate=86400"

export const cacheControlFor: Record<CachePolicyName, string> = {
  data: DataCacheControl,
  screening: DataCacheControl,
  skills: "public, max-age=21600, stale-while-revalidate=86400",
  "no-store": "no-store"
}

/** A weak validator over the body bytes; routes serving prebuilt bodies set their own ETag. */
export const weakEtag = (bytes: Uint8Array): string =>
  `W/"${createHash("sha1").update(bytes).digest("base64url").slice(0, 27)}"`

const opaque = (tag: string) => tag.trim().replace(/^W\//, "")

const matches = (ifNoneMatch: string, etag: string) => {
  if (ifNoneMatch.trim() === "*") return true
  const current = opaque(etag)
  return ifNoneMatch.split(",").some((candidate) => opaque(candidate) === current)
}

/**
 * The response with the stages' headers applied in one step, plus, for successful GETs, the
 * route's Cache-Control policy and (unless no-store) a weak ETag.
 */
export const withHeaders = (
  response: HttpServerResponse.HttpServerResponse,
  info: RequestInfo
): HttpServerResponse.HttpServerResponse => {
  const headers = info.responseHeaders
  if ((info.method === "GET" || info.method === "HEAD") && response.status === 200) {
    const cacheControl = response.headers["cache-control"] ?? cacheControlFor[info.route?.cachePolicy ?? "no-store"]
    headers["cache-control"] = cacheControl
    if (cacheControl !== "no-store" && response.headers["etag"] === undefined && response.body._tag === "Uint8Array") {
      headers["etag"] = weakEtag(response.body.body)
    }
  }
  return HttpServerResponse.setHeaders(response, headers)
}

/** A matching `If-None-Match` turns a validated 200 into a bodiless 304 carrying the same headers. */
export const conditional = (
  response: HttpServerResponse.HttpServerResponse,
  info: RequestInfo
): HttpServerResponse.HttpServerResponse => {
  const etag = response.headers["etag"]
  const ifNoneMatch = info.request.headers["if-none-match"]
  if (response.status !== 200 || etag === undefined || ifNoneMatch === undefined || !matches(ifNoneMatch, etag)) {
    return response
  }
  const { "content-length": _length, "content-type": _type, ...headers } = response.headers
  return HttpServerResponse.empty({ status: 304, headers })
}
