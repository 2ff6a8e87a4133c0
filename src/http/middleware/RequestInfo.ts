import type { HttpServerRequest } from "@effect/platform"
import type { RouteDescriptor } from "../RouteCatalog.ts"

/** What the middleware stages know about the request in flight. */
export interface RequestInfo {
  readonly id: string
  readonly method: string
  readonly path: string
  /** The path as the router matches it (see `routedPath`): what access and rate-limit rules test. */
  readonly routedPath: string
  readonly route: RouteDescriptor | undefined
  readonly allow: ReadonlyArray<string>
  readonly request: HttpServerRequest.HttpServerRequest
  /** Headers the stages add to the final response, applied once at the end. */
  readonly responseHeaders: Record<string, string>
}

const acceptableId = /^[A-Za-z0-9._:-]{1,128}$/

/** The edge ray id or an incoming request id when it is well-formed, else a fresh one. */
export const requestIdFrom = (headers: Readonly<Record<string, string | undefined>>): string => {
  for (const name of ["cf-ray", "x-request-id"]) {
    const value = headers[name]?.trim()
    if (value !== undefined && acceptableId.test(value)) return value
  }
  return crypto.randomUUID()
}

export const pathOf = (url: string): string => {
  const q = url.indexOf("?")
  return q === -1 ? url : url.slice(0, q)
}

/**
 * The path the way the router (find-my-way with its defaults) matches it: an absolute-form target
 * reduced to its path, duplicate slashes merged, cut at `?`, `;` or `#`, percent-decoded, without a
 * trailing slash, lower-cased. Rules keyed on path prefixes must test this form, or `/API/x`,
 * `//api/x` and `/%61pi/x` would reach a route the rule was meant to cover.
 */
export const routedPath = (url: string): string => {
  let path = url.charCodeAt(0) === 47 ? url : url.replace(/^https?:\/\/.*?\//, "/")
  path = path.replace(/\/\/+/g, "/")
  const end = path.search(/[?;#]/)
  if (end !== -1) path = path.slice(0, end)
  try {
    path = decodeURI(path)
  } catch {
    // malformed escapes: the router matches no route either
  }
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1)
  return path.toLowerCase()
}
