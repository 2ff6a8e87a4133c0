import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Auth } from "../../src/services/Auth.ts"
import { productionApp } from "../support/mcp/McpTestApp.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

/**
 * The official MCP conformance suite against the real server (production catalogue), once per revision. The suite needs
 * Node 22; `conformance/` installs it from the `node` npm package next to the suite, apart from the
 * project's node_modules, so everything else keeps running on the machine's Node. Expected
 * failures (checks that need the suite's own fixture tools) are listed with reasons in
 * `conformance/expected-failures-<revision>.yml`; anything else failing fails this test.
 */
const runtime = join(process.cwd(), "conformance")
const node = join(runtime, "node_modules", "node", "bin", "node")
const suite = join(runtime, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")

/**
 * The runtime is a separate 240 MB install. CI sets `MCP_CONFORMANCE=required` (see `.ci/run`) and
 * installs it here on first run; a developer's `npm test` runs the suite once it is installed
 * (`npm ci --prefix conformance`) and otherwise skips it with a message saying so.
 */
const installed = existsSync(node) && existsSync(suite)
const required = process.env.MCP_CONFORMANCE === "required"
if (!installed && !required) {
  console.warn(
    "MCP conformance suite skipped: its runtime is not installed. Run `npm ci --prefix conformance` " +
      "(about 240 MB) or set MCP_CONFORMANCE=required to install and run it, as CI does."
  )
}

const installRuntime = () => {
  if (installed) return
  const install = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], {
    cwd: runtime,
    encoding: "utf8",
    timeout: 300_000
  })
  if (install.status !== 0) throw new Error(`npm ci in conformance/ failed:\n${install.stderr}`)
}

const run = (args: ReadonlyArray<string>) =>
  new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(node, [suite, ...args], { cwd: runtime, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    child.on("error", reject)
    child.on("exit", (code) => resolve({ code, output }))
  })

/** The suite calls tools and reads resources without credentials; here every caller holds an active key. */
const everyoneAuthenticated = Layer.succeed(Auth, {
  authenticate: () => Effect.succeed({ _tag: "ApiKey", keyId: "conformance", status: "active", plan: "test" } as const)
})

describe.skipIf(!installed && !required)(
  "MCP conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha.12)",
  () => {
    let server: RunningServer
    let output: string
    beforeAll(async () => {
      installRuntime()
      server = await startServer({ app: productionApp(everyoneAuthenticated) })
      output = mkdtempSync(join(tmpdir(), "mcp-conformance-"))
    }, 360_000)
    afterAll(async () => {
      await server?.close()
      if (output !== undefined) rmSync(output, { recursive: true, force: true })
    })

    it("runs on Node 22", () => {
      expect(spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim()).toMatch(/^v22\./)
    })

    for (const revision of ["2026-07-28", "2025-11-25"]) {
      it(`passes the ${revision} requirements except the listed fixture-only checks`, async () => {
        const result = await run([
          "server",
          "--url",
          `${server.url}/mcp`,
          "--requirements",
          revision,
          "--expected-failures",
          `expected-failures-${revision}.yml`,
          "-o",
          join(output, revision)
        ])
        if (result.code !== 0) console.log(result.output.slice(-6000))
        expect(result.output).toContain("Baseline check passed")
        expect(result.code).toBe(0)
      }, 120_000)
    }
  }
)
