import { spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** The repository root, where `src/cli.ts` lives. */
export const repoRoot = join(import.meta.dirname, "..", "..")

/** Run the CLI from source, as `npx .` does through `bin/ecds.mjs`. */
export const cliCommand = [process.execPath, "--import", "tsx", join(repoRoot, "src", "cli.ts")] as const

/**
 * The environment of a CLI process kept off the network: every upstream at a closed loopback port
 * unless overridden, its own DATA_DIR, no inherited proxy or credential variables.
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
    DATA_DIR: mkdtempSync(join(tmpdir(), "ecds-cli-")),
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
