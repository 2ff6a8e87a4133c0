import { Schema } from "effect"
import * as Examples from "./examples/Mcp.ts"
import { DiscoveryRegulatoryStatus } from "./RegulatoryStatus.ts"

export const DiscoveryTool = Schema.Struct({
  name: Schema.String,
  title: Schema.String.annotations({ description: "Display name (tools/list leaves it out to stay lean)" }),
  version: Schema.String,
  deprecated: Schema.Boolean,
  enterprise: Schema.Boolean,
  listed: Schema.Boolean.annotations({
    description: "false: callable but left out of tools/list (a published per-type name of a listed tool)"
  }),
  description: Schema.String,
  inputSchema: Schema.optional(
    Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
      jsonSchema: {
        type: "object",
        description: "The arguments' JSON Schema, for tools tools/list leaves out (listed tools carry it there)"
      }
    })
  )
}).annotations({ identifier: "DiscoveryTool" })

const JsonRpcExample = Schema.Struct({
  title: Schema.String,
  headers: Schema.Record({ key: Schema.String, value: Schema.String }),
  body: Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
    jsonSchema: { type: "object", description: "A JSON-RPC 2.0 request body" }
  })
})

/** `GET /.well-known/mcp`: what an agent needs to connect, filtered by the caller's credentials. */
export const McpDiscoveryDocument = Schema.Struct({
  protocolVersion: Schema.String.annotations({ description: "Preferred (stateless) protocol revision" }),
  supportedProtocolVersions: Schema.Array(Schema.String),
  surfaceVersion: Schema.String,
  serverInfo: Schema.Struct({ name: Schema.String, title: Schema.String, version: Schema.String }),
  transport: Schema.Literal("streamable-http"),
  stateless: Schema.Literal(true),
  regulatory_status: DiscoveryRegulatoryStatus,
  endpoint: Schema.String.annotations({ description: "The MCP endpoint (JSON-RPC 2.0 over POST)" }),
  authenticatedEndpoint: Schema.String.annotations({
    description: "Where authenticated calls go: the same endpoint, with a bearer token"
  }),
  methods: Schema.Array(Schema.String),
  headers: Schema.Record({ key: Schema.String, value: Schema.String }).annotations({
    description: "Request headers of the 2026-07-28 revision and what they must carry"
  }),
  auth: Schema.Struct({
    required: Schema.Array(Schema.String).annotations({ description: "Methods that need a bearer token" }),
    anonymous: Schema.Array(Schema.String).annotations({ description: "Methods open to anonymous callers" }),
    bearerFormats: Schema.Array(Schema.String),
    resourceMetadata: Schema.String.annotations({ description: "RFC 9728 protected-resource metadata" }),
    authorizationServers: Schema.Array(Schema.String)
  }),
  capabilities: Schema.Struct({
    tools: Schema.Array(Schema.String).annotations({ description: "Names of the tools visible to the caller" }),
    resources: Schema.Int,
    resourceTemplates: Schema.Int,
    prompts: Schema.Int
  }),
  tools: Schema.Array(DiscoveryTool),
  enterprise: Schema.Struct({ disclosed: Schema.Boolean, note: Schema.String }),
  pagination: Schema.Struct({ cursor: Schema.String, pageSize: Schema.Int, invalidCursor: Schema.String }),
  conventions: Schema.Record({ key: Schema.String, value: Schema.String }),
  examples: Schema.Array(JsonRpcExample),
  links: Schema.Record({ key: Schema.String, value: Schema.String })
}).annotations({ identifier: "McpDiscoveryDocument", examples: [Examples.discovery] })
export type McpDiscoveryDocument = typeof McpDiscoveryDocument.Type

/** RFC 9728 OAuth 2.0 Protected Resource Metadata for the MCP endpoint. */
export const ProtectedResourceMetadata = Schema.Struct({
  resource: Schema.String,
  authorization_servers: Schema.Array(Schema.String),
  bearer_methods_supported: Schema.Array(Schema.String),
  scopes_supported: Schema.optional(Schema.Array(Schema.String)),
  resource_name: Schema.String,
  resource_documentation: Schema.String
}).annotations({ identifier: "ProtectedResourceMetadata", examples: [Examples.protectedResource] })

/** The experimental MCP Server Card (`GET /mcp/server-card`): identity and how to connect. */
export const McpServerCard = Schema.Struct({
  $schema: Schema.String,
  name: Schema.String,
  title: Schema.String,
  version: Schema.String,
  description: Schema.String,
  websiteUrl: Schema.String,
  remotes: Schema.Array(Schema.Struct({
    type: Schema.Literal("streamable-http"),
    url: Schema.String,
    supportedProtocolVersions: Schema.Array(Schema.String)
  }))
}).annotations({ identifier: "McpServerCard", examples: [Examples.serverCard] })
