import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"

/**
 * The runtimes some suites need are separate installs, kept out of the project's node_modules:
 * the MCP conformance suite with Node 22 (`conformance/`) and the Deno binary (`runtimes/deno/`).
 * When a run requires one (`MCP_CONFORMANCE=required`, `DENO_RUNTIME=required`, as CI sets) and it
 * is missing, the global setup installs it once, before any test file starts: test files running
 * in parallel workers would otherwise start the same `npm ci` in the same directory at once.
 */
const runtimes = [
  {
    variable: "MCP_CONFORMANCE",
    directory: "conformance",
    marker: join("node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
  },
  { variable: "DENO_RUNTIME", directory: join("runtimes", "deno"), marker: join("node_modules", "deno", "deno") }
]

export const installSeparateRuntimes = (): void => {
  for (const runtime of runtimes) {
    if (process.env[runtime.variable] !== "required" || existsSync(join(runtime.directory, runtime.marker))) continue
    const install = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], {
      cwd: runtime.directory,
      encoding: "utf8",
      timeout: 300_000
    })
    if (install.status !== 0) throw new Error(`npm ci in ${runtime.directory} failed:\n${install.stderr}`)
  }
}
