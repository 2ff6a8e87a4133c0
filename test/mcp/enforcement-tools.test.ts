import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { storeWithImport } from "../support/EnforcementStore.ts"
import { type FakeUpstream, startFakeUpstream } from "../support/FakeUpstream.ts"
import { callTool, productionApp } from "../support/mcp/McpTestApp.ts"
import { textPdf } from "../support/Pdf.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

const fixture = (name: string) => readFileSync(new URL(`../fixtures/enforcement/${name}`, import.meta.url), "utf8")
const jsonReply = (body: string) => ({ headers: { "content-type": "application/json; charset=utf-8" }, body })

/** The enforcement tools answer what `/api/enforcement*` answers: live feed from fakes, archive from an import. */
describe("MCP enforcement tools", () => {
  const work = mkdtempSync(join(tmpdir(), "mcp-enforcement-"))
  const dataDir = join(work, "data")
  let upstream: FakeUpstream
  let server: RunningServer
  beforeAll(async () => {
    const importDir = join(work, "import")
    mkdirSync(join(importDir, "pdfs"), { recursive: true })
    writeFileSync(
      join(importDir, "metadata.json"),
      JSON.stringify([
        {
          id: "bis-case:E0001",
          agency: "BIS",
          party: "Synthetic Camera Exporters Ltd.",
          title: "Settlement Agreement (Synthetic Test Case E0001)",
          date: "2099-02-10",
          pdf: "pdfs/bis-case-E0001.pdf"
        },
        {
          id: "doj:0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b",
          agency: "DOJ",
          party: null,
          title: "Synthetic Guilty Plea for Export Violations",
          date: "2099-03-01"
        }
      ])
    )
    writeFileSync(
      join(importDir, "pdfs/bis-case-E0001.pdf"),
      await textPdf([{ heading: "SETTLEMENT AGREEMENT", paragraphs: ["A synthetic agreement about thermal cameras."] }])
    )
    upstream = await startFakeUpstream([
      (_request, url) => {
        if (url.pathname === "/api/v1/press_releases.json") return jsonReply(fixture("doj-press-releases.json"))
        if (url.pathname !== "/api/v1/documents.json") return undefined
        const agency = url.searchParams.get("conditions[agencies][]")
        return jsonReply(fixture(
          agency === "industry-and-security-bureau"
            ? "federal-register-bis-notices.json"
            : "federal-register-ddtc-notices.json"
        ))
      }
    ])
    server = await startServer({
      app: productionApp(undefined, storeWithImport(importDir)),
      config: { dataDir, federalRegisterBaseUrl: upstream.url, dojBaseUrl: upstream.url }
    })
  })
  afterAll(async () => {
    await server?.close()
    await upstream?.close()
    rmSync(work, { recursive: true, force: true })
  })

  const rest = async (path: string) => (await server.get(path)).json()

  it("get_enforcement_actions answers the live feed", async () => {
    const { result } = await callTool(server, "get_enforcement_actions", { agency: "BIS", limit: 5 })
    expect(result.isError).toBeUndefined()
    expect(result.structuredContent).toEqual(await rest("/api/enforcement?agency=BIS&limit=5"))
    expect(result.structuredContent.actions.length).toBeGreaterThan(0)
  })

  it("search_enforcement_documents answers the archive search (query is REST's q)", async () => {
    const { result } = await callTool(server, "search_enforcement_documents", { query: "synthetic", limit: 10 })
    expect(result.structuredContent).toEqual(await rest("/api/enforcement/docs?q=synthetic&limit=10"))
    expect(result.structuredContent.count).toBeGreaterThan(0)
    const all = await callTool(server, "search_enforcement_documents", {})
    expect(all.result.structuredContent).toEqual(await rest("/api/enforcement/docs"))
  })

  it("get_enforcement_document answers the metadata, and the text with include_text", async () => {
    const plain = await callTool(server, "get_enforcement_document", { id: "bis-case:E0001" })
    expect(plain.result.structuredContent).toEqual(await rest("/api/enforcement/docs/bis-case%3AE0001"))
    const withText = await callTool(server, "get_enforcement_document", { id: "bis-case:E0001", include_text: true })
    expect(withText.result.structuredContent.text).toBe(
      await (await server.get("/api/enforcement/docs/bis-case%3AE0001/text")).text()
    )
    const missing = await callTool(server, "get_enforcement_document", { id: "bis-case:NONE" })
    expect(missing.result.isError).toBe(true)
    expect(missing.result.content[0].text).toMatch(/^Enforcement document not found: /)
    const malformed = await callTool(server, "get_enforcement_document", { id: "../etc/passwd" })
    expect(malformed.result.isError).toBe(true)
    expect(malformed.result.content[0].text).toMatch(/^Invalid arguments: `id` /)
  })
})
