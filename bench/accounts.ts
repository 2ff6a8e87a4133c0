import { fork } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import pg from "pg"
import {
  concurrency,
  goalMs,
  perRound,
  round,
  rounds,
  type StoreName,
  type Summary,
  warmup
} from "./lib/accounts-store.ts"
import type { Command, Reply } from "./lib/accounts-worker.ts"
import { adminUrl, withScratchDatabase } from "./lib/database.ts"

/** Set in a store's process: one that finds it set starts no store processes of its own. */
const workerMark = "BENCH_ACCOUNTS_STORE"

/**
 * Node's flags for the stores' processes: those `npm start` and the image serve with (package.json,
 * Dockerfile); `BENCH_ACCOUNTS_NODE_FLAGS=""` measures with Node's defaults.
 */
const nodeFlags = (process.env.BENCH_ACCOUNTS_NODE_FLAGS ?? "--max-semi-space-size=64").split(" ").filter(Boolean)

/** A store's process (`lib/accounts-worker.ts`), asked one command at a time. */
const worker = (name: StoreName, dataDir: string, url: string | undefined) => {
  // the TypeScript loader alone: the parent's own flags may be an `--eval` that would run again
  const child = fork(
    fileURLToPath(new URL("./lib/accounts-worker.ts", import.meta.url)),
    [name, dataDir, ...(url === undefined ? [] : [url])],
    { execArgv: [...nodeFlags, "--import", "tsx"], env: { ...process.env, [workerMark]: name } }
  )
  const replies: Array<(reply: Reply) => void> = []
  const waiting: Array<Reply> = []
  child.on("message", (reply: Reply) => {
    const next = replies.shift()
    if (next === undefined) waiting.push(reply)
    else next(reply)
  })
  const exited = new Promise<never>((_, reject) =>
    child.on("exit", (code) => reject(new Error(`${name}: the store's process ended (${code})`)))
  )
  const reply = async (): Promise<Reply> => {
    const next = waiting.shift() ?? await Promise.race([new Promise<Reply>((resolve) => replies.push(resolve)), exited])
    if (next.kind === "failed") throw new Error(`${name}: ${next.message}`)
    return next
  }
  return {
    name,
    ready: reply,
    ask: async (command: Command) => {
      child.send(command)
      return reply()
    },
    stop: () => child.kill()
  }
}

/**
 * Each store in a process of its own, warmed up there; then `rounds` rounds in which every store
 * runs a block (sequential requests, then as many at 8 concurrent), one store at a time, their
 * order rotating each round: a burst of load from elsewhere on the machine, or a slow start, falls
 * on every store alike instead of on whichever ran then.
 */
const measureAll = async (dataDir: string, url: string | undefined) => {
  // at most one process per store, and never from a store's process (no recursion, whatever runs this)
  if (process.env[workerMark] !== undefined) throw new Error("the accounts bench does not run inside a store's process")
  const names: Array<StoreName> = url === undefined ? ["json", "embedded"] : ["json", "embedded", "postgresql"]
  const workers: Array<ReturnType<typeof worker>> = []
  try {
    // started one after another: a store warming up does not share the cores with another
    for (const name of names) {
      const started = worker(name, dataDir, name === "postgresql" ? url : undefined)
      workers.push(started)
      await started.ready()
    }
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < workers.length; k++) await workers[(r + k) % workers.length]!.ask({ kind: "block" })
    }
    const results: Record<string, Summary> = {}
    for (const each of workers) {
      const answer = await each.ask({ kind: "finish" })
      if (answer.kind !== "summary") throw new Error(`${each.name}: no summary`)
      results[each.name] = answer.summary
    }
    return results
  } finally {
    for (const each of workers) each.stop()
  }
}

const reachable = async (url: string): Promise<string | undefined> => {
  const client = new pg.Client({ connectionString: url })
  try {
    await client.connect()
    await client.query("SELECT 1")
    return undefined
  } catch (error) {
    return `no PostgreSQL at ${new URL(url).host}: ${String(error)}`
  } finally {
    await client.end().catch(() => undefined)
  }
}

const ratios = (other: Summary | undefined, json: Summary) =>
  other === undefined ? undefined : {
    wallP50VsJson: round(other.wallMs.p50 / json.wallMs.p50),
    wallP99VsJson: round(other.wallMs.p99 / json.wallMs.p99),
    cpuMeanVsJson: round(other.cpuMs.mean / json.cpuMs.mean),
    ...(other.totalCpuMsMean === undefined
      ? {}
      : { totalCpuMeanVsJson: round(other.totalCpuMsMean / json.cpuMs.mean) }),
    throughputVsJson: round(other.perSecondAt8Concurrent / json.perSecondAt8Concurrent)
  }

export const run = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-accounts-"))
  const loadAtStart = loadavg().map(round)
  try {
    const unreachable = await reachable(adminUrl)
    const results: Record<string, Summary> = unreachable === undefined
      ? await withScratchDatabase("ecds_bench", (url) => measureAll(dataDir, url))
      : await measureAll(dataDir, undefined)
    const json = results.json!
    return {
      description: `the accounting of one final render (key lookup, then hold and settle of one credit, as the ` +
        `render path runs them): the JSON files of the previous version (baseline), the embedded PGlite store ` +
        `on disk, PostgreSQL on loopback, each in a process of its own as a deployment runs one store ` +
        `(Node flags: ${nodeFlags.join(" ") || "none"}). ` +
        `${warmup} warm-up requests per store, then ${rounds} rounds in which each store in turn (one at a ` +
        `time) runs ${perRound} sequential requests (wall, CPU) and ${perRound} at ${concurrency} concurrent ` +
        "(throughput), the stores' order rotating each round",
      load_average: { start: loadAtStart, end: loadavg().map(round) },
      node_flags: nodeFlags,
      goal: `accounting adds < ${goalMs} ms p99 to a final render; throughput no worse than 0.8 x the JSON store. ` +
        "A client waits for the lookup and the hold before its render starts (partsWallMs.beforeRender). REST " +
        "`/pdf` settles once the document was delivered, so there the settlement costs CPU (cpuMs) but no " +
        "latency; an MCP document tool answers with the balance the settlement reports, so it waits for it. " +
        "The lookup is paid by every request with a key, final render or not: hold and settle together " +
        "(partsWallMs.holdAndSettle) are what a final render adds. Wall p99 on a loaded machine includes " +
        "waiting for a core; CPU per request does not (all of it in process for JSON and PGlite; for PostgreSQL " +
        "this process's share plus, when the server runs here, its backends' (serverCpuMsMean)). " +
        "allocatedKbMean is the JavaScript heap one sequential request allocates: the garbage young-generation " +
        "collections pay back, whose pauses are most of the embedded store's wall tail (gc)",
      json,
      embedded: results.embedded,
      postgresql: results.postgresql ?? { skipped: unreachable },
      ratios: { embedded: ratios(results.embedded, json), postgresql: ratios(results.postgresql, json) }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
