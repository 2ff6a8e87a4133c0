import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/**
 * Every REST error is an RFC 9457 problem document. An error class declares its problem type once
 * (slug, status, title); the constructor fills `type`, `title` and `status`, the HTTP layer adds
 * `instance` (the request id) and resolves `type` against the public base URL.
 */
export interface ProblemType {
  readonly slug: string
  readonly status: number
  readonly title: string
  readonly description: string
}

export const problemTypePath = (slug: string): string => `/problems/${slug}`

export const ProblemContentType = "application/problem+json"

const constant = <S extends Schema.Schema.Any>(schema: S, value: Schema.Schema.Type<S>) =>
  schema.pipe(Schema.propertySignature, Schema.withConstructorDefault(() => value))

/** The fields and annotations of one problem type, spread into a `Schema.TaggedError` declaration. */
export const problem = (type: ProblemType) => ({
  fields: {
    type: constant(Schema.String, problemTypePath(type.slug)),
    title: constant(Schema.String, type.title),
    status: constant(Schema.Int, type.status),
    detail: Schema.String,
    instance: Schema.optional(Schema.String.annotations({ description: "The request id (X-Request-Id)" }))
  },
  annotations: {
    title: type.title,
    description: type.description,
    [HttpApiSchema.AnnotationStatus]: type.status,
    [HttpApiSchema.AnnotationEncoding]: { kind: "Json", contentType: ProblemContentType },
    [ProblemTypeAnnotation]: type
  }
})

/** SPEC's short code of a problem type: its slug in snake case (`invalid-request` → `invalid_request`). */
export const problemCode = (slug: string): string => slug.replaceAll("-", "_")

/**
 * The `error` (short code) and `message` (explanation) fields SPEC publishes beside the RFC 9457
 * ones: derived from `type` and `detail` when a problem is sent, so no error class repeats them.
 */
export const problemCodeFields = (body: Record<string, unknown>): { error?: string; message?: string } => {
  const type = typeof body.type === "string" ? body.type : undefined
  const slug = type?.slice(type.lastIndexOf("/") + 1)
  return {
    ...(slug === undefined || slug === "" ? {} : { error: problemCode(slug) }),
    ...(typeof body.detail === "string" ? { message: body.detail } : {})
  }
}

/**
 * A problem as published on every surface (REST bodies, MCP structured content): without the error
 * class's internal `_tag`, with SPEC's `error` and `message` fields and `type` resolved against the
 * service's base URL.
 */
export const publishedProblem = (body: Record<string, unknown>, baseUrl: string): Record<string, unknown> => {
  const { _tag: _internal, ...fields } = body
  const type = typeof fields.type === "string" && fields.type.startsWith("/") ? `${baseUrl}${fields.type}` : fields.type
  return { ...fields, ...problemCodeFields(fields), type }
}

export const ProblemTypeAnnotation: unique symbol = Symbol.for("app/domain/Problem/ProblemType")

export const InvalidParameterIssue = Schema.Struct({
  name: Schema.String.annotations({ description: "The parameter (or body field) that was rejected" }),
  in: Schema.Literal("path", "query", "header", "body"),
  reason: Schema.String
})
export type InvalidParameterIssue = typeof InvalidParameterIssue.Type

const invalidRequest = problem({
  slug: "invalid-request",
  status: 400,
  title: "Invalid request",
  description: "A parameter or the body did not match what the endpoint accepts; `invalidParams` names each one."
})
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", {
  ...invalidRequest.fields,
  invalidParams: Schema.Array(InvalidParameterIssue)
}, invalidRequest.annotations) {}

const notFound = problem({
  slug: "not-found",
  status: 404,
  title: "Not found",
  description: "No resource exists at this path."
})
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", notFound.fields, notFound.annotations) {}

const methodNotAllowed = problem({
  slug: "method-not-allowed",
  status: 405,
  title: "Method not allowed",
  description: "The path exists but does not accept this method; `allow` lists the methods it does accept."
})
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("MethodNotAllowed", {
  ...methodNotAllowed.fields,
  allow: Schema.Array(Schema.String)
}, methodNotAllowed.annotations) {}

const endpointRemoved = problem({
  slug: "endpoint-removed",
  status: 410,
  title: "Endpoint removed",
  description: "The endpoint was removed; `migration` says what replaces it."
})
export class EndpointRemoved extends Schema.TaggedError<EndpointRemoved>()("EndpointRemoved", {
  ...endpointRemoved.fields,
  migration: Schema.Struct({
    skill: Schema.String,
    skillUrl: Schema.String,
    endpoints: Schema.Array(Schema.String),
    steps: Schema.Array(Schema.String)
  })
}, endpointRemoved.annotations) {}

const rateLimited = problem({
  slug: "rate-limited",
  status: 429,
  title: "Rate limit exceeded",
  description: "The anonymous request budget for this client address is used up; retry after `retryAfter` seconds."
})
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  ...rateLimited.fields,
  retryAfter: Schema.Int
}, rateLimited.annotations) {}

const internalError = problem({
  slug: "internal-error",
  status: 500,
  title: "Internal error",
  description: "The service failed unexpectedly. Quote the request id when reporting it."
})
export class InternalError extends Schema.TaggedError<InternalError>()(
  "InternalError",
  internalError.fields,
  internalError.annotations
) {}

const storeUnavailable = problem({
  slug: "store-unavailable",
  status: 503,
  title: "Store unavailable",
  description: "The database keeping shared state cannot be reached; nothing was changed. Retry in a few seconds."
})
/** Seconds a client is told to wait (`Retry-After`) before retrying after a store outage. */
export const RetryAfterSeconds = 5

export class StoreUnavailable extends Schema.TaggedError<StoreUnavailable>()(
  "StoreUnavailable",
  storeUnavailable.fields,
  storeUnavailable.annotations
) {}

const upstreamUnavailable = problem({
  slug: "upstream-unavailable",
  status: 503,
  title: "Upstream unavailable",
  description: "The upstream source is unreachable and no stored copy can answer; retry later."
})
export class UpstreamUnavailable extends Schema.TaggedError<UpstreamUnavailable>()("UpstreamUnavailable", {
  ...upstreamUnavailable.fields,
  upstream: Schema.String
}, upstreamUnavailable.annotations) {}
