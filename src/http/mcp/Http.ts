import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Schema } from "effect"
import { McpDiscoveryDocument, McpServerCard, ProtectedResourceMetadata } from "../../domain/Mcp.ts"
import { CurrentPrincipal, hasUsableCredential } from "../../domain/Principal.ts"
import { ServiceName } from "../../domain/Service.ts"
import { McpCatalog } from "../../mcp/Catalog.ts"
import * as Discovery from "../../mcp/Discovery.ts"
import { instructions, serverInfo } from "../../mcp/Methods.ts"
import { SupportedVersions } from "../../mcp/Protocol.ts"
import { AccessPolicy } from "../../services/AccessPolicy.ts"
import { AppConfig } from "../../services/AppConfig.ts"
import { RegulatoryStatus } from "../../services/RegulatoryStatus.ts"
import { Api } from "../Api.ts"
import { weakEtag } from "../middleware/Caching.ts"
import { DocsPath } from "../service/Api.ts"
import { McpPath, ProtectedResourceMetadataPath } from "./Api.ts"

const encoder = new TextEncoder()

/** Documents other origins fetch from browsers (OAuth clients, catalogs): open to any origin. */
const prebuiltPublicJson = <A, I>(schema: Schema.Schema<A, I>, value: A, contentType = "application/json") => {
  const body = encoder.encode(JSON.stringify(Schema.encodeSync(schema)(value)))
  const headers = { etag: weakEtag(body), "access-control-allow-origin": "*" }
  return () => HttpServerResponse.uint8Array(body, { contentType, headers })
}

export const McpHttpLive = HttpApiBuilder.group(Api, "mcp", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const catalog = yield* McpCatalog
    const access = yield* AccessPolicy
    const status = yield* RegulatoryStatus
    const base = config.publicBaseUrl
    const urls: Discovery.DiscoveryUrls = {
      base,
      endpoint: `${base}${McpPath}`,
      resourceMetadata: `${base}${ProtectedResourceMetadataPath}`
    }
    const protectedResource = prebuiltPublicJson(ProtectedResourceMetadata, {
      resource: urls.endpoint,
      authorization_servers: access.bearers.authorizationServers,
      bearer_methods_supported: ["header"],
      resource_name: `${ServiceName} MCP server`,
      resource_documentation: `${base}${DocsPath}`
    })
    const serverCard = prebuiltPublicJson(McpServerCard, {
      $schema: "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json",
      name: `svc/${serverInfo.name}`,
      title: serverInfo.title,
      version: serverInfo.version,
      description: instructions,
      websiteUrl: `${base}/`,
      remotes: [{ type: "streamable-http", url: urls.endpoint, supportedProtocolVersions: SupportedVersions }]
    }, "application/mcp-server-card+json")
    const encodeDocument = Schema.encode(McpDiscoveryDocument)

    return handlers
      .handle("discovery", () =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const banner = yield* status.discovery
          const document = yield* Discovery.document(catalog, principal, urls, access.bearers, banner).pipe(
            Effect.orDie
          )
          const body = yield* encodeDocument(document).pipe(Effect.orDie)
          // the document depends on the credentials: shared caches keep only the anonymous one
          const cacheControl = hasUsableCredential(principal) ? { "cache-control": "private, max-age=300" } : {}
          return HttpServerResponse.unsafeJson(body, { headers: { vary: "Authorization", ...cacheControl } })
        }))
      .handle("protectedResource", () => Effect.succeed(protectedResource()))
      .handle("serverCard", () => Effect.succeed(serverCard()))
  }))
