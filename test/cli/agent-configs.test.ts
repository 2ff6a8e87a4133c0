import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { offlineEnv, repoRoot } from "../support/CliEnv.ts"
import { type RunningServer, startServer, testConfig } from "../support/TestServer.ts"
import { keysCommand, keysInDataDir } from "../support/TestStore.ts"

/** The copy-paste configurations of docs/agents.md, as a user would paste them. */
const page = readFileSync(join(repoRoot, "docs", "agents.md"), "utf8")
const blocks = [...page.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1]!)

interface Entry {
  readonly command?: string
  readonly args?: ReadonlyArray<string>
  readonly env?: Record<string, string>
  readonly url?: string
  readonly headers?: Record<string, string>
}

const entriesOf = (config: { mcpServers?: Record<string, Entry>; servers?: Record<string, Entry> }) =>
  Object.values(config.mcpServers ?? config.servers ?? {})

const clone = "/path/to/export-compliance-data-service"
const host = "https://ecds.example.com"

/** Starts a stdio entry as the client would and asks it to initialize; resolves with its first reply. */
const initializeOverStdio = (entry: Entry, env: Record<string, string>) =>
  new Promise<Record<string, any>>((resolve, reject) => {
    const args = (entry.args ?? []).map((arg) => arg.replace(clone, repoRoot))
    const child = spawn(entry.command!, args, { env: { ...env, ...entry.env, DATA_DIR: env.DATA_DIR! } })
    let output = ""
    child.stdout.on("data", (chunk) => {
      output += String(chunk)
      const line = output.split("\n")[0]
      if (output.includes("\n")) {
        child.kill()
        resolve(JSON.parse(line!))
      }
    })
    child.on("error", reject)
    child.on("close", (code) => reject(new Error(`exited with ${code} before answering`)))
    child.stdin.write(
      `${
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "docs", version: "1" } }
        })
      }\n`
    )
  })

describe("docs/agents.md configurations", () => {
  const configs = blocks.map((block) => JSON.parse(block) as Record<string, any>)
  const entries = configs.flatMap(entriesOf)

  it("every JSON block parses and names a stdio command or a remote /mcp URL", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(7)
    for (const entry of entries) {
      if (entry.url !== undefined) expect(entry.url).toBe(`${host}/mcp`)
      else expect([entry.command, ...(entry.args ?? [])]).toEqual(["node", `${clone}/bin/ecds.mjs`, "mcp"])
    }
    expect(entries.some((entry) => entry.url !== undefined)).toBe(true)
  })

  it("the stdio command they name starts a server that answers MCP, with and without a key", async () => {
    const env = offlineEnv()
    const created = await keysInDataDir(env.DATA_DIR!)("create")
    const key = /api key: (\S+)/.exec(created)![1]!
    const withKey = entries.find((entry) => entry.env?.ECDS_API_KEY !== undefined)!
    expect(withKey.env!.ECDS_API_KEY).toBe("svc_live_YOUR_KEY")
    const plain = entries.find((entry) => entry.command !== undefined && entry.env?.ECDS_API_KEY === undefined)!
    for (const entry of [plain, { ...withKey, env: { ...withKey.env, ECDS_API_KEY: key } }]) {
      const reply = await initializeOverStdio(entry, env)
      expect(reply).toMatchObject({ id: 1, result: { protocolVersion: "2025-06-18" } })
    }
  }, 400_000)

  describe("remote entries", () => {
    let server: RunningServer
    let key: string
    beforeAll(async () => {
      const config = testConfig()
      key = /api key: (\S+)/.exec(await keysCommand(config.dataDir!)("create"))![1]!
      server = await startServer({ config })
    }, 180_000)
    afterAll(() => server.close())

    it("reach /mcp: with the API key header tools answer, without it the OAuth challenge", async () => {
      const remote = entries.filter((entry) => entry.url !== undefined)
      expect(remote.length).toBeGreaterThanOrEqual(2)
      for (const entry of remote) {
        const headers = Object.fromEntries(
          Object.entries(entry.headers ?? {}).map(([name, value]) => [name, value.replace("svc_live_YOUR_KEY", key)])
        )
        const response = await fetch(entry.url!.replace(host, server.url), {
          method: "POST",
          headers: { ...headers, "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_skills" } })
        })
        expect(response.status).toBe(200)
        const body = await response.json()
        expect(body.result.isError ?? false).toBe(false)
      }
      const challenge = await fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_skills" } })
      })
      expect(challenge.status).toBe(401)
      expect(challenge.headers.get("www-authenticate")).toContain("resource_metadata=")
    })
  })
})
