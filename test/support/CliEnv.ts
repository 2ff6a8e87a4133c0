import { spawn, spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { inject } from "vitest"
import { wasmTieringFlag } from "./WasmTiering.ts"

/** The repository root, where `src/cli.ts` lives. */
export const repoRoot = join(import.meta.dirname, "..", "..")

/**
 * Run the CLI from source: `src/cli.ts` as the global setup compiled it for this run
 * (`test/support/CliBundle.ts`), which starts in a fraction of the CPU tsx needs.
 */
export const cliCommand = [process.execPath, wasmTieringFlag, inject("cliEntry")] as const

/**
 * A new DATA_DIR whose embedded database (`DATA_DIR/db`) is unpacked from the global setup's
 * initialised, unmigrated dump: PGlite's initdb costs each process that opens an empty directory
 * about 5 s of CPU, while the first start's migrations still run in the process under test.
 * Tests that give their own DATA_DIR (`ecds enforcement collect` in `test/enforcement-collectors.test.ts`,
 * among others) still start on an empty directory.
 */
export const seededDataDir = (): string => {
  const dataDir = mkdtempSync(join(tmpdir(), "ecds-cli-"))
  const database = join(dataDir, "db")
  mkdirSync(database)
  const unpacked = spawnSync("tar", ["-xf", inject("pgliteTemplate"), "-C", database], { encoding: "utf8" })
  if (unpacked.status !== 0) throw new Error(`cannot unpack the PGlite template: ${unpacked.stderr}`)
  return dataDir
}

/**
 * The environment of a CLI process kept off the network: every upstream at a closed loopback port
 * unless overridden, its own DATA_DIR (with its database initialised), no inherited proxy or
 * credential variables.
 */
export const offlineEnv = (overrides: Record<string, string> = {}): Record<string, string> => {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name, value]) =>
      value !== undefined && !/^(https?_proxy|no_proxy|ecds_api_key|log_level|port|host|data_dir)$/i.test(name)
    )
  ) as Record<string, string>
  const closed = "http://127.0.0.1:9"
  return {
    ...inherited,
    DATA_DIR: overrides.DATA_DIR ?? seededDataDir(),
    LOG_LEVEL: "none",
    ECFR_BASE_URL: closed,
    FEDERAL_REGISTER_BASE_URL: closed,
    SEC_EDGAR_BASE_URL: closed,
    GOVINFO_BASE_URL: closed,
    REGULATIONS_BASE_URL: closed,
    DOJ_BASE_URL: closed,
    CSL_BULK_URL: `${closed}/consolidated.json`,
    GITHUB_API_BASE_URL: closed,
    GITHUB_RAW_BASE_URL: closed,
    ...overrides
  }
}

/**
 * Runs the CLI without blocking this process (fakes and proxies serving it live here), resolving
 * with its exit status and output whatever the status.
 */
export const runCli = (
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  input = ""
): Promise<{ readonly status: number | null; readonly stdout: string; readonly stderr: string }> =>
  new Promise((resolve, reject) => {
    const [command, ...prefix] = cliCommand
    const child = spawn(command, [...prefix, ...args], { env })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += String(chunk)))
    child.stderr.on("data", (chunk) => (stderr += String(chunk)))
    child.on("error", reject)
    child.on("close", (status) => resolve({ status, stdout, stderr }))
    child.stdin.end(input)
  })
