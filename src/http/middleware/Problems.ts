import { HttpServerError, HttpServerResponse } from "@effect/platform"
import { Cause, Effect, Exit, Option, Schema } from "effect"
import { fieldAt, type FormattedIssue, reasonOf } from "../../domain/DecodeIssues.ts"
import {
  InternalError,
  type InvalidParameterIssue,
  InvalidRequest,
  MethodNotAllowed,
  NotFound,
  ProblemContentType,
  publishedProblem,
  RetryAfterSeconds,
  StoreUnavailable
} from "../../domain/Problem.ts"
import type { RequestInfo } from "./RequestInfo.ts"

const decoder = new TextDecoder()

type ProblemError = { readonly status: number }

const encodeBody = (error: ProblemError): Record<string, unknown> =>
  Schema.encodeSync(error.constructor as unknown as Schema.Schema<any, any>)(error)

/** The response an error class declares: its problem body and status (the middleware adds `instance`). */
export const problemResponse = (
  error: ProblemError,
  headers?: Record<string, string>
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeJson(encodeBody(error), {
    status: error.status,
    contentType: ProblemContentType,
    ...(headers ? { headers } : {})
  })

/**
 * Adds the request id as `instance`, resolves the relative problem `type` against the base URL and
 * adds SPEC's published `error` (short code) and `message` fields. The error class's `_tag` is an
 * internal name, not part of the document.
 */
const finish = (
  body: Record<string, unknown>,
  status: number,
  info: RequestInfo,
  baseUrl: string,
  headers?: Readonly<Record<string, string>>
) => {
  // a store outage is brief by nature: tell clients when to come back (RFC 9110 §10.2.3)
  const retry = body.type === storeUnavailableType && headers?.["retry-after"] === undefined
    ? { ...headers, "retry-after": String(RetryAfterSeconds) }
    : headers
  return HttpServerResponse.unsafeJson({ ...publishedProblem(body, baseUrl), instance: info.id }, {
    status,
    contentType: ProblemContentType,
    ...(retry ? { headers: retry } : {})
  })
}

const storeUnavailableType = new StoreUnavailable({ detail: "" }).type

/** A problem response for `error`, complete with `instance` and an absolute `type`. */
export const finishError = (
  error: ProblemError,
  info: RequestInfo,
  baseUrl: string,
  headers?: Record<string, string>
) => finish(encodeBody(error), error.status, info, baseUrl, headers)

const parseBody = (response: HttpServerResponse.HttpServerResponse): Record<string, unknown> | undefined => {
  if (response.body._tag !== "Uint8Array") return undefined
  try {
    const parsed = JSON.parse(decoder.decode(response.body.body))
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

interface DecodeIssue extends FormattedIssue {
  readonly path: ReadonlyArray<PropertyKey>
}

const pathParams = (route: string | undefined) =>
  new Set(Array.from(route?.matchAll(/:([A-Za-z_]+)/g) ?? [], (m) => m[1]!))

/**
 * HttpApi's own schema-decode failure, restated as an InvalidRequest problem naming each parameter
 * and what it must be (from the route's input schemas), in the words MCP uses for tool arguments.
 */
const fromDecodeError = (body: Record<string, unknown>, info: RequestInfo): InvalidRequest => {
  const inPath = pathParams(info.route?.path)
  const issues = Array.isArray(body.issues) ? body.issues as ReadonlyArray<DecodeIssue> : []
  const byName = new Map<string, { readonly path: ReadonlyArray<PropertyKey>; readonly issues: Array<DecodeIssue> }>()
  for (const issue of issues) {
    const name = issue.path.length > 0 ? issue.path.map(String).join(".") : "body"
    const entry = byName.get(name) ?? { path: issue.path, issues: [] }
    entry.issues.push(issue)
    byName.set(name, entry)
  }
  const inputs = info.route?.inputs ?? []
  const invalidParams = Array.from(byName, ([name, { issues, path }]): InvalidParameterIssue => {
    const where = inPath.has(String(path[0])) ? "path" : info.method === "GET" ? "query" : "body"
    const field = inputs.map((input) => fieldAt(input, path)).find((found) => found !== undefined)
    return { name, in: where, reason: reasonOf(issues, path.length === 0 ? undefined : field) }
  })
  const names = invalidParams.map((p) => `${p.name} (${p.reason})`).join("; ")
  return new InvalidRequest({ detail: `Invalid parameter: ${names || "request"}`, invalidParams })
}

/**
 * Turns every failure and every error response into an RFC 9457 problem document carrying the
 * request id. Typed errors arrive already encoded by HttpApi; router misses and defects arrive as
 * failures.
 */
export const withProblems = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
  info: RequestInfo,
  baseUrl: string
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R> =>
  Effect.flatMap(Effect.exit(app), (exit) => {
    if (Exit.isSuccess(exit)) {
      const response = exit.value
      if (response.status < 400) return Effect.succeed(response)
      const body = parseBody(response)
      if (body === undefined) return Effect.succeed(response)
      if (body._tag === "HttpApiDecodeError") {
        return Effect.succeed(finishError(fromDecodeError(body, info), info, baseUrl))
      }
      if (response.headers["content-type"]?.startsWith(ProblemContentType) !== true) return Effect.succeed(response)
      return Effect.succeed(finish(body, response.status, info, baseUrl, response.headers))
    }
    const failure = Cause.failureOption(exit.cause)
    if (Option.isSome(failure) && failure.value instanceof HttpServerError.RouteNotFound) {
      if (info.allow.length > 0) {
        const allow = info.allow.join(", ")
        return Effect.succeed(finishError(
          new MethodNotAllowed({ detail: `${info.method} is not allowed here; use ${allow}.`, allow: info.allow }),
          info,
          baseUrl,
          { allow }
        ))
      }
      return Effect.succeed(finishError(new NotFound({ detail: "No endpoint at this path." }), info, baseUrl))
    }
    if (Cause.isInterruptedOnly(exit.cause)) {
      return Effect.succeed(HttpServerResponse.empty({ status: 499 }))
    }
    return Effect.logError("request failed", exit.cause).pipe(
      Effect.as(finishError(new InternalError({ detail: "Unexpected failure." }), info, baseUrl))
    )
  })
