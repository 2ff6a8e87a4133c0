import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { fixtureRoutes } from "../support/mcp/McpTestApp.ts"
import { bearers } from "../support/Principals.ts"
import * as WebApp from "../support/WebApp.ts"

const { baseUrl } = WebApp

describe("MCP discovery documents", () => {
  it.layer(WebApp.layer(fixtureRoutes()))((it) => {
    it.effect("GET /.well-known/mcp describes the free surface to anonymous callers", () =>
      Effect.gen(function*() {
        const { body: document, response } = yield* WebApp.fetchJson("/.well-known/mcp")
        expect(response.status).toBe(200)
        expect(response.headers.get("cache-control")).toBe("public, max-age=3600, stale-while-revalidate=86400")
        expect(response.headers.get("vary")).toBe("Authorization")
        expect(document).toMatchObject({
          protocolVersion: "2026-07-28",
          supportedProtocolVersions: ["2026-07-28", "2025-11-25", "2025-06-18"],
          surfaceVersion: "2.3.0",
          serverInfo: { name: "export-compliance-data-service", version: "2.3.0" },
          transport: "streamable-http",
          stateless: true,
          endpoint: `${baseUrl}/mcp`,
          authenticatedEndpoint: `${baseUrl}/mcp`,
          auth: {
            required: ["tools/call", "resources/read"],
            resourceMetadata: `${baseUrl}/.well-known/oauth-protected-resource/mcp`,
            authorizationServers: [baseUrl]
          },
          capabilities: { tools: ["lookup_term", "term_note", "list_terms"], resources: 3, resourceTemplates: 1 },
          enterprise: { disclosed: false },
          pagination: { pageSize: 50 },
          links: { openapi: `${baseUrl}/openapi.json`, serverCard: `${baseUrl}/mcp/server-card` }
        })
        expect(document.methods).toEqual(expect.arrayContaining(["server/discover", "initialize", "tools/call"]))
        expect(Object.keys(document.headers)).toEqual([
          "MCP-Protocol-Version",
          "Mcp-Method",
          "Mcp-Name",
          "Authorization"
        ])
        expect(document.enterprise.note).toContain("authenticated callers")
        expect(document.tools[1]).toEqual({
          name: "term_note",
          title: "Glossary note",
          version: "1.1.0",
          deprecated: true,
          enterprise: false,
          listed: true,
          description: "A markdown note on a term, for quoting."
        })
        expect(document.regulatory_status).toMatchObject({
          affiliates_rule: expect.any(String),
          affiliates_snapback: "2026-11-10",
          suppressor_effective: "2026-11-20",
          tool: "get_regulatory_status"
        })
        expect(document.examples.map((example: { body: { method: string } }) => example.body.method)).toEqual([
          "server/discover",
          "tools/list",
          "resources/read",
          "tools/call"
        ])
      }))

    it.effect("discloses enterprise tools to authenticated callers, marked private", () =>
      Effect.gen(function*() {
        const { body: document, response } = yield* WebApp.fetchJson("/.well-known/mcp", {
          headers: { authorization: `Bearer ${bearers.oauth}` }
        })
        expect(response.headers.get("cache-control")).toBe("private, max-age=300")
        expect(document.capabilities.tools).toEqual(["lookup_term", "term_note", "list_terms", "term_audit"])
        expect(document.tools[3]).toMatchObject({ name: "term_audit", enterprise: true })
        expect(document.enterprise.disclosed).toBe(true)
      }))

    it.effect("serves RFC 9728 protected-resource metadata naming the authorization server", () =>
      Effect.gen(function*() {
        const { body, response } = yield* WebApp.fetchJson("/.well-known/oauth-protected-resource/mcp")
        expect(response.status).toBe(200)
        expect(response.headers.get("access-control-allow-origin")).toBe("*")
        expect(body).toEqual({
          resource: `${baseUrl}/mcp`,
          authorization_servers: [baseUrl],
          bearer_methods_supported: ["header"],
          resource_name: "Export Compliance Data Service MCP server",
          resource_documentation: `${baseUrl}/docs`
        })
      }))

    it.effect("serves the experimental server card", () =>
      Effect.gen(function*() {
        const { body, response } = yield* WebApp.fetchJson("/mcp/server-card")
        expect(response.headers.get("content-type")).toBe("application/mcp-server-card+json")
        expect(body).toMatchObject({
          name: "svc/export-compliance-data-service",
          version: "2.3.0",
          remotes: [{
            type: "streamable-http",
            url: `${baseUrl}/mcp`,
            supportedProtocolVersions: ["2026-07-28", "2025-11-25", "2025-06-18"]
          }]
        })
      }))

    it.effect("lists the MCP routes in the index directory", () =>
      Effect.gen(function*() {
        const { body: index } = yield* WebApp.fetchJson("/")
        expect(index.endpoints.mcp).toEqual([
          expect.stringMatching(/^GET \/\.well-known\/mcp — MCP discovery document/),
          expect.stringMatching(/^GET \/\.well-known\/oauth-protected-resource\/mcp — /),
          expect.stringMatching(/^GET \/mcp\/server-card — /),
          expect.stringMatching(/^POST \/mcp — MCP server/),
          "POST /mcp/pro — deprecated alias of POST /mcp",
          "GET /.well-known/oauth-authorization-server — OAuth 2.1 authorization server metadata (RFC 8414)",
          "POST /oauth/register — OAuth dynamic client registration (RFC 7591)"
        ])
      }))
  })
})
