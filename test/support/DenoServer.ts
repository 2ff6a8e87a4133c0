import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { tmpdir } from "node:os"
import { fileURLToPath } from "node:url"
import { freePort } from "./ports.ts"

const runtime = fileURLToPath(new URL("../../runtimes/deno/", import.meta.url))
const deno = fileURLToPath(new URL("../../runtimes/deno/node_modules/deno/deno", import.meta.url))
const entry = fileURLToPath(new URL("../../src/deno-main.ts", import.meta.url))

/**
 * The Deno binary is a separate install (`npm ci --prefix runtimes/deno`, about 90 MB), kept out of
 * the project's own. CI sets `DENO_RUNTIME=required` (see `.ci/run`): it is installed here then;
 * otherwise the Deno suites run once it is installed and skip with a message until then.
 */
const installIfRequired = () => {
  if (existsSync(deno)) return true
  if (process.env.DENO_RUNTIME !== "required") {
    console.warn(
      "Deno suites skipped: the Deno runtime is not installed. Run `npm ci --prefix runtimes/deno` " +
        "or set DENO_RUNTIME=required to install and run them, as CI does."
    )
    return false
  }
  const install = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], {
    cwd: runtime,
    encoding: "utf8",
    timeout: 300_000
  })
  if (install.status !== 0) throw new Error(`npm ci in runtimes/deno failed:\n${install.stderr}`)
  return existsSync(deno)
}

/** Whether the Deno binary is there to run the Deno suites. */
export const denoAvailable = installIfRequired()

export interface DenoServer {
  readonly url: string
  readonly stop: () => void
  /** What the process wrote so far, line by line. */
  readonly output: () => { readonly stdout: ReadonlyArray<string>; readonly stderr: ReadonlyArray<string> }
}

const linesOf = (chunks: ReadonlyArray<Buffer>) =>
  Buffer.concat(chunks).toString("utf8").split("\n").filter((line) => line.length > 0)

/**
 * Runs `src/deno-main.ts` under the Deno binary from npm on a free loopback port, with the permissions
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
    stdio: ["ignore", "pipe", "pipe"]
  })
  const stdout: Array<Buffer> = []
  const stderr: Array<Buffer> = []
  child.stdout!.on("data", (chunk: Buffer) => stdout.push(chunk))
  child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk))
  const output = () => ({ stdout: linesOf(stdout), stderr: linesOf(stderr) })
  const stop = () => {
    child.kill("SIGTERM")
  }
  const deadline = Date.now() + 90_000
  for (;;) {
    try {
      await fetch(`${url}/health`)
      return { url, stop, output }
    } catch {
      if (Date.now() > deadline) {
        stop()
        throw new Error("the Deno server did not start")
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
}
