import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { toolNames } from "../../src/mcp/ToolCatalog.ts"
import { callToolApp, postApp, productionRoutes } from "../support/mcp/McpTestApp.ts"
import { bearers } from "../support/Principals.ts"
import * as WebApp from "../support/WebApp.ts"

/** What REST answers at `path`, as JSON and as text. */
const rest = (path: string) => Effect.map(WebApp.fetchJson(path), ({ body }) => body)
const restText = (path: string) =>
  Effect.flatMap(WebApp.fetchApp(path), (response) => Effect.promise(() => response.text()))

/** The production catalogue: each tool answers exactly what its REST twin answers. */
describe("production MCP tools", () => {
  it.layer(WebApp.layer(productionRoutes()))((it) => {
    it.effect("lists the catalogue's tools, each with an object input schema and a description", () =>
      Effect.gen(function*() {
        const { result } = yield* postApp("tools/list")
        const listed = result.tools.map((tool: { name: string }) => tool.name)
        expect(listed).toEqual(toolNames.filter((name) => listed.includes(name)))
        for (const tool of result.tools) {
          expect(tool.inputSchema.type).toBe("object")
          expect(tool.description.length).toBeGreaterThan(40)
          expect(tool.annotations.readOnlyHint).toBe(true)
        }
      }))

    it.effect("answers an unknown tool with the nearest tool names", () =>
      Effect.gen(function*() {
        const cases: Array<[string, string]> = [
          ["get_ecfr_section", "get_ecfr_sections"],
          ["csl_search", "search_csl"],
          ["get_country_chart", "get_country_chart_row"],
          ["get_ecfr_versions_of_part", "get_ecfr_part"]
        ]
        for (const [wrong, meant] of cases) {
          const { error } = yield* callToolApp(wrong, {})
          expect(error.code).toBe(-32602)
          expect(error.data.nearest, wrong).toContain(meant)
          expect(error.message).toMatch(new RegExp(`^Unknown tool: ${wrong}\\. Did you mean .*${meant}`))
        }
      }))

    it.effect("list_skills, get_skill and get_skill_bundle answer what /skills serves", () =>
      Effect.gen(function*() {
        const list = yield* callToolApp("list_skills", {})
        // the HTTP addresses are left out over MCP: the files are resources there
        const listed = yield* rest("/skills")
        expect(list.result.structuredContent).toEqual({
          ...listed,
          skills: listed.skills.map(({ upstream: _u, urls: _r, ...skill }: Record<string, unknown>) => skill)
        })
        const skill = yield* callToolApp("get_skill", { name: "svc-classify" })
        expect(skill.result.content).toEqual([{ type: "text", text: yield* restText("/skills/svc-classify") }])
        const bundle = yield* callToolApp("get_skill_bundle", { name: "svc-setup" })
        expect(bundle.result.structuredContent).toEqual(yield* rest("/skills/svc-setup/bundle"))
        const unknown = yield* callToolApp("get_skill", { name: "svc-nope" })
        expect(unknown.result.isError).toBe(true)
        expect(unknown.result.content[0].text).toMatch(/^Invalid arguments: `name` must be one of "svc-classify"/)
      }))

    it.effect("serves every skill file as a resource, main files first, read as REST serves them", () =>
      Effect.gen(function*() {
        const resources: Array<{ uri: string; mimeType: string }> = []
        let cursor: string | undefined
        do {
          const page = (yield* postApp("resources/list", cursor ? { cursor } : {})).result
          expect(page).toMatchObject({ ttlMs: 3_600_000, cacheScope: "public" })
          resources.push(...page.resources)
          cursor = page.nextCursor
        } while (cursor !== undefined)
        const skills = (yield* rest("/skills")).skills as Array<any>
        const fileCount = skills.reduce(
          (n, s) => n + s.assets.templates.length + s.assets.references.length + s.assets.prompts.length,
          0
        )
        expect(resources).toHaveLength(skills.length + fileCount)
        expect(resources.slice(0, skills.length).map((r) => r.uri)).toEqual(
          skills.map((s) => `svc://skills/${s.name}`)
        )
        const template = skills[0].assets.templates[0] as string
        const uri = `svc://skills/${skills[0].name}/templates/${encodeURIComponent(template)}`
        expect(resources.map((r) => r.uri)).toContain(uri)
        const read = (uri: string) => postApp("resources/read", { uri }, { authorization: `Bearer ${bearers.apiKey}` })
        expect((yield* read(uri)).result.contents).toEqual([{
          uri,
          mimeType: "text/markdown",
          text: yield* restText(`/skills/${skills[0].name}/templates/${encodeURIComponent(template)}`)
        }])
        expect((yield* read("svc://skills/svc-setup")).result.contents[0].text).toBe(
          yield* restText("/skills/svc-setup")
        )
        for (
          const missing of [
            "svc://skills/svc-setup/templates/none.md",
            "svc://skills/svc-nope",
            "svc://skills/svc-setup/x/y"
          ]
        ) {
          expect((yield* read(missing)).error).toMatchObject({ code: -32602, data: { uri: missing } })
        }
        const templates = (yield* postApp("resources/templates/list")).result.resourceTemplates
        expect(templates.map((t: { uriTemplate: string }) => t.uriTemplate)).toContain(
          "svc://skills/{name}/{kind}/{filename}"
        )
      }))

    it.effect("get_regulatory_status answers the REST document", () =>
      Effect.gen(function*() {
        const document = yield* rest("/api/regulatory-status")
        const { result } = yield* callToolApp("get_regulatory_status", {})
        expect(result.isError).toBeUndefined()
        expect(result.structuredContent).toEqual(document)
        expect(result.structuredContent.banner).toContain("Affiliates Rule")
      }))
  })
})
