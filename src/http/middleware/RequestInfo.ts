import type { HttpServerRequest } from "@effect/platform"
import type { RouteDescriptor } from "../RouteCatalog.ts"

/** What the middleware stages know about the request in flight. */
export interface RequestInfo {
  readonly id: string
  readonly method: string
  readonly path: string
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
