import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
  UnauthorizedError
} from "@modelcontextprotocol/client"
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { FakeUpstream } from "../support/FakeUpstream.ts"
import { HeadlessOAuthProvider, startFakeAuthorizationServer } from "../support/mcp/FakeAuthorizationServer.ts"
import { fixtureApp } from "../support/mcp/McpTestApp.ts"
import { bearers } from "../support/Principals.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

const info = { name: "e2e", version: "1.0.0" }
const withBearer = (bearer: string) => ({ requestInit: { headers: { authorization: `Bearer ${bearer}` } } })

/** The four client configurations the service supports, each with the version it must end up speaking. */
const clients = [
  {
    name: "@modelcontextprotocol/client 2.x, versionNegotiation auto",
    version: "2026-07-28",
    connect: async (url: URL, bearer?: string) => {
      const client = new ModernClient(info, { versionNegotiation: { mode: "auto" } })
      await client.connect(new ModernTransport(url, bearer === undefined ? {} : withBearer(bearer)))
      return client
    }
  },
  {
    name: "@modelcontextprotocol/client 2.x, pinned to 2026-07-28",
    version: "2026-07-28",
    connect: async (url: URL, bearer?: string) => {
      const client = new ModernClient(info, { versionNegotiation: { mode: { pin: "2026-07-28" } } })
      await client.connect(new ModernTransport(url, bearer === undefined ? {} : withBearer(bearer)))
      return client
    }
  },
  {
    name: "@modelcontextprotocol/client 2.x, legacy 2025-06-18",
    version: "2025-06-18",
    connect: async (url: URL, bearer?: string) => {
      const client = new ModernClient(info, { supportedProtocolVersions: ["2025-06-18"] })
      await client.connect(new ModernTransport(url, bearer === undefined ? {} : withBearer(bearer)))
      return client
    }
  },
  {
    name: "@modelcontextprotocol/sdk 1.x",
    version: "2025-11-25",
    connect: async (url: URL, bearer?: string) => {
      const client = new LegacyClient(info)
      await client.connect(new LegacyTransport(url, bearer === undefined ? {} : withBearer(bearer)))
      return client
    }
  }
] as const

type AnyClient = ModernClient | LegacyClient

const negotiatedVersion = (client: AnyClient) =>
  client instanceof ModernClient ? client.getNegotiatedProtocolVersion() : (client as any)._transport?.protocolVersion

/** Walks every page with explicit cursors (an empty cursor asks for the first page only). */
const pageThrough = async (fetchPage: (cursor?: string) => Promise<{ readonly nextCursor?: string | undefined }>) => {
  const pages: Array<Record<string, any>> = []
  let cursor: string | undefined
  do {
    const page = await fetchPage(cursor)
    pages.push(page)
    cursor = page.nextCursor
  } while (cursor !== undefined)
  return pages
}

