import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { McpDiscoveryDocument, McpServerCard, ProtectedResourceMetadata } from "../../domain/Mcp.ts"
import { CachePolicy, IndexGroup } from "../Annotations.ts"
import { PrincipalMiddleware } from "../middleware/Principal.ts"

export const McpPath = "/mcp"
export const DeprecatedMcpPath = "/mcp/pro"
export const ProtectedResourceMetadataPath = "/.well-known/oauth-protected-resource/mcp"

/** The documents that describe the MCP endpoint; the endpoint itself is a raw route (`Routes.ts`). */
export class McpGroup extends HttpApiGroup.make("mcp", { topLevel: true })
  .add(
    HttpApiEndpoint.get("discovery", "/.well-known/mcp")
      .addSuccess(McpDiscoveryDocument)
      .annotate(
        OpenApi.Summary,
        "MCP discovery document: versions, headers, auth, tools (enterprise ones for authenticated callers), " +
          "regulatory status"
      )
      .middleware(PrincipalMiddleware)
  )
  .add(
    HttpApiEndpoint.get("protectedResource", ProtectedResourceMetadataPath)
      .addSuccess(ProtectedResourceMetadata)
      .annotate(OpenApi.Summary, "OAuth protected-resource metadata of /mcp (RFC 9728): the authorization server")
  )
  .add(
    HttpApiEndpoint.get("serverCard", "/mcp/server-card")
      .addSuccess(
        McpServerCard.pipe(
          HttpApiSchema.withEncoding({ kind: "Json", contentType: "application/mcp-server-card+json" })
        )
      )
      .annotate(OpenApi.Summary, "MCP server card (experimental extension): identity and remote endpoint")
  )
  .annotate(IndexGroup, "mcp")
  .annotate(CachePolicy, "data")
  .annotate(OpenApi.Title, "MCP")
{}
