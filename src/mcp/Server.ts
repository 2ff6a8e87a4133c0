import { Effect, Either, Schema } from "effect"
import { anonymous, hasUsableCredential, type Principal } from "../domain/Principal.ts"
import { publishedProblem, RetryAfterSeconds, StoreUnavailable } from "../domain/Problem.ts"
import type { McpCatalogShape } from "./Catalog.ts"
import * as JsonRpc from "./JsonRpc.ts"
import { ErrorCode, RpcError } from "./JsonRpc.ts"
import { methods, serverInfo } from "./Methods.ts"
import { classify, type Era, MetaKey } from "./Protocol.ts"

type Headers = Readonly<Record<string, string | undefined>>

/**
 * What the HTTP layer sends back for one POST: a status, the JSON (none for 202; UTF-8 bytes when
 * the result's were ready) and extra headers.
 */
export interface Reply {
  readonly status: number
  readonly body?: string | Uint8Array
  readonly headers?: Readonly<Record<string, string>>
}

export interface ServerOptions {
  readonly catalog: McpCatalogShape
  /**
   * Over HTTP, calls that need a credential are refused without one by a 401 announcing the RFC
   * 9728 metadata URL. Over stdio there is none: the local user who started the server runs the
   * free surface, and the connection's principal (a configured key) discloses the rest.
   */
  readonly challenge: { readonly resourceMetadataUrl: string } | undefined
  /** The service's public base URL, against which problem types in error data are resolved. */
  readonly baseUrl: string
}

export const failure = (id: JsonRpc.RequestId | null, error: RpcError, status = error.status): Reply => ({
  status,
  body: JSON.stringify(JsonRpc.error(id, error)),
  ...(error.headers === undefined ? {} : { headers: error.headers })
})

const challenge = (resourceMetadataUrl: string, bearerPresented: boolean) =>
  new RpcError(
    ErrorCode.Unauthorized,
    bearerPresented
      ? "Unauthorized: the bearer token is not recognized or no longer active"
      : "Unauthorized: tools/call and resources/read need an OAuth access token or an API key as a bearer token",
    401,
    { resource_metadata: resourceMetadataUrl },
    {
      "www-authenticate": `Bearer resource_metadata="${resourceMetadataUrl}"` +
        (bearerPresented ? ", error=\"invalid_token\"" : "")
    }
  )

/** A call that needs the credential, when the store that could check it is unreachable: retry, nothing ran. */
const credentialUnchecked = (error: StoreUnavailable, baseUrl: string) =>
  new RpcError(
    ErrorCode.StoreUnavailable,
    `Service unavailable: ${error.detail}`,
    503,
    publishedProblem(Schema.encodeSync(StoreUnavailable)(error), baseUrl),
    { "retry-after": String(RetryAfterSeconds) }
  )

/**
 * Every result says it is complete; serverInfo rides along on 2026-07-28. The 2025 revisions know
 * no resultType, and their clients expect an empty result (ping, logging/setLevel) to be `{}`.
 */
const complete = (era: Era, value: Record<string, unknown>): Record<string, unknown> => {
  if (era._tag === "Legacy") return Object.keys(value).length === 0 ? value : { resultType: "complete", ...value }
  const meta = typeof value._meta === "object" && value._meta !== null ? value._meta : {}
  return { resultType: "complete", ...value, _meta: { ...meta, [MetaKey.serverInfo]: serverInfo } }
}

const utf8 = new TextEncoder()

/**
 * A frozen result (the catalogue's encoding of a memoized tool answer) never changes, so its text
 * in each era is written and encoded once: per call only the envelope around it is, with the
 * caller's `id`.
 */
const frozenResults = { Modern: new WeakMap<object, Uint8Array>(), Legacy: new WeakMap<object, Uint8Array>() }

const resultBody = (id: JsonRpc.RequestId, era: Era, value: Record<string, unknown>): string | Uint8Array => {
  if (!Object.isFrozen(value)) return JsonRpc.resultResponse(id, JsonRpc.resultText(complete(era, value)))
  const results = frozenResults[era._tag]
  let result = results.get(value)
  if (result === undefined) {
    result = utf8.encode(JsonRpc.resultText(complete(era, value)))
    results.set(value, result)
  }
  return JsonRpc.resultResponseBytes(id, result)
}

/**
 * One MCP POST from body text to reply: envelope, era and header validation, method lookup, the
 * authorization gate, then the method. Protocol misuse answers with a JSON-RPC error at the status
 * the era prescribes; legacy-era method errors travel with 200 as 2025 clients expect.
 */
export const handle = (
  options: ServerOptions,
  input: {
    readonly body: string
    /** Undefined on a transport without headers (stdio). */
    readonly headers: Headers | undefined
    /** The caller; `StoreUnavailable` when a presented credential could not be checked. */
    readonly principal: Either.Either<Principal, StoreUnavailable>
  }
): Effect.Effect<Reply> => {
  const parsed = JsonRpc.parse(input.body)
  if (parsed._tag === "Invalid") return Effect.succeed(failure(parsed.id, parsed.error))
  if (parsed._tag === "Notification") return Effect.succeed({ status: 202 })
  const request = parsed.request
  const era = classify(request, input.headers)
  if (era instanceof RpcError) return Effect.succeed(failure(request.id, era))
  const legacy = era._tag === "Legacy"
  const method = methods.get(request.method)
  if (method === undefined || (method.era === "legacy" && !legacy)) {
    const notFound = new RpcError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`)
    return Effect.succeed(failure(request.id, notFound, legacy ? 200 : 404))
  }
  const resolved = input.principal
  // an unchecked credential still reads what anonymous callers read (initialize, tools/list)
  if (Either.isLeft(resolved) && method.authenticated) {
    return Effect.succeed(failure(request.id, credentialUnchecked(resolved.left, options.baseUrl)))
  }
  const principal = Either.isRight(resolved) ? resolved.right : anonymous
  if (options.challenge !== undefined && method.authenticated && !hasUsableCredential(principal)) {
    const presented = input.headers?.["authorization"] !== undefined
    return Effect.succeed(failure(request.id, challenge(options.challenge.resourceMetadataUrl, presented)))
  }
  return Effect.match(method.run({ params: request.params, era, principal, catalog: options.catalog }), {
    onFailure: (error): Reply => failure(request.id, error, legacy && error.status === 400 ? 200 : error.status),
    onSuccess: (value): Reply => ({ status: 200, body: resultBody(request.id, era, value) })
  })
}
