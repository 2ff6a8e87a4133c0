import { spawn } from "node:child_process"
import { createRequire } from "node:module"
import { pinned } from "./processes.ts"

export interface LoadResult {
  readonly requestsPerSecond: number
  readonly latencyMs: { readonly p50: number; readonly p90: number; readonly p99: number; readonly max: number }
  readonly requests: number
  readonly errors: number
  readonly non2xx: number
}

export interface LoadOptions {
  readonly connections?: number
  readonly durationSeconds?: number
  readonly headers?: Record<string, string>
  readonly method?: "GET" | "POST"
  readonly body?: string
}

/** How to install the load generator, which the HTTP benchmarks need and the project does not. */
export const autocannonInstall = "npm install --no-save autocannon@8"

/**
 * autocannon is not a dependency of the project (with its own dependencies it weighs about 5 MB
 * that every install would carry for the benchmarks alone): it is looked up when a benchmark
 * module loads, so a missing install stops the run before any server starts, saying what to do.
 */
const autocannonCli = ((): string => {
  try {
    return createRequire(import.meta.url).resolve("autocannon/autocannon.js")
  } catch {
    throw new Error(`this benchmark drives autocannon, which is not installed: ${autocannonInstall}`)
  }
})()

/** Runs autocannon (its CLI, pinned to CPU 1) against one URL and returns its summary. */
export const load = (url: string, options: LoadOptions = {}): Promise<LoadResult> =>
  new Promise((resolve, reject) => {
    const args = [
      autocannonCli,
      "-j",
      "-c",
      String(options.connections ?? 32),
      "-d",
      String(options.durationSeconds ?? 8)
    ]
    for (const [name, value] of Object.entries(options.headers ?? {})) args.push("-H", `${name}=${value}`)
    if (options.method !== undefined) args.push("-m", options.method)
    if (options.body !== undefined) args.push("-b", options.body)
    args.push(url)
    const [command, ...rest] = pinned(1, [process.execPath, ...args])
    const child = spawn(command!, rest, { stdio: ["ignore", "pipe", "ignore"] })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.on("error", reject)
    child.on("exit", () => {
      try {
        const result = JSON.parse(output)
        resolve({
          requestsPerSecond: result.requests.average,
          latencyMs: {
            p50: result.latency.p50,
            p90: result.latency.p90,
            p99: result.latency.p99,
            max: result.latency.max
          },
          requests: result.requests.total,
          errors: result.errors,
          non2xx: result.non2xx
        })
      } catch (error) {
        reject(error)
      }
    })
  })

const median = (values: Array<number>) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/**
 * Alternates the candidate and the baseline `rounds` times (so machine noise hits both) and
 * reports the median of each with their ratio, and each round's p99 ratio (a burst of load that
 * hits one round then shows as one outlier, where the ratio of medians may pair rounds apart).
 */
export const compare = async (
  candidate: { readonly url: string; readonly options?: LoadOptions },
  baseline: { readonly url: string; readonly options?: LoadOptions },
  rounds = 3
) => {
  const runs: { candidate: Array<LoadResult>; baseline: Array<LoadResult> } = { candidate: [], baseline: [] }
  await load(candidate.url, { ...candidate.options, durationSeconds: 2 })
  await load(baseline.url, { ...baseline.options, durationSeconds: 2 })
  for (let round = 0; round < rounds; round++) {
    runs.baseline.push(await load(baseline.url, baseline.options))
    runs.candidate.push(await load(candidate.url, candidate.options))
  }
  const summary = (results: Array<LoadResult>) => ({
    requestsPerSecond: median(results.map((r) => r.requestsPerSecond)),
    p50Ms: median(results.map((r) => r.latencyMs.p50)),
    p99Ms: median(results.map((r) => r.latencyMs.p99)),
    errors: results.reduce((n, r) => n + r.errors + r.non2xx, 0)
  })
  const c = summary(runs.candidate)
  const b = summary(runs.baseline)
  const ratio = (x: number, y: number) => Math.round((x / y) * 1000) / 1000
  return {
    candidate: c,
    baseline: b,
    throughputRatio: ratio(c.requestsPerSecond, b.requestsPerSecond),
    p99RatiosPerRound: runs.candidate.map((run, round) => ratio(run.latencyMs.p99, runs.baseline[round]!.latencyMs.p99))
  }
}
