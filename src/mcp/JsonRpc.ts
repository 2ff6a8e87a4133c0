import { Either } from "effect"
import { type MalformedBody, parseJson } from "../domain/JsonBody.ts"

/**
 * JSON-RPC 2.0 as MCP uses it over HTTP: one message per POST, no batches. Parsing never throws;
 * every way a body can be wrong maps to the error the spec names for it.
 */

export type RequestId = string | number

export interface JsonRpcRequest {
  readonly id: RequestId
  readonly method: string
  readonly params: Record<string, unknown>
}

export interface JsonRpcNotification {
  readonly method: string
}

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Implementation-defined (JSON-RPC server-error range, outside the range MCP reserves). */
  Unauthorized: -32000,
  /** The credential could not be checked: the account store is unreachable (HTTP 503, Retry-After). */
  StoreUnavailable: -32001,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022
} as const

/** A JSON-RPC error with the HTTP status it is sent with. */
export class RpcError {
  constructor(
    readonly code: number,
    readonly message: string,
    readonly status: number = 200,
    readonly data?: unknown,
    readonly headers?: Readonly<Record<string, string>>
  ) {}
}

export type Parsed =
  | { readonly _tag: "Request"; readonly request: JsonRpcRequest }
  | { readonly _tag: "Notification"; readonly notification: JsonRpcNotification }
  | { readonly _tag: "Invalid"; readonly id: RequestId | null; readonly error: RpcError }

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isRequestId = (value: unknown): value is RequestId =>
  typeof value === "string" || (typeof value === "number" && Number.isFinite(value))

const invalid = (id: RequestId | null, message: string): Parsed => ({
  _tag: "Invalid",
  id,
  error: new RpcError(ErrorCode.InvalidRequest, `Invalid request: ${message}`, 400)
})

/** A body that is not UTF-8 JSON within the nesting limit: a parse error, whatever the envelope would be. */
export const unparsable = (body: MalformedBody): RpcError =>
  new RpcError(ErrorCode.ParseError, `Parse error: the body ${body.reason}`, 400)

/** Classifies a POST body: a request, a notification, or the error to answer with. */
export const parse = (text: string): Parsed => {
  const json = parseJson(text)
  if (Either.isLeft(json)) return { _tag: "Invalid", id: null, error: unparsable(json.left) }
  const body = json.right
  if (Array.isArray(body)) return invalid(null, "batches are not supported; send one message per request")
  if (!isObject(body)) return invalid(null, "the body must be a JSON-RPC object")
  const id = isRequestId(body.id) ? body.id : null
  if (body.jsonrpc !== "2.0") return invalid(id, "`jsonrpc` must be \"2.0\"")
  if (typeof body.method !== "string" || body.method.length === 0) return invalid(id, "`method` must be a string")
  if (body.params !== undefined && !isObject(body.params)) return invalid(id, "`params` must be an object")
  if (!("id" in body)) return { _tag: "Notification", notification: { method: body.method } }
  if (id === null) return invalid(null, "`id` must be a string or a number")
  return { _tag: "Request", request: { id, method: body.method, params: body.params ?? {} } }
}

export const result = (id: RequestId, value: Record<string, unknown>) => ({ jsonrpc: "2.0", id, result: value })

export const error = (id: RequestId | null, failure: RpcError) => ({
  jsonrpc: "2.0",
  id,
  error: {
    code: failure.code,
    message: failure.message,
    ...(failure.data === undefined ? {} : { data: failure.data })
  }
})

/**
 * JSON serialized once and written verbatim into the response text: a tool result carries its
 * structured content twice (as `structuredContent` and as JSON text), and serializing it twice
 * is the largest cost of a call. The response is assembled field by field, never by searching the
 * text for a marker, so no client-chosen value (an `id`, an argument echoed back) can move it.
 */
export class JsonText {
  constructor(readonly json: string) {
    // immutable, so that a result holding it may be frozen and its text reused (see Server.ts)
    Object.freeze(this)
  }
  /** Only reached if a JsonText ends up below a result's top level: correct, at the price of a parse. */
  toJSON(): unknown {
    return JSON.parse(this.json)
  }
}

/** `"key":value` of one result member; none for a value JSON leaves out (undefined). */
const member = (key: string, value: unknown): string | undefined => {
  const json: string | undefined = value instanceof JsonText ? value.json : JSON.stringify(value)
  return json === undefined ? undefined : `${JSON.stringify(key)}:${json}`
}

/**
 * The text of a result whose top-level members (`content`, `structuredContent`) may be
 * pre-serialized JSON. A pre-serialized `structuredContent` is written last; every other member
 * keeps its place, so the text is what `JSON.stringify` of the plain result would give.
 */
export const resultText = (value: Record<string, unknown>): string => {
  const { structuredContent, ...rest } = value
  const entries = structuredContent instanceof JsonText
    ? [...Object.entries(rest), ["structuredContent", structuredContent] as const]
    : Object.entries(value)
  const members: Array<string> = []
  for (const [key, field] of entries) {
    const text = member(key, field)
    if (text !== undefined) members.push(text)
  }
  return `{${members.join(",")}}`
}

/** The envelope's fields before a result, whose text follows and a `}` closes. */
const resultHead = (id: RequestId) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`

/** The response text around a result's text (`resultText`). */
export const resultResponse = (id: RequestId, result: string): string => `${resultHead(id)}${result}}`

const utf8 = new TextEncoder()

/**
 * `resultResponse` of a result already encoded as UTF-8: the envelope's bytes around it, without
 * building (and then encoding) the text of the whole response.
 */
export const resultResponseBytes = (id: RequestId, result: Uint8Array): Uint8Array => {
  const head = utf8.encode(resultHead(id))
  const bytes = new Uint8Array(head.byteLength + result.byteLength + 1)
  bytes.set(head)
  bytes.set(result, head.byteLength)
  bytes[bytes.byteLength - 1] = 125 // "}"
  return bytes
}

/** The response text of a result (see `resultText`). */
export const serializeResult = (id: RequestId, value: Record<string, unknown>): string =>
  resultResponse(id, resultText(value))
