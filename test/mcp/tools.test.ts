import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { toolNames } from "../../src/mcp/ToolCatalog.ts"
import { callTool, modernPost, productionApp } from "../support/mcp/McpTestApp.ts"
import { bearers } from "../support/Principals.ts"
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

  it("answers an unknown tool with the nearest tool names", async () => {
    const cases: Array<[string, string]> = [
      ["get_ecfr_section", "get_ecfr_sections"],
      ["csl_search", "search_csl"],
      ["get_country_chart", "get_country_chart_row"],
      ["get_ecfr_versions_of_part", "get_ecfr_part"]
    ]
    for (const [wrong, meant] of cases) {
      const { error } = await callTool(server, wrong, {})
      expect(error.code).toBe(-32602)
      expect(error.data.nearest, wrong).toContain(meant)
      expect(error.message).toMatch(new RegExp(`^Unknown tool: ${wrong}\\. Did you mean .*${meant}`))
    }
  })

  it("list_skills, get_skill and get_skill_bundle answer what /skills serves", async () => {
    const list = await callTool(server, "list_skills", {})
    // the HTTP addresses are left out over MCP: the files are resources there
    const listed = await (await server.get("/skills")).json()
    expect(list.result.structuredContent).toEqual({
      ...listed,
      skills: listed.skills.map(({ upstream: _u, urls: _r, ...skill }: Record<string, unknown>) => skill)
    })
    const skill = await callTool(server, "get_skill", { name: "svc-classify" })
    expect(skill.result.content).toEqual([{
      type: "text",
      text: await (await server.get("/skills/svc-classify")).text()
    }])
    const bundle = await callTool(server, "get_skill_bundle", { name: "svc-setup" })
    expect(bundle.result.structuredContent).toEqual(await (await server.get("/skills/svc-setup/bundle")).json())
    const unknown = await callTool(server, "get_skill", { name: "svc-nope" })
    expect(unknown.result.isError).toBe(true)
    expect(unknown.result.content[0].text).toMatch(/^Invalid arguments: `name` must be one of "svc-classify"/)
  })

  it("serves every skill file as a resource, main files first, read as REST serves them", async () => {
    const resources: Array<{ uri: string; mimeType: string }> = []
    let cursor: string | undefined
    do {
      const page = (await (await modernPost(server, "resources/list", cursor ? { cursor } : {})).json()).result
      expect(page).toMatchObject({ ttlMs: 3_600_000, cacheScope: "public" })
      resources.push(...page.resources)
      cursor = page.nextCursor
    } while (cursor !== undefined)
    const skills = (await (await server.get("/skills")).json()).skills as Array<any>
    const fileCount = skills.reduce(
      (n, s) => n + s.assets.templates.length + s.assets.references.length + s.assets.prompts.length,
      0
    )
    expect(resources).toHaveLength(skills.length + fileCount)
    expect(resources.slice(0, skills.length).map((r) => r.uri)).toEqual(skills.map((s) => `svc://skills/${s.name}`))
    const template = skills[0].assets.templates[0] as string
    const uri = `svc://skills/${skills[0].name}/templates/${encodeURIComponent(template)}`
    expect(resources.map((r) => r.uri)).toContain(uri)
    const read = async (uri: string) =>
      (await modernPost(server, "resources/read", { uri }, { authorization: `Bearer ${bearers.apiKey}` })).json()
    expect((await read(uri)).result.contents).toEqual([{
      uri,
      mimeType: "text/markdown",
      text: await (await server.get(`/skills/${skills[0].name}/templates/${encodeURIComponent(template)}`)).text()
    }])
    expect((await read("svc://skills/svc-setup")).result.contents[0].text).toBe(
      await (await server.get("/skills/svc-setup")).text()
    )
    for (
      const missing of [
        "svc://skills/svc-setup/templates/none.md",
        "svc://skills/svc-nope",
        "svc://skills/svc-setup/x/y"
      ]
    ) {
      expect((await read(missing)).error).toMatchObject({ code: -32602, data: { uri: missing } })
    }
    const templates = (await (await modernPost(server, "resources/templates/list")).json()).result.resourceTemplates
    expect(templates.map((t: { uriTemplate: string }) => t.uriTemplate)).toContain(
      "svc://skills/{name}/{kind}/{filename}"
    )
  })

  it("get_regulatory_status answers the REST document", async () => {
    const rest = await (await server.get("/api/regulatory-status")).json()
    const { result } = await callTool(server, "get_regulatory_status", {})
    expect(result.isError).toBeUndefined()
    expect(result.structuredContent).toEqual(rest)
    expect(result.structuredContent.banner).toContain("Affiliates Rule")
  })
})
