import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { modernPost, productionApp } from "../support/mcp/McpTestApp.ts"
import { bearers } from "../support/Principals.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

/** Issue 20's budgets: what an agent reads before any work, as the JSON of the `tools` array. */
const KeyBudget = 30_000
const AnonymousBudget = 20_000

const listAll = async (server: RunningServer, headers: Record<string, string> = {}) => {
  const tools: Array<Record<string, any>> = []
  let cursor: string | undefined
  do {
    const response = await modernPost(server, "tools/list", cursor === undefined ? {} : { cursor }, headers)
    const { result } = await response.json()
    tools.push(...result.tools)
    cursor = result.nextCursor
  } while (cursor !== undefined)
  return tools
}

/** Every `title` keyword of a JSON Schema (not a property named `title`). */
const schemaTitles = (schema: unknown): Array<unknown> => {
  if (Array.isArray(schema)) return schema.flatMap(schemaTitles)
  if (typeof schema !== "object" || schema === null) return []
  return Object.entries(schema).flatMap(([key, value]) =>
    key === "title"
      ? [value]
      : key === "properties" || key === "$defs"
      ? Object.values(value as object).flatMap(schemaTitles)
      : schemaTitles(value)
  )
}

/**
 * The production catalogue, whatever it registers: tools added later (the workspace tools) count
 * against the same budgets, so this test is the gate for every new tool's description and schema.
 */
describe("tools/list size", () => {
  let server: RunningServer
  let anonymous: Array<Record<string, any>>
  let member: Array<Record<string, any>>
  beforeAll(async () => {
    server = await startServer({ app: productionApp() })
    anonymous = await listAll(server)
    member = await listAll(server, { authorization: `Bearer ${bearers.apiKey}` })
  }, 120_000)
  afterAll(() => server.close())

  it("stays within 30,000 characters with a key and 20,000 anonymous", () => {
    const keySize = JSON.stringify(member).length
    const anonymousSize = JSON.stringify(anonymous).length
    expect(member.length).toBeGreaterThan(anonymous.length)
    expect(keySize).toBeLessThanOrEqual(KeyBudget)
    expect(anonymousSize).toBeLessThanOrEqual(AnonymousBudget)
  })

  it("is lean by design: no output schemas, no generated titles, short descriptions", () => {
    for (const tool of member) {
      expect(tool.outputSchema, tool.name).toBeUndefined()
      expect(schemaTitles(tool.inputSchema), tool.name).toEqual([])
      expect(JSON.stringify(tool.inputSchema), tool.name).not.toMatch(/between\(|maxLength\(|minItems\(/)
      expect(tool.description.length, tool.name).toBeLessThanOrEqual(450)
      expect(tool.annotations.title, tool.name).toBeUndefined()
    }
    // a tool that changes something keeps the hints that only mean something then
    expect(member.find((tool) => tool.name === "create_pdf")?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false
    })
  })

  it("lists the document tools once, taking the document type; SPEC's per-type names are callable aliases", async () => {
    const names = member.map((tool) => tool.name)
    expect(names).toEqual(expect.arrayContaining(["get_pdf_contract", "create_pdf"]))
    expect(names.filter((name) => /^(get|create)_.+_pdf(_contract)?$/.test(name))).toEqual([])
    const response = await modernPost(server, "tools/call", { name: "get_tcp_pdf_contract", arguments: {} }, {
      authorization: `Bearer ${bearers.apiKey}`
    })
    const { result } = await response.json()
    expect(result.isError ?? false).toBe(false)
    expect(result.structuredContent.template).toBe("tcp")
  })
})
