import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Client as ModernClient } from "@modelcontextprotocol/client"
import { StdioClientTransport as ModernStdio } from "@modelcontextprotocol/client/stdio"
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport as LegacyStdio } from "@modelcontextprotocol/sdk/client/stdio.js"
import { Effect, Layer } from "effect"
import { spawnSync } from "node:child_process"
import * as AppConfig from "../../src/services/AppConfig.ts"
import * as KeysCommand from "../../src/services/KeysCommand.ts"
import { cliCommand, offlineEnv } from "../support/CliEnv.ts"
import { ecfrRoutes } from "../support/EcfrFake.ts"
import { type FakeUpstream, startFakeUpstream } from "../support/FakeUpstream.ts"

const info = { name: "stdio-e2e", version: "1.0.0" }
/** Each test starts the program (the 2.x client in auto mode twice: it probes on a sibling process). */
const startUpBudget = 180_000
const [command, ...args] = cliCommand

/** Creates an API key in the DATA_DIR the stdio server will use, as `ecds keys create` does. */
const createKey = async (dataDir: string) => {
  const stores = KeysCommand.stores.pipe(Layer.provide(AppConfig.layerWith({ dataDir })))
  const output = await Effect.runPromise(KeysCommand.run(["create", "--credits", "1"]).pipe(Effect.provide(stores)))
  return /api key: (\S+)/.exec(output)![1]!
}

const toolNames = (list: { readonly tools: ReadonlyArray<{ readonly name: string }> }) =>
  list.tools.map((tool) => tool.name)

describe("ecds mcp: the stdio transport with the official SDK clients", () => {
  let ecfr: FakeUpstream
  beforeAll(async () => {
    ecfr = await startFakeUpstream([ecfrRoutes()])
  })
  afterAll(() => ecfr.close())

  it("2.x client (auto): negotiates 2026-07-28, lists the free tools and runs them without signing in", async () => {
    const env = offlineEnv({ ECFR_BASE_URL: ecfr.url })
    const client = new ModernClient(info, { versionNegotiation: { mode: "auto" } })
    await client.connect(new ModernStdio({ command, args: [...args, "mcp"], env, stderr: "pipe" }))
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28")
      const names = toolNames(await client.listTools())
      expect(names).toContain("get_ecfr_text")
      expect(names).not.toContain("create_pdf")
      const text = await client.callTool({ name: "get_ecfr_text", arguments: { part: 740, section: "740.1" } })
      expect(text.isError ?? false).toBe(false)
      expect(JSON.stringify(text.content)).toContain("§ 740.1 Introduction.")
      const status = await client.callTool({ name: "get_regulatory_status", arguments: {} })
      expect(status.isError ?? false).toBe(false)
      const skill = await client.readResource({ uri: "svc://skills/svc-csl" })
      expect(JSON.stringify(skill.contents)).toContain("svc-csl")
    } finally {
      await client.close()
    }
  }, startUpBudget)

  it("1.x client: with ECDS_API_KEY the connection acts as the key's account and sees enterprise tools", async () => {
    const env = offlineEnv()
    env.ECDS_API_KEY = await createKey(env.DATA_DIR!)
    const client = new LegacyClient(info)
    await client.connect(new LegacyStdio({ command, args: [...args, "mcp"], env, stderr: "pipe" }))
    try {
      const names = toolNames(await client.listTools())
      expect(names).toContain("create_pdf")
      expect(names).toContain("check_party_enforcement")
      const contract = await client.callTool({ name: "get_classification_pdf_contract", arguments: {} })
      expect(contract.isError ?? false).toBe(false)
      expect(JSON.stringify(contract.structuredContent)).toContain("\"template\"")
    } finally {
      await client.close()
    }
  }, startUpBudget)

  it("2.x client pinned to 2025-06-18 speaks the legacy handshake over stdio", async () => {
    const client = new ModernClient(info, { supportedProtocolVersions: ["2025-06-18"] })
    await client.connect(new ModernStdio({ command, args: [...args, "mcp"], env: offlineEnv(), stderr: "pipe" }))
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2025-06-18")
      expect(toolNames(await client.listTools())).toContain("search_csl")
    } finally {
      await client.close()
    }
  }, startUpBudget)

  it("refuses an unrecognized ECDS_API_KEY at start-up instead of silently running anonymous", () => {
    const run = spawnSync(command, [...args, "mcp"], {
      env: offlineEnv({ ECDS_API_KEY: "svc_live_notarealkey" }),
      input: "",
      encoding: "utf8",
      timeout: 150_000
    })
    expect(run.status).toBe(1)
    expect(run.stdout).toBe("")
    expect(run.stderr).toContain("ECDS_API_KEY=(hidden): not a recognized, active credential")
    expect(run.stderr).not.toContain("notarealkey")
  }, startUpBudget)
})
