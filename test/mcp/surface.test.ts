import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { modernPost, rawPost, startFixtureServer } from "../support/mcp/McpTestApp.ts"
import { bearers } from "../support/Principals.ts"
import type { RunningServer } from "../support/TestServer.ts"

const auth = (bearer: string) => ({ authorization: `Bearer ${bearer}` })

const call = async (server: RunningServer, name: string, args: unknown, bearer: string = bearers.apiKey) => {
  const response = await modernPost(server, "tools/call", { name, arguments: args }, auth(bearer))
  return { status: response.status, json: await response.json() }
}

describe("MCP tools, resources and disclosure", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startFixtureServer({ pageSize: 2 })
  })
  afterAll(() => server.close())

  const listAll = async (method: string, key: string, headers: Record<string, string> = {}) => {
    const pages: Array<Record<string, any>> = []
    let cursor: string | undefined
    do {
      const response = await modernPost(server, method, cursor === undefined ? {} : { cursor }, headers)
      expect(response.status).toBe(200)
      const { result } = await response.json()
      pages.push(result)
      cursor = result.nextCursor
    } while (cursor !== undefined)
    return { pages, items: pages.flatMap((page) => page[key]) }
  }

  it("lists only the free tools to anonymous callers, in a stable order, with a note on enterprise tools", async () => {
    const first = await listAll("tools/list", "tools")
    const second = await listAll("tools/list", "tools")
    expect(first.items.map((tool) => tool.name)).toEqual(["lookup_term", "term_note", "list_terms"])
    expect(second.items).toEqual(first.items)
    expect(first.pages).toHaveLength(2)
    for (const page of first.pages) {
      expect(page).toMatchObject({ resultType: "complete", ttlMs: 3_600_000, cacheScope: "public" })
      expect(page._meta["svc/enterprise"]).toContain("authenticated callers")
    }
  })

  it("describes each tool with schemas, annotations, version and deprecation", async () => {
    const { items } = await listAll("tools/list", "tools")
    const lookup = items.find((tool) => tool.name === "lookup_term")
    expect(lookup).toEqual({
      name: "lookup_term",
      title: "Look up a glossary term",
      description: "Definition of an export-control term with its CFR citation.",
      inputSchema: {
        type: "object",
        required: ["term"],
        properties: {
          term: { type: "string", description: "The term, e.g. `deemed export`", minLength: 1 }
        },
        additionalProperties: false
      },
      // lean: no output schema (the REST twin's shape is in /openapi.json), no generated titles, no
      // repeated title or hints that mean nothing for a read-only tool
      annotations: { readOnlyHint: true, openWorldHint: false },
      _meta: { "svc/version": "1.0.0" }
    })
    const note = items.find((tool) => tool.name === "term_note")
    expect(note.outputSchema).toBeUndefined()
    expect(note.description).toMatch(/^Deprecated: Use lookup_term\./)
    expect(note._meta).toEqual({ "svc/version": "1.1.0", "svc/deprecated": true })
  })

  it("discloses enterprise tools to an active key or OAuth user, privately cached", async () => {
    for (const bearer of [bearers.apiKey, bearers.oauth]) {
      const { items, pages } = await listAll("tools/list", "tools", auth(bearer))
      expect(items.map((tool) => tool.name)).toEqual(["lookup_term", "term_note", "list_terms", "term_audit"])
      for (const page of pages) {
        expect(page.cacheScope).toBe("private")
        expect(page._meta["svc/enterprise"]).toBeUndefined()
      }
    }
    const inactive = await listAll("tools/list", "tools", auth(bearers.inactive))
    expect(inactive.items.map((tool) => tool.name)).not.toContain("term_audit")
  })

  it("rejects invalid and foreign cursors with -32602", async () => {
    for (const cursor of ["garbage!", "eyJsIjoicmVzb3VyY2VzIiwibyI6Mn0", "eyJsIjoidG9vbHMiLCJvIjo5OX0"]) {
      const response = await modernPost(server, "tools/list", { cursor })
      expect((await response.json()).error.code).toBe(-32602)
    }
    const empty = await modernPost(server, "tools/list", { cursor: "" })
    expect((await empty.json()).result.tools).toHaveLength(2)
  })

  it("answers tools/call and resources/read without a credential with 401 and the metadata URL", async () => {
    const metadata = `${server.url}/.well-known/oauth-protected-resource/mcp`
    for (
      const [method, params] of [
        ["tools/call", { name: "lookup_term", arguments: { term: "export" } }],
        ["resources/read", { uri: "glossary://terms/export" }]
      ] as const
    ) {
      const anonymous = await modernPost(server, method, params)
      expect(anonymous.status).toBe(401)
      expect(anonymous.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadata}"`)
      expect((await anonymous.json()).error.data).toEqual({ resource_metadata: metadata })
      for (const bearer of ["svc_live_unknown", bearers.inactive]) {
        const rejected = await modernPost(server, method, params, auth(bearer))
        expect(rejected.status).toBe(401)
        expect(rejected.headers.get("www-authenticate")).toBe(
          `Bearer resource_metadata="${metadata}", error="invalid_token"`
        )
      }
    }
  })

  it("calls a tool and returns structured content with its JSON text", async () => {
    const { json, status } = await call(server, "lookup_term", { term: "Deemed Export" }, bearers.oauth)
    expect(status).toBe(200)
    const expected = {
      term: "deemed export",
      definition: "A release of technology or source code to a foreign person in the United States.",
      citation: "15 CFR 734.13(b)",
      related: ["export", "release"]
    }
    expect(json.result).toEqual({
      resultType: "complete",
      content: [{ type: "text", text: JSON.stringify(expected) }],
      structuredContent: expected,
      _meta: { "io.modelcontextprotocol/serverInfo": expect.objectContaining({ version: "2.3.0" }) }
    })
  })

  it("returns text tools as text content", async () => {
    const { json } = await call(server, "term_note", { term: "release" })
    expect(json.result.content).toEqual([{
      type: "text",
      text: "# release\n\nVisual or other inspection by a foreign person that reveals technology or source code. " +
        "(15 CFR 734.15)"
    }])
    expect(json.result.structuredContent).toBeUndefined()
  })

  it("reports domain failures and invalid arguments as tool errors an agent can act on", async () => {
    const missing = await call(server, "lookup_term", { term: "reexport" })
    expect(missing.status).toBe(200)
    expect(missing.json.result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "Term not found: The glossary has no term \"reexport\"." }]
    })
    const invalid = await call(server, "lookup_term", { term: "", extra: 1 })
    expect(invalid.json.result.isError).toBe(true)
    expect(invalid.json.result.content[0].text).toBe(
      "Invalid arguments: `extra` is not a known parameter (known: `term`); `term` must be a non-empty string"
    )
    const noArguments = await call(server, "lookup_term", undefined)
    expect(noArguments.json.result.isError).toBe(true)
  })

  it("answers an unknown or undisclosed tool with -32602", async () => {
    const unknown = await call(server, "no_such_tool", {})
    expect(unknown.json.error).toEqual({
      code: -32602,
      message: "Unknown tool: no_such_tool (tools/list names them all)",
      data: { name: "no_such_tool", nearest: [] }
    })
    const typo = await call(server, "lookup_terms", {})
    expect(typo.json.error).toMatchObject({
      message: "Unknown tool: lookup_terms. Did you mean lookup_term, list_terms, term_note?",
      data: { nearest: ["lookup_term", "list_terms", "term_note"] }
    })
    const enterprise = await call(server, "term_audit", {}, bearers.apiKey)
    expect(enterprise.json.result.structuredContent).toEqual({ count: 3 })
  })

  it("lists resources and templates with caching hints and reads them", async () => {
    const resources = await listAll("resources/list", "resources")
    expect(resources.items.map((resource) => resource.uri)).toEqual([
      "glossary://terms/deemed%20export",
      "glossary://terms/export",
      "glossary://terms/release"
    ])
    expect(resources.pages[0]).toMatchObject({ ttlMs: 60_000, cacheScope: "public" })
    const templates = await listAll("resources/templates/list", "resourceTemplates")
    expect(templates.items).toEqual([expect.objectContaining({ uriTemplate: "glossary://terms/{term}" })])
    const uri = "glossary://terms/deemed%20export"
    const read = await modernPost(server, "resources/read", { uri }, auth(bearers.apiKey))
    expect((await read.json()).result).toMatchObject({
      resultType: "complete",
      ttlMs: 60_000,
      cacheScope: "public",
      contents: [{ uri, mimeType: "text/markdown", text: expect.stringContaining("# deemed export") }]
    })
  })

  it("answers a missing resource with -32602 naming the URI, never empty contents", async () => {
    const uri = "glossary://terms/nothing"
    const response = await modernPost(server, "resources/read", { uri }, auth(bearers.apiKey))
    expect((await response.json()).error).toEqual({
      code: -32602,
      message: `Resource not found: ${uri}`,
      data: { uri }
    })
  })

  it("offers an empty prompt list and rejects prompts/get", async () => {
    const list = await modernPost(server, "prompts/list")
    expect((await list.json()).result).toMatchObject({ prompts: [], ttlMs: 3_600_000, cacheScope: "public" })
    const get = await modernPost(server, "prompts/get", { name: "x" })
    expect((await get.json()).error.code).toBe(-32602)
  })

  it("serves the same surface to legacy clients, with resultType on every result", async () => {
    const list = await rawPost(server, { jsonrpc: "2.0", id: 1, method: "tools/list" }, auth(bearers.apiKey))
    const { result } = await list.json()
    expect(result.resultType).toBe("complete")
    expect(result.tools).toHaveLength(2)
    expect(result._meta).toBeUndefined()
    const called = await rawPost(server, {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "list_terms", arguments: {} }
    }, auth(bearers.apiKey))
    expect((await called.json()).result.structuredContent).toEqual({ terms: ["deemed export", "export", "release"] })
    const anonymous = await rawPost(server, {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "list_terms", arguments: {} }
    })
    expect(anonymous.status).toBe(401)
  })
})
