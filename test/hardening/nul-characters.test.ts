import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { workspaceAuth } from "../support/mcp/WorkspaceClients.ts"
import { newDataDir, publicAppWithProbe, registerClient } from "../support/OAuthDriver.ts"
import { bearers } from "../support/Principals.ts"
import { startRegulatoryDataServer } from "../support/RegulatoryDataServer.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

/**
 * PostgreSQL stores no NUL character (U+0000) in text or jsonb. A NUL in a workspace record, a
 * client registration, a client id or a refresh grant reached the store, which refused the
 * statement: the caller got 503 "store unavailable" (the workspace tools: "The workspace store is
 * unavailable") and the log an ERROR, for what is a malformed request. Anyone could do so to the
 * OAuth endpoints. A NUL is now refused before the store: an invalid argument (MCP), 400
 * invalid_client_metadata or invalid_request (OAuth).
 */
describe("NUL characters are malformed requests, never store outages", () => {
  describe("MCP workspace tools", () => {
    let server: RunningServer
    beforeAll(async () => {
      server = await startRegulatoryDataServer({ auth: workspaceAuth })
    })
    afterAll(() => server.close())

    const call = (args: unknown, name: string) =>
      server.get("/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-06-18",
          authorization: `Bearer ${bearers.apiKey}`
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: args } })
      })

    it.each([
      ["sync_compliance_transaction", { reference: "T-1", parties: [{ name: "Acme\u0000Trading" }] }],
      ["record_screening", { party: "Acme\u0000", decision: "clear", analyst: "A. Analyst" }],
      ["add_regulatory_note", { target: { eccn: "3A001" }, text: "see\u0000also" }],
      ["get_party_status", { party: "Acme\u0000" }],
      ["delete_regulatory_note", { id: "note_\u0000" }],
      ["sync_compliance_transaction", {
        reference: "T-2",
        events: [{ type: "note", status: "complete", summary: "s", links: [{ url: "https://x.example/\u0000" }] }]
      }]
    ])("%s with a NUL is an invalid argument naming the character, not a store outage", async (name, args) => {
      const response = await call(args, name)
      expect(response.status).toBe(200)
      const { result } = await response.json()
      expect(result.isError).toBe(true)
      expect(result.content[0].text).toMatch(/^Invalid arguments: .*(must not hold the NUL character|must be an http)/)
    })

    it("the same call without the NUL is recorded", async () => {
      const response = await call({ party: "Acme", decision: "clear", analyst: "A. Analyst" }, "record_screening")
      expect(response.status).toBe(200)
      expect((await response.json()).result.isError).toBeUndefined()
    })
  })

  describe("OAuth endpoints", () => {
    let server: RunningServer
    beforeAll(async () => {
      server = await startServer({ config: { dataDir: await newDataDir() }, app: publicAppWithProbe })
    })
    afterAll(() => server.close())

    it("a registration holding a NUL is invalid_client_metadata, not 503", async () => {
      for (const metadata of [{ scope: "mcp\u0000" }, { contacts: ["ops\u0000@example.com"] }]) {
        const { body, status } = await registerClient(server.url, {
          redirect_uris: ["https://app.example/cb"],
          token_endpoint_auth_method: "none",
          ...metadata
        })
        expect(status).toBe(400)
        expect(body.error).toBe("invalid_client_metadata")
      }
    })

    it("a token request holding a NUL is invalid_request, not 503", async () => {
      const response = await server.get("/oauth/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: "svc_refresh_x",
          client_id: "svc_client_\u0000"
        })
      })
      expect(response.status).toBe(400)
      expect((await response.json()).error).toBe("invalid_request")
    })

    it("an authorization request whose query holds a NUL is a 400, not a 503 page", async () => {
      const response = await server.get("/oauth/authorize?response_type=code&client_id=svc_client_x%00", {
        redirect: "manual"
      })
      expect(response.status).toBe(400)
    })
  })
})
