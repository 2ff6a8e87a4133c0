import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort } from "../../test/support/ports.ts"

/** `taskset -c <cpu>` when the machine has it and more than one CPU: server and load generator apart. */
export const pinned = (cpu: number, command: Array<string>): Array<string> => {
  const taskset = spawnSync("taskset", ["--version"]).status === 0
  return taskset ? ["taskset", "-c", String(cpu), ...command] : command
}

export interface Child {
  readonly url: string
  readonly process: ChildProcess
  readonly stop: () => Promise<void>
}

// a Node + tsx start is seconds of CPU, far more on a machine busy with other work
const waitForHttp = async (url: string, timeoutMs = 180_000) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url)
      await response.arrayBuffer()
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  throw new Error(`${url} did not come up`)
}

export const startChild = async (
  argv: Array<string>,
  env: Record<string, string>,
  readyPath = "/"
): Promise<Child> => {
  const port = await freePort()
  const [command, ...args] = argv
  const child = spawn(command!, args, {
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "ignore", "inherit"]
  })
  const url = `http://127.0.0.1:${port}`
  await waitForHttp(`${url}${readyPath}`)
  return {
    url,
    process: child,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve())
        child.kill("SIGTERM")
      })
  }
}

/** The service as `npm start` runs it (or another entry wiring the same app), pinned to CPU 0. */
export const startService = (env: Record<string, string> = {}, entry = "src/node.ts") =>
  startChild(pinned(0, [process.execPath, "--import", "tsx", entry]), {
    LOG_LEVEL: "info",
    DATA_DIR: ".data/bench",
    ...env
  })

/**
 * A bare node:http server answering every request with the given bytes and headers, pinned to CPU 0.
 * The body goes through a temporary file: large bodies do not fit in the environment.
 */
export const startBareServer = async (body: Uint8Array, headers: Record<string, string>): Promise<Child> => {
  const dir = mkdtempSync(join(tmpdir(), "bare-server-"))
  const file = join(dir, "body")
  writeFileSync(file, body)
  const child = await startChild(pinned(0, [process.execPath, "bench/lib/bare-server.mjs"]), {
    BARE_BODY_FILE: file,
    BARE_HEADERS: JSON.stringify(headers)
  })
  return { ...child, stop: () => child.stop().finally(() => rmSync(dir, { recursive: true, force: true })) }
}
