import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { toolNames } from "../../src/mcp/ToolCatalog.ts"
import { callTool, modernPost, productionApp } from "../support/mcp/McpTestApp.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

/** The production catalogue: each tool answers exactly what its REST twin answers. */
describe("production MCP tools", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ app: productionApp() })
  })
  afterAll(() => server.close())

  it("lists the catalogue's tools, each with an object input schema and a description", async () => {
    const { result } = await (await modernPost(server, "tools/list")).json()
    const listed = result.tools.map((tool: { name: string }) => tool.name)
    expect(listed).toEqual(toolNames.filter((name) => listed.includes(name)))
    for (const tool of result.tools) {
      expect(tool.inputSchema.type).toBe("object")
      expect(tool.description.length).toBeGreaterThan(40)
      expect(tool.annotations.readOnlyHint).toBe(true)
    }
  })

  it("get_regulatory_status answers the REST document", async () => {
    const rest = await (await server.get("/api/regulatory-status")).json()
    const { result } = await callTool(server, "get_regulatory_status", {})
    expect(result.isError).toBeUndefined()
    expect(result.structuredContent).toEqual(rest)
    expect(result.structuredContent.banner).toContain("Affiliates Rule")
  })
})