describe("real MCP clients against the fixture surface", () => {
  let server: RunningServer
  let url: URL
  beforeAll(async () => {
    server = await startServer({ app: fixtureApp({ pageSize: 2 }) })
    url = new URL(`${server.url}/mcp`)
  })
  afterAll(() => server.close())

  for (const variant of clients) {
    describe(variant.name, () => {
      let client: AnyClient
      beforeAll(async () => {
        client = await variant.connect(url, bearers.apiKey)
      })
      afterAll(() => client.close())

      it(`negotiates ${variant.version}`, () => {
        expect(negotiatedVersion(client)).toBe(variant.version)
      })

      it("lists every tool across pages, enterprise tools included for a key", async () => {
        const pages = await pageThrough((cursor) => client.listTools({ cursor: cursor ?? "" }))
        expect(pages).toHaveLength(2)
        expect(pages.flatMap((page: any) => page.tools.map((tool: any) => tool.name))).toEqual([
          "lookup_term",
          "term_note",
          "list_terms",
          "term_audit"
        ])
        if (client instanceof ModernClient) {
          const all = await client.listTools(undefined, { cacheMode: "bypass" })
          expect(all.tools).toHaveLength(4)
          if (variant.version === "2026-07-28") {
            expect(all).toMatchObject({ ttlMs: 3_600_000, cacheScope: "private" })
          }
        }
      })

      it("calls tools with real arguments and validates structured output", async () => {
        const found = await client.callTool({ name: "lookup_term", arguments: { term: "release" } })
        expect(found.isError ?? false).toBe(false)
        expect(found.structuredContent).toEqual({
          term: "release",
          definition: "Visual or other inspection by a foreign person that reveals technology or source code.",
          citation: "15 CFR 734.15",
          related: ["deemed export"]
        })
        const note = await client.callTool({ name: "term_note", arguments: { term: "export" } })
        expect((note.content as any)[0].text).toContain("# export")
        const missing = await client.callTool({ name: "lookup_term", arguments: { term: "reexport" } })
        expect(missing.isError).toBe(true)
        expect((missing.content as any)[0].text).toContain("Term not found")
        const audit = await client.callTool({ name: "term_audit", arguments: {} })
        expect(audit.structuredContent).toEqual({ count: 3 })
      })

      it("lists and reads resources and templates", async () => {
        const pages = await pageThrough((cursor) => client.listResources({ cursor: cursor ?? "" }))
        const uris = pages.flatMap((page: any) => page.resources.map((resource: any) => resource.uri))
        expect(uris).toEqual([
          "glossary://terms/deemed%20export",
          "glossary://terms/export",
          "glossary://terms/release"
        ])
        const read = await client.readResource({ uri: "glossary://terms/export" })
        expect(read.contents).toEqual([{
          uri: "glossary://terms/export",
          mimeType: "text/markdown",
          text: "# export\n\nAn actual shipment or transmission of items out of the United States."
        }])
        const templates = await client.listResourceTemplates()
        expect(templates.resourceTemplates.map((template: any) => template.uriTemplate)).toEqual([
          "glossary://terms/{term}"
        ])
        await expect(client.readResource({ uri: "glossary://terms/none" })).rejects.toThrow(/Resource not found/)
      })
    })
  }

  it("anonymous clients discover and list the free surface but are refused tools/call", async () => {
    for (const variant of clients) {
      const client = await variant.connect(url)
      const { tools } = await client.listTools()
      expect(tools.map((tool: any) => tool.name)).not.toContain("term_audit")
      await expect(client.callTool({ name: "list_terms", arguments: {} })).rejects.toThrow(/\b401\b|unauthori[sz]ed/i)
      await client.close()
    }
  })
})

describe("401 → protected-resource metadata → authorization server → token", () => {
  let server: RunningServer
  let authorization: FakeUpstream
  let url: URL
  beforeAll(async () => {
    authorization = await startFakeAuthorizationServer(bearers.oauth)
    server = await startServer({ app: fixtureApp(), config: { authUrl: authorization.url } })
    url = new URL(`${server.url}/mcp`)
  })
  afterAll(async () => {
    await server.close()
    await authorization.close()
  })

  it("@modelcontextprotocol/client 2.x (2026-07-28) follows resource_metadata and then calls tools", async () => {
    const provider = new HeadlessOAuthProvider()
    const connect = async () => {
      const client = new ModernClient(info, { versionNegotiation: { mode: "auto" } })
      const transport = new ModernTransport(url, { authProvider: provider as any })
      await client.connect(transport)
      return { client, transport }
    }
    const first = await connect()
    await expect(first.client.callTool({ name: "list_terms", arguments: {} })).rejects.toBeInstanceOf(
      UnauthorizedError
    )
    expect(provider.discovery?.resourceMetadataUrl?.toString() ?? provider.discovery?.resourceMetadataUrl).toBe(
      `${server.url}/.well-known/oauth-protected-resource/mcp`
    )
    expect(authorization.hits.get("/register")).toBe(1)
    await first.transport.finishAuth(provider.callbackUrl!.searchParams)
    await first.client.close()
    const second = await connect()
    expect(second.client.getNegotiatedProtocolVersion()).toBe("2026-07-28")
    const { tools } = await second.client.listTools(undefined, { cacheMode: "bypass" })
    expect(tools.map((tool) => tool.name)).toContain("term_audit")
    const result = await second.client.callTool({ name: "list_terms", arguments: {} })
    expect(result.structuredContent).toEqual({ terms: ["deemed export", "export", "release"] })
    await second.client.close()
  })

  it("@modelcontextprotocol/sdk 1.x (2025-11-25) does the same", async () => {
    const provider = new HeadlessOAuthProvider()
    const transport = new LegacyTransport(url, { authProvider: provider as any })
    const client = new LegacyClient(info)
    await client.connect(transport)
    await expect(client.callTool({ name: "list_terms", arguments: {} })).rejects.toThrow(/Unauthorized/)
    await transport.finishAuth(provider.callbackUrl!.searchParams.get("code")!)
    const result = await client.callTool({ name: "list_terms", arguments: {} })
    expect(result.structuredContent).toEqual({ terms: ["deemed export", "export", "release"] })
    await client.close()
  })
})
