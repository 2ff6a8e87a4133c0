import { type ChildProcess, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { tmpdir } from "node:os"
import { fileURLToPath } from "node:url"
import { freePort } from "./ports.ts"

const deno = fileURLToPath(new URL("../../node_modules/deno/deno", import.meta.url))
const entry = fileURLToPath(new URL("../../src/deno.ts", import.meta.url))

/** Whether the `deno` npm package installed its binary (suites skip when it did not). */
export const denoAvailable = existsSync(deno)

export interface DenoServer {
  readonly url: string
  readonly stop: () => void
}

/**
 * Runs `src/deno.ts` under the Deno binary from npm on a free loopback port, with the permissions
 * the `deno task` commands grant, and waits until `/health` answers.
 */
export const startDenoServer = async (env: Record<string, string>): Promise<DenoServer> => {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child: ChildProcess = spawn(deno, [
    "run",
    "--allow-net",
    "--allow-env",
    "--allow-read",
    "--allow-write",
    "--allow-sys",
    "--allow-ffi",
    entry
  ], {
    cwd: tmpdir(),
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "none", ...env },
    stdio: "ignore"
  })
  const stop = () => {
    child.kill("SIGTERM")
  }
  const deadline = Date.now() + 90_000
  for (;;) {
    try {
      await fetch(`${url}/health`)
      return { url, stop }
    } catch {
      if (Date.now() > deadline) {
        stop()
        throw new Error("the Deno server did not start")
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
}
