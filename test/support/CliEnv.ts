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
