import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { Option } from "effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as Auth from "../../src/services/Auth.ts"
import { minimalClassificationPayload } from "../fixtures/documents/classification.ts"
import { type FakeUpstream, startFakeUpstream } from "./FakeUpstream.ts"
import { bearers, principals } from "./Principals.ts"
import { startRegulatoryDataServer } from "./RegulatoryDataServer.ts"
import type { RunningServer } from "./TestServer.ts"

/**
 * Issue 20's five compliance tasks as an agent runs them: only MCP tool calls through the SDK
 * client, each answer checked for what the task needs, and every character the agent reads
 * counted (the text of each result; `tools/list` is counted once, apart). Shared by the test,
 * which pins a ceiling per task, and `bench/agent-tasks.ts`, which prints the table.
 */
const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), "utf8")
const json = (body: string) => ({ headers: { "content-type": "application/json; charset=utf-8" }, body })

export interface AgentSession {
  readonly call: (name: string, args: Record<string, unknown>) => Promise<any>
  readonly chars: () => number
  readonly calls: () => number
}

export interface AgentTask {
  readonly name: string
  /** Characters the issue measured for the task before this work. */
  readonly before: number
  /** What a regression to the old sizes would exceed. */
  readonly ceiling: number
  /** Runs the conversation; throws when an answer is wrong. */
  readonly run: (session: AgentSession) => Promise<void>
}

const check = (condition: boolean, what: string) => {
  if (!condition) throw new Error(`agent task check failed: ${what}`)
}

export const agentTasks: ReadonlyArray<AgentTask> = [
  {
    name: "classify a thermal camera core; licenses for Germany and China",
    before: 99_000 + 995_000,
    ceiling: 60_000,
    run: async (agent) => {
      await agent.call("get_skill", { name: "svc-classify" })
      const entry = await agent.call("get_eccn", { eccn: "6A003.b.4.b" })
      check(entry.structuredContent.entry.eccn === "6A003", "6A003 read")
      const china = await agent.call("get_country_chart_row", { country: "China", eccn: "6A003.b.4.b" })
      const rows = china.structuredContent.eccnCheck.controls.map((row: { result: string }) => row.result)
      check(rows.includes("license_required") && rows.includes("not_for_this_paragraph"), "China: NS needed, NP not")
      const germany = await agent.call("get_country_chart_row", { country: "Germany", eccn: "6A003.b.4.b" })
      check(germany.structuredContent.country.alpha2 === "DE", "Germany row read")
    }
  },
  {
    name: "screen four parties",
    before: 59_000,
    ceiling: 12_000,
    run: async (agent) => {
      const screened = await agent.call("search_csl", {
        names: ["Rustam Karimoff", "Shenzhen Huaxing Photonics", "Northwind Secure Systems", "Al Noor Electronics"]
      })
      const parties = screened.structuredContent.parties
      check(parties.length === 4, "four parties in one call")
      check(parties[0].matches[0]?.name === "KARIMOV, Rustam Valerievich", "Karimoff matches KARIMOV")
      check(parties[1].matches[0]?.name === "Shenzhen Huaxing Photonics Technology Co., Ltd.", "Huaxing found")
      check(parties[2].total === 0, "Northwind has no match")
      check(parties[3].matches[0]?.name === "Al Noor Electronics Trading", "Al Noor found")
    }
  },
  {
    name: "recent AI-chip rule changes",
    before: 22_000,
    ceiling: 8_000,
    run: async (agent) => {
      const changes = await agent.call("get_rule_changes", { topic: "ai", eccn: "3A090" })
      const documents = changes.structuredContent.results
      check(documents.some((doc: { documentNumber: string }) => doc.documentNumber === "2026-90001"), "3A090 rule")
      const rule = await agent.call("get_federal_register_document", {
        citation: `FR Doc. ${documents[0].documentNumber}`
      })
      check(rule.structuredContent.document !== null, "the rule read by its FR Doc number")
    }
  },
  {
    name: "draft the classification memo (contract + create_pdf draft)",
    before: 14_000,
    ceiling: 24_000,
    run: async (agent) => {
      const contract = await agent.call("get_pdf_contract", { document: "classification" })
      check(
        contract.structuredContent.sections.some((s: { keys: Array<string> }) => s.keys.includes("STEP4_FINDING")),
        "steps"
      )
      const draft = await agent.call("create_pdf", {
        document: "classification",
        payload: minimalClassificationPayload,
        draft: true
      })
      check(draft.isError !== true && /https?:\/\//.test(JSON.stringify(draft.content)), "a draft link")
    }
  },
  {
    name: "check a counterparty's enforcement history",
    before: 9_000,
    ceiling: 8_000,
    run: async (agent) => {
      const history = await agent.call("check_party_enforcement", { name: "Synthetic Societe Exportatrice SARL" })
      check(history.structuredContent.result === "possible_match", "the denial order found")
    }
  }
]

/** A server with every source the tasks read: the eCFR fixtures, a CSL file, Federal Register and DOJ fakes. */
export const startAgentTaskServer = async (): Promise<{ server: RunningServer; close: () => Promise<void> }> => {
  const fake: FakeUpstream = await startFakeUpstream([(_request, url) => {
    if (url.pathname === "/api/v1/press_releases.json") return json(fixture("enforcement/doj-press-releases.json"))
    if (url.pathname !== "/api/v1/documents.json") return undefined
    const agencies = url.searchParams.getAll("conditions[agencies][]")
    const types = url.searchParams.getAll("conditions[type][]")
    if (types.join() === "NOTICE" && agencies.join() === "industry-and-security-bureau") {
      return json(fixture("enforcement/federal-register-bis-notices.json"))
    }
    if (types.join() === "NOTICE" && agencies.join() === "state-department") {
      return json(fixture("enforcement/federal-register-ddtc-notices.json"))
    }
    return json(fixture("radar/documents-newest.json"))
  }, (_request, url) =>
    /^\/api\/v1\/documents\/[0-9A-Z-]+\.json$/.test(url.pathname)
      ? json(fixture("research/federal-register-document.json"))
      : undefined])
  const server = await startRegulatoryDataServer({
    auth: Auth.layerFixed(principals),
    config: {
      federalRegisterBaseUrl: fake.url,
      dojBaseUrl: fake.url,
      cslFile: Option.some(fileURLToPath(new URL("../fixtures/screening/consolidated.json", import.meta.url)))
    }
  })
  return {
    server,
    close: async () => {
      await server.close()
      await fake.close()
    }
  }
}

/** An SDK client with an API key whose every tool result is counted as characters read. */
export const agentSession = async (server: RunningServer) => {
  const client = new Client({ name: "agent-tasks", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${bearers.apiKey}` } }
    })
  )
  const listed = await client.listTools()
  const catalogue = JSON.stringify(listed.tools).length
  const session = (): AgentSession & { readonly close: () => Promise<void> } => {
    let chars = 0
    let calls = 0
    return {
      call: async (name, args) => {
        calls++
        const result: any = await client.callTool({ name, arguments: args })
        for (const part of result.content ?? []) chars += typeof part.text === "string" ? part.text.length : 0
        return result
      },
      chars: () => chars,
      calls: () => calls,
      close: () => client.close()
    }
  }
  return { catalogue, session, close: () => client.close() }
}
