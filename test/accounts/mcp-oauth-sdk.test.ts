import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
  UnauthorizedError
} from "@modelcontextprotocol/client"
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { minimalClassificationPayload } from "../fixtures/documents/classification.ts"
import { HeadlessOAuthProvider } from "../support/mcp/FakeAuthorizationServer.ts"
import { addUsers, consent, freeUser, newDataDir, publicAppWithProbe, type TestUser } from "../support/OAuthDriver.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

/** The SDK provider as a user's browser would drive it: sign in on our consent page and allow. */
class SigningInProvider extends HeadlessOAuthProvider {
  constructor(private readonly user: TestUser) {
    super()
  }
  override get clientMetadata() {
    return { ...super.clientMetadata, client_name: "SDK e2e agent", application_type: "native" }
  }
  override async redirectToAuthorization(url: URL) {
    const { location } = await consent(url, this.user)
    this.callbackUrl = new URL(location!)
  }
}

const info = { name: "oauth-e2e", version: "1.0.0" }
const toolNames = (result: { readonly tools: ReadonlyArray<{ readonly name: string }> }) =>
  result.tools.map((tool) => tool.name)

// Our own authorization server, end to end, driven only by the official MCP SDK clients.
describe("MCP SDK clients sign in through our authorization server", () => {
  let server: RunningServer
  let url: URL
  beforeAll(async () => {
    const dataDir = await newDataDir()
    await addUsers(dataDir, [freeUser])
    server = await startServer({ config: { dataDir }, app: publicAppWithProbe })
    url = new URL(`${server.url}/mcp`)
  })
  afterAll(() => server.close())

  it("@modelcontextprotocol/client 2.x: 401 → metadata → registration → consent → token → tools", async () => {
    const provider = new SigningInProvider(freeUser)
    const connect = async () => {
      const client = new ModernClient(info, { versionNegotiation: { mode: "auto" } })
      const transport = new ModernTransport(url, { authProvider: provider as any })
      await client.connect(transport)
      return { client, transport }
    }
    const first = await connect()
    const anonymousTools = toolNames(await first.client.listTools(undefined, { cacheMode: "bypass" }))
    await expect(first.client.callTool({ name: "get_regulatory_status", arguments: {} })).rejects.toBeInstanceOf(
      UnauthorizedError
    )
    expect(String(provider.discovery?.resourceMetadataUrl)).toBe(
      `${server.url}/.well-known/oauth-protected-resource/mcp`
    )
    expect(provider.client.client_id).toMatch(/^svc_client_/)
    expect(provider.callbackUrl?.searchParams.get("iss")).toBe(server.url)
    await first.transport.finishAuth(provider.callbackUrl!.searchParams)
    expect(provider.tokenSet.access_token).toMatch(/^svc_oauth_/)
    await first.client.close()

    const second = await connect()
    expect(second.client.getNegotiatedProtocolVersion()).toBe("2026-07-28")
    const signedInTools = toolNames(await second.client.listTools(undefined, { cacheMode: "bypass" }))
    expect(signedInTools).toEqual(expect.arrayContaining(anonymousTools))
    // a signed-in free-tier user sees the enterprise tools; with no credits a paid tool answers purchase information
    // the document tools are listed once, taking the type; SPEC's per-type names stay callable (below)
    expect(anonymousTools).not.toContain("create_pdf")
    expect(signedInTools).toEqual(expect.arrayContaining(["create_pdf", "get_pdf_contract"]))
    const result = await second.client.callTool({ name: "get_regulatory_status", arguments: {} })
    expect(result.isError ?? false).toBe(false)
    expect(JSON.stringify(result.structuredContent)).toContain("Affiliates")
    const paid = await second.client.callTool({
      name: "create_classification_pdf",
      arguments: { payload: minimalClassificationPayload }
    })
    expect(paid.isError).toBe(true)
    expect(paid.structuredContent).toMatchObject({
      status: 402,
      reason: "exhausted",
      plan: { purchaseUrl: expect.any(String), contact: expect.any(String) }
    })
    await second.client.close()
  })

  it("@modelcontextprotocol/sdk 1.x (2025-11-25) completes the same flow", async () => {
    const provider = new SigningInProvider(freeUser)
    const transport = new LegacyTransport(url, { authProvider: provider as any })
    const client = new LegacyClient(info)
    await client.connect(transport)
    await expect(client.callTool({ name: "get_regulatory_status", arguments: {} })).rejects.toThrow(/Unauthorized/)
    await transport.finishAuth(provider.callbackUrl!.searchParams.get("code")!)
    const result = await client.callTool({ name: "get_regulatory_status", arguments: {} })
    expect(result.isError ?? false).toBe(false)
    const paid = await client.callTool({
      name: "create_classification_pdf",
      arguments: { payload: minimalClassificationPayload }
    })
    expect(paid.isError).toBe(true)
    expect(paid.structuredContent).toMatchObject({ reason: "exhausted", plan: expect.any(Object) })
    await client.close()
  })
})
