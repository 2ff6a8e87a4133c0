/** Examples of the MCP discovery documents shown by the OpenAPI document (lists cut short). */
export const discovery = {
  "protocolVersion": "2026-07-28",
  "supportedProtocolVersions": [
    "2026-07-28",
    "2025-11-25",
    "2025-06-18"
  ],
  "surfaceVersion": "2.3.0",
  "serverInfo": {
    "name": "export-compliance-data-service",
    "title": "Export Compliance Data Service",
    "version": "2.3.0"
  },
  "transport": "streamable-http",
  "stateless": true,
  "regulatory_status": {
    "as_of": "2026-11-26",
    "affiliates_rule": "in_force",
    "affiliates_snapback": "2026-11-10",
    "days_until_affiliates_snapback": 0,
    "suppressor_transfer": "effective",
    "suppressor_effective": "2026-11-20",
    "banner":
      "Affiliates Rule in force again since 2026-11-10 (suspension ended 2026-11-09). Suppressors controlled under 0A501.f and 0A502.f since 2026-11-20. Details: get_regulatory_status.",
    "tool": "get_regulatory_status"
  },
  "endpoint": "https://ecds.example.org/mcp",
  "authenticatedEndpoint": "https://ecds.example.org/mcp",
  "methods": [
    "server/discover",
    "initialize",
    "ping",
    "logging/setLevel",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "prompts/list",
    "prompts/get",
    "notifications/*"
  ],
  "headers": {
    "MCP-Protocol-Version":
      "Required on every 2026-07-28 request; equals _meta[\"io.modelcontextprotocol/protocolVersion\"].",
    "Mcp-Method": "Required on every 2026-07-28 request; equals the JSON-RPC method.",
    "Mcp-Name":
      "Required on tools/call (tool name), resources/read (URI) and prompts/get (prompt name); values that are not plain ASCII are sent as =?base64?<base64 of UTF-8>?=.",
    "Authorization":
      "Bearer <svc_oauth_… (OAuth 2.1 access token) or svc_live_… (API key)>; required for tools/call and resources/read."
  },
  "auth": {
    "required": [
      "tools/call",
      "resources/read"
    ],
    "anonymous": [
      "server/discover",
      "initialize",
      "ping",
      "tools/list",
      "resources/list",
      "resources/templates/list",
      "prompts/list",
      "notifications/*"
    ],
    "bearerFormats": [
      "svc_oauth_… (OAuth 2.1 access token)",
      "svc_live_… (API key)"
    ],
    "resourceMetadata": "https://ecds.example.org/.well-known/oauth-protected-resource/mcp",
    "authorizationServers": [
      "https://ecds.example.org"
    ]
  },
  "capabilities": {
    "tools": [
      "list_skills",
      "get_skill",
      "get_skill_bundle",
      "get_ecfr_part",
      "get_ecfr_sections",
      "search_ecfr_part"
    ],
    "resources": 156,
    "resourceTemplates": 4,
    "prompts": 0
  },
  "tools": [
    {
      "name": "list_skills",
      "title": "List the compliance skills",
      "version": "1.0.0",
      "deprecated": false,
      "enterprise": false,
      "listed": true,
      "description":
        "The 20 compliance skills: purpose, when to use, and their files, each a resource (svc://skills/<name>/<kind>/<file>)."
    },
    {
      "name": "get_skill",
      "title": "Read a skill",
      "version": "1.0.0",
      "deprecated": false,
      "enterprise": false,
      "listed": true,
      "description":
        "A skill's SKILL.md: the procedure, tools to call, how to cite, what to escalate. Load it before the task."
    }
  ],
  "enterprise": {
    "disclosed": true,
    "note": "Your credentials disclose the enterprise tools; they are listed above."
  },
  "pagination": {
    "cursor":
      "Lists return nextCursor while more entries follow; pass it back verbatim as params.cursor. Cursors are opaque: never build or edit one.",
    "pageSize": 50,
    "invalidCursor": "A cursor this server did not issue is rejected with -32602."
  },
  "conventions": {
    "resultType":
      "Every result carries resultType \"complete\" (this server never asks for input mid-call), except the empty results of the 2025 revisions (ping, logging/setLevel), which are {}.",
    "caching":
      "List and read results carry ttlMs (milliseconds the result may be reused) and cacheScope (\"private\" when the answer depends on your credentials).",
    "errors":
      "Tool failures (unknown ECCN, invalid arguments, upstream down) are tool results with isError and a message; protocol misuse is a JSON-RPC error: -32700 parse error, -32600 invalid request, -32601 unknown method (HTTP 404 on 2026-07-28), -32602 invalid params or unknown tool/resource/cursor, -32603 internal error, -32020 header mismatch, -32022 unsupported protocol version (data.supported, data.requested).",
    "sessions":
      "Stateless: no session ids, no server-initiated streams, no progress notifications. 2025-era clients send initialize first; 2026-07-28 clients send _meta on every request instead.",
    "notifications": "Notifications (no id) are accepted with HTTP 202 and no body.",
    "citations": "Answers name their CFR section and eCFR date; cite them. Output is not legal advice.",
    "deprecatedAlias": "POST /mcp/pro is a deprecated alias of /mcp."
  },
  "examples": [
    {
      "title": "Discover the server (anonymous)",
      "headers": {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "server/discover"
      },
      "body": {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "server/discover",
        "params": {
          "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {
              "name": "example-agent",
              "version": "1.0.0"
            }
          }
        }
      }
    }
  ],
  "links": {
    "index": "https://ecds.example.org/",
    "openapi": "https://ecds.example.org/openapi.json",
    "skills": "https://ecds.example.org/skills",
    "protectedResourceMetadata": "https://ecds.example.org/.well-known/oauth-protected-resource/mcp",
    "serverCard": "https://ecds.example.org/mcp/server-card",
    "authorizationServer": "https://ecds.example.org"
  }
} as const

export const protectedResource = {
  "resource": "https://ecds.example.org/mcp",
  "authorization_servers": [
    "https://ecds.example.org"
  ],
  "bearer_methods_supported": [
    "header"
  ],
  "resource_name": "Export Compliance Data Service MCP server",
  "resource_documentation": "https://ecds.example.org/docs"
} as const

export const serverCard = {
  "$schema": "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json",
  "name": "svc/export-compliance-data-service",
  "title": "Export Compliance Data Service",
  "version": "2.3.0",
  "description":
    "Read-only, citable access to U.S. export-control regulations: the eCFR text of EAR parts 732-774 and ITAR part 121, ECCN entries, the Commerce Country Chart, regulatory status, screening, enforcement and research sources, and 20 compliance skills as resources (svc://skills/<name>). Cite the CFR section and the eCFR date each answer gives. Searches fail soft: a source that is down, empty or not configured answers no hits plus `error` or `data_state`; read it before taking no hits as nothing found. Long results come in pages whose end says how to read on. Structured results have the shapes of the REST twins in /openapi.json. The output is not legal advice; screening matches are for human adjudication; send only public information. Enterprise tools (compliance PDF documents and their payload contracts, registries, enforcement checks of named parties) are disclosed to authenticated callers: sign in with OAuth or send an API key as a bearer token.",
  "websiteUrl": "https://ecds.example.org/",
  "remotes": [
    {
      "type": "streamable-http",
      "url": "https://ecds.example.org/mcp",
      "supportedProtocolVersions": [
        "2026-07-28",
        "2025-11-25",
        "2025-06-18"
      ]
    }
  ]
} as const
