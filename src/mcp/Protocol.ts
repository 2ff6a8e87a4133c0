import { ErrorCode, type JsonRpcRequest, RpcError } from "./JsonRpc.ts"

/** The stateless revision: per-request `_meta`, no handshake. Preferred. */
export const ModernVersion = "2026-07-28"
/** Revisions served with the `initialize` handshake (statelessly: no session is ever minted). */
export const LegacyVersions = ["2025-11-25", "2025-06-18"] as const
export const SupportedVersions: ReadonlyArray<string> = [ModernVersion, ...LegacyVersions]

/** Pre-2026 revisions a client may name; requests carrying them are legacy-era even when unsupported. */
const knownLegacyVersions = new Set<string>([...LegacyVersions, "2025-03-26", "2024-11-05", "2024-10-07"])

export const MetaKey = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  serverInfo: "io.modelcontextprotocol/serverInfo"
} as const

/** Methods whose request names its target in `Mcp-Name`, and where the body holds that name. */
const namedTarget: ReadonlyMap<string, "name" | "uri"> = new Map([
  ["tools/call", "name"],
  ["prompts/get", "name"],
  ["resources/read", "uri"]
])

export type Era =
  | { readonly _tag: "Modern"; readonly version: string; readonly clientCapabilities: Record<string, unknown> }
  | { readonly _tag: "Legacy" }

type Headers = Readonly<Record<string, string | undefined>>

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** RFC 9110 §5.5: leading and trailing whitespace is not part of a field value. */
const headerValue = (headers: Headers, name: string) => headers[name]?.trim()

const mismatch = (message: string) => new RpcError(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`, 400)

const base64Sentinel = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/

/** Decodes the `=?base64?…?=` sentinel form of `Mcp-Name`; undefined when the encoding is malformed. */
export const decodeHeaderValue = (value: string): string | undefined => {
  if (!value.startsWith("=?base64?")) return value
  const match = base64Sentinel.exec(value)
  if (match === null || match[1]!.length % 4 !== 0) return undefined
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(match[1]!), (c) => c.charCodeAt(0)))
  } catch {
    return undefined
  }
}

const validateName = (request: JsonRpcRequest, headers: Headers): RpcError | undefined => {
  const field = namedTarget.get(request.method)
  if (field === undefined) return undefined
  const bodyValue = request.params[field]
  const raw = headerValue(headers, "mcp-name")
  if (raw === undefined) {
    return typeof bodyValue === "string" ? mismatch(`Mcp-Name header is required for ${request.method}`) : undefined
  }
  const decoded = decodeHeaderValue(raw)
  if (decoded === undefined) return mismatch("Mcp-Name header carries a malformed base64 value")
  if (decoded !== bodyValue) {
    return mismatch(`Mcp-Name header value '${decoded}' does not match body value '${String(bodyValue)}'`)
  }
  return undefined
}

/** Streamable HTTP repeats the version, method and target in headers, which must equal the body. */
const validateHeaders = (request: JsonRpcRequest, headers: Headers, metaVersion: string): RpcError | undefined => {
  const headerVersion = headerValue(headers, "mcp-protocol-version")
  if (headerVersion === undefined) return mismatch("MCP-Protocol-Version header is required")
  if (headerVersion !== metaVersion) {
    return mismatch(`MCP-Protocol-Version header value '${headerVersion}' does not match body value '${metaVersion}'`)
  }
  const method = headerValue(headers, "mcp-method")
  if (method === undefined) return mismatch("Mcp-Method header is required")
  if (method !== request.method) {
    return mismatch(`Mcp-Method header value '${method}' does not match body value '${request.method}'`)
  }
  return validateName(request, headers)
}

/**
 * Decides the era of a request and validates a modern one in the order the 2026-07-28 revision
 * requires: `_meta` fields present (-32602), then headers equal to the body (-32020), then the
 * version supported (-32022). A request is modern when its `_meta` names a protocol version or its
 * `MCP-Protocol-Version` header names anything but a pre-2026 revision; everything else is legacy.
 * `headers` is undefined on a transport without them (stdio), where the message is its own header.
 */
export const classify = (request: JsonRpcRequest, headers: Headers | undefined): Era | RpcError => {
  const meta = request.params._meta
  const headerVersion = headers === undefined ? undefined : headerValue(headers, "mcp-protocol-version")
  const metaVersion = isObject(meta) ? meta[MetaKey.protocolVersion] : undefined
  if (metaVersion === undefined && (headerVersion === undefined || knownLegacyVersions.has(headerVersion))) {
    if (headerVersion !== undefined && !SupportedVersions.includes(headerVersion)) {
      return unsupportedVersion(headerVersion)
    }
    return { _tag: "Legacy" }
  }
  if (!isObject(meta)) return new RpcError(ErrorCode.InvalidParams, "Invalid params: `_meta` is required", 400)
  const capabilities = meta[MetaKey.clientCapabilities]
  if (typeof metaVersion !== "string") {
    return new RpcError(ErrorCode.InvalidParams, `Invalid params: \`_meta\` must name ${MetaKey.protocolVersion}`, 400)
  }
  if (!isObject(capabilities)) {
    return new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: \`_meta\` must carry ${MetaKey.clientCapabilities}`,
      400
    )
  }
  const headerError = headers === undefined ? undefined : validateHeaders(request, headers, metaVersion)
  if (headerError !== undefined) return headerError
  if (metaVersion !== ModernVersion) return unsupportedVersion(metaVersion)
  return { _tag: "Modern", version: metaVersion, clientCapabilities: capabilities }
}

const unsupportedVersion = (requested: string) =>
  new RpcError(ErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version", 400, {
    supported: SupportedVersions,
    requested
  })

/** The legacy `initialize` answer: the client's version when we speak it, else our newest legacy one. */
export const negotiateLegacy = (requested: unknown): string =>
  typeof requested === "string" && (LegacyVersions as ReadonlyArray<string>).includes(requested)
    ? requested
    : LegacyVersions[0]
