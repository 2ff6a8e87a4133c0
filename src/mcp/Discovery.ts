import { Effect } from "effect"
import type { McpDiscoveryDocument } from "../domain/Mcp.ts"
import { hasUsableCredential, type Principal } from "../domain/Principal.ts"
import type { DiscoveryRegulatoryStatus } from "../domain/RegulatoryStatus.ts"
import { ServiceVersion } from "../domain/Service.ts"
import type { BearerCredentials } from "../services/AccessPolicy.ts"
import type { McpCatalogShape } from "./Catalog.ts"
import type { RpcError } from "./JsonRpc.ts"
import { enterpriseNote, methodNames, serverInfo } from "./Methods.ts"
import { MetaKey, ModernVersion, SupportedVersions } from "./Protocol.ts"

export interface DiscoveryUrls {
  readonly base: string
  readonly endpoint: string
  readonly resourceMetadata: string
}

const modernHeaders = (method: string, name?: string) => ({
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": ModernVersion,
  "Mcp-Method": method,
  ...(name === undefined ? {} : { "Mcp-Name": name })
})

const meta = {
  [MetaKey.protocolVersion]: ModernVersion,
  [MetaKey.clientCapabilities]: {},
  [MetaKey.clientInfo]: { name: "example-agent", version: "1.0.0" }
}

const examples = (firstTool: string | undefined) => [
  {
    title: "Discover the server (anonymous)",
    headers: modernHeaders("server/discover"),
    body: { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta } }
  },
  {
    title: "List tools (anonymous callers see the free tools)",
    headers: modernHeaders("tools/list"),
    body: { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: meta } }
  },
  {
    title: "Read a skill (needs a bearer token)",
    headers: { ...modernHeaders("resources/read", "svc://skills/svc-classify"), Authorization: "Bearer <token>" },
    body: {
      jsonrpc: "2.0",
      id: 3,
      method: "resources/read",
      params: { uri: "svc://skills/svc-classify", _meta: meta }
    }
  },
  ...(firstTool === undefined ? [] : [{
    title: `Call ${firstTool} (needs a bearer token; 2025 clients use initialize and may omit the Mcp-* headers)`,
    headers: { ...modernHeaders("tools/call", firstTool), Authorization: "Bearer <token>" },
    body: { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: firstTool, arguments: {}, _meta: meta } }
  }])
]

const conventions = {
  resultType: "Every result carries resultType \"complete\" (this server never asks for input mid-call), " +
    "except the empty results of the 2025 revisions (ping, logging/setLevel), which are {}.",
  caching: "List and read results carry ttlMs (milliseconds the result may be reused) and cacheScope " +
    "(\"private\" when the answer depends on your credentials).",
  errors: "Tool failures (unknown ECCN, invalid arguments, upstream down) are tool results with isError and a " +
    "message; protocol misuse is a JSON-RPC error: -32700 parse error, -32600 invalid request, -32601 unknown " +
    "method (HTTP 404 on 2026-07-28), -32602 invalid params or unknown tool/resource/cursor, -32603 internal " +
    "error, -32020 header mismatch, -32022 unsupported protocol version (data.supported, data.requested).",
  sessions: "Stateless: no session ids, no server-initiated streams, no progress notifications. 2025-era " +
    "clients send initialize first; 2026-07-28 clients send _meta on every request instead.",
  notifications: "Notifications (no id) are accepted with HTTP 202 and no body.",
  citations: "Answers name their CFR section and eCFR date; cite them. Output is not legal advice.",
  deprecatedAlias: "POST /mcp/pro is a deprecated alias of /mcp."
}

/** The discovery document for one caller: the tools it may see, and a note when more exist. */
export const document = (
  catalog: McpCatalogShape,
  principal: Principal,
  urls: DiscoveryUrls,
  bearers: BearerCredentials,
  regulatoryStatus: DiscoveryRegulatoryStatus
): Effect.Effect<McpDiscoveryDocument, RpcError> =>
  Effect.map(catalog.resources, (resources) => {
    const bound = catalog.tools(principal)
    const tools = bound.map((tool) => tool.definition)
    const disclosed = hasUsableCredential(principal)
    return {
      protocolVersion: ModernVersion,
      supportedProtocolVersions: SupportedVersions,
      surfaceVersion: ServiceVersion,
      serverInfo,
      transport: "streamable-http" as const,
      stateless: true as const,
      regulatory_status: regulatoryStatus,
      endpoint: urls.endpoint,
      authenticatedEndpoint: urls.endpoint,
      methods: [...methodNames, "notifications/*"],
      headers: {
        "MCP-Protocol-Version": `Required on every 2026-07-28 request; equals _meta["${MetaKey.protocolVersion}"].`,
        "Mcp-Method": "Required on every 2026-07-28 request; equals the JSON-RPC method.",
        "Mcp-Name": "Required on tools/call (tool name), resources/read (URI) and prompts/get (prompt name); " +
          "values that are not plain ASCII are sent as =?base64?<base64 of UTF-8>?=.",
        Authorization: `Bearer <${bearers.formats.join(" or ")}>; required for tools/call and resources/read.`
      },
      auth: {
        required: ["tools/call", "resources/read"],
        anonymous: [
          "server/discover",
          "initialize",
          "ping",
          "tools/list",
          "resources/list",
          "resources/templates/list",
          "prompts/list",
          "notifications/*"
        ],
        bearerFormats: bearers.formats,
        resourceMetadata: urls.resourceMetadata,
        authorizationServers: bearers.authorizationServers
      },
      capabilities: {
        tools: tools.map((tool) => tool.name),
        resources: resources.length,
        resourceTemplates: catalog.templates.length,
        prompts: 0
      },
      tools: bound.map(({ definition: tool, listing }) => ({
        name: tool.name,
        title: tool.title,
        version: tool.version,
        deprecated: tool.deprecated !== undefined,
        enterprise: tool.enterprise,
        listed: tool.listed,
        description: tool.description,
        // an unlisted tool's schema is nowhere else a client can read it
        ...(tool.listed ? {} : { inputSchema: listing.inputSchema as Record<string, unknown> })
      })),
      enterprise: {
        disclosed,
        note: disclosed ?
          "Your credentials disclose the enterprise tools; they are listed above."
          : enterpriseNote(bearers.howToAuthenticate)
      },
      pagination: {
        cursor: "Lists return nextCursor while more entries follow; pass it back verbatim as params.cursor. " +
          "Cursors are opaque: never build or edit one.",
        pageSize: catalog.pageSize,
        invalidCursor: "A cursor this server did not issue is rejected with -32602."
      },
      conventions,
      examples: examples(tools[0]?.name),
      links: {
        index: `${urls.base}/`,
        openapi: `${urls.base}/openapi.json`,
        skills: `${urls.base}/skills`,
        protectedResourceMetadata: urls.resourceMetadata,
        serverCard: `${urls.endpoint}/server-card`,
        ...(bearers.authorizationServers[0] === undefined
          ? {}
          : { authorizationServer: bearers.authorizationServers[0] })
      }
    }
  })
