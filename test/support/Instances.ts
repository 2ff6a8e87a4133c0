import { type ChildProcess, spawn } from "node:child_process"
import { createServer, type Server, Socket } from "node:net"
import { cliCommand } from "./CliEnv.ts"
import { freePort } from "./ports.ts"
import type { RunningServer } from "./TestServer.ts"

export interface Instance extends RunningServer {
  readonly child: ChildProcess
  /** What the process wrote to stderr so far (start-up failures). */
  readonly stderr: () => string
  /** Sends the signal and waits for the process to end. */
  readonly stop: (signal?: NodeJS.Signals) => Promise<void>
}

/**
 * `ecds serve` as its own process, as an operator runs it behind a load balancer; resolves once
 * `/health` answers. A Node + tsx start costs seconds of CPU on a busy machine: callers give it a
 * generous test timeout.
 */
export const startInstance = async (env: Record<string, string>): Promise<Instance> => {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const [command, ...prefix] = cliCommand
  const child = spawn(command, [...prefix, "serve"], {
    env: { ...env, PORT: String(port), HOST: "127.0.0.1", PUBLIC_BASE_URL: url },
    stdio: ["ignore", "ignore", "pipe"]
  })
  let stderr = ""
  child.stderr!.on("data", (chunk) => (stderr += String(chunk)))
  const ended = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    await ended
  }
  for (let attempt = 0; attempt < 900; attempt++) {
    if (child.exitCode !== null) throw new Error(`ecds serve exited with ${child.exitCode}: ${stderr}`)
    if (await fetch(`${url}/health`).then((response) => response.ok, () => false)) {
      return {
        url,
        child,
        stderr: () => stderr,
        stop,
        get: (path, init) => fetch(`${url}${path}`, init),
        close: () => stop()
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  await stop("SIGKILL")
  throw new Error(`ecds serve did not start: ${stderr}`)
}

export interface TcpRelay {
  readonly port: number
  /** The service behind goes away: open connections are reset and new ones refused. */
  readonly cut: () => Promise<void>
  /** The service comes back on the same port. */
  readonly restore: () => Promise<void>
  readonly close: () => Promise<void>
}

/**
 * A TCP relay to `127.0.0.1:target`, so a test can take a server (PostgreSQL) away from the
 * processes using it and bring it back, without touching the server itself.
 */
export const startTcpRelay = async (target: number): Promise<TcpRelay> => {
  const sockets = new Set<Socket>()
  let server: Server | undefined
  const port = await freePort()
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const relay = createServer((client) => {
        const upstream = new Socket()
        sockets.add(client).add(upstream)
        const drop = () => {
          client.destroy()
          upstream.destroy()
          sockets.delete(client)
          sockets.delete(upstream)
        }
        client.on("error", drop).on("close", drop)
        upstream.on("error", drop).on("close", drop)
        upstream.connect(target, "127.0.0.1", () => {
          client.pipe(upstream)
          upstream.pipe(client)
        })
      })
      relay.once("error", reject)
      relay.listen(port, "127.0.0.1", () => {
        server = relay
        resolve()
      })
    })
  const cut = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      sockets.clear()
      if (server === undefined) return resolve()
      server.close(() => resolve())
      server = undefined
    })
  await listen()
  return { port, cut, restore: listen, close: cut }
}
