import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ecfrRoutes } from "../test/support/EcfrFake.ts"
import { fixtureParts, writeSavedResponses } from "../test/support/EcfrFixtures.ts"
import { startFakeUpstream } from "../test/support/FakeUpstream.ts"
import { cpuDuring } from "./lib/cpu.ts"
import { generatedCcl } from "./lib/generated-ccl.ts"
import { load } from "./lib/load.ts"
import { getEccnRequests, waitUntilStored } from "./lib/mcp-get-eccn.ts"
import { pinned, startChild } from "./lib/processes.ts"

/**
 * `npx tsx bench/mcp-profile.ts [mcp|rest|both] [seconds]`: the `mcp` benchmark's server under one
 * kind of load with `--cpu-prof`, then the functions with the most self time (a developer's tool, not
 * part of `npm run bench`). Without a kind it measures server CPU per request of both, alternating.
 */
const bearer = "svc_live_bench"
const eccn = "5A002.a.1"
const kind = process.argv[2] ?? "both"
const seconds = Number(process.argv[3] ?? 6)

interface Node {
  readonly id: number
  readonly callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  readonly children?: Array<number>
}

const frameName = (frame: Node["callFrame"]) =>
  `${frame.functionName || "(anon)"} ${frame.url.replace(/^.*node_modules\//, "").replace(/^.*\/src\//, "src/")}:${
    frame.lineNumber + 1
  }:${frame.columnNumber + 1}`

/** Self and inclusive time per function over the samples of the load window only (the last `seconds`). */
const topSelf = (file: string, count = 45) => {
  const profile = JSON.parse(readFileSync(file, "utf8")) as {
    nodes: Array<Node>
    samples: Array<number>
    timeDeltas: Array<number>
  }
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const times: Array<number> = []
  let t = 0
  for (const delta of profile.timeDeltas) times.push(t += delta)
  const windowStart = t - (seconds + 0.5) * 1e6
  const self = new Map<string, number>()
  const inclusive = new Map<string, number>()
  const nearest = new Map<string, number>()
  let total = 0
  profile.samples.forEach((id, index) => {
    if (times[index]! < windowStart || times[index]! > t - 0.5e6) return
    const delta = profile.timeDeltas[index] ?? 0
    const key = frameName(byId.get(id)!.callFrame)
    if (key.startsWith("(idle)")) return
    total += delta
    self.set(key, (self.get(key) ?? 0) + delta)
    let owner = "(no project frame)"
    for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
      const frame = byId.get(node)!.callFrame
      if (frame.url.includes("/src/") && !frame.url.includes("node_modules")) {
        owner = frameName(frame)
        break
      }
    }
    nearest.set(owner, (nearest.get(owner) ?? 0) + delta)
    const seen = new Set<string>()
    for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
      const name = frameName(byId.get(node)!.callFrame)
      if (seen.has(name)) continue
      seen.add(name)
      inclusive.set(name, (inclusive.get(name) ?? 0) + delta)
    }
  })
  if (total < 1e6) return
  console.log(`busy samples in the load window ${Math.round(total / 1000)} ms`)
  const show = (title: string, table: Map<string, number>, filter: (key: string) => boolean) => {
    console.log(title)
    for (const [key, us] of [...table].filter(([key]) => filter(key)).sort((a, b) => b[1] - a[1]).slice(0, count)) {
      console.log(`${(us / 1000).toFixed(1).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`)
    }
  }
  show("self", self, () => true)
  show("by nearest project frame", nearest, () => true)
  show("inclusive, project code", inclusive, (key) => key.includes("src/") || key.includes("platform"))
}

const main = async () => {
  const ecfr = await startFakeUpstream([
    ecfrRoutes(writeSavedResponses(new Map([...fixtureParts(), [774, generatedCcl().xml]])))
  ])
  const profileDir = mkdtempSync(join(tmpdir(), "mcp-profile-"))
  const dataDir = mkdtempSync(join(tmpdir(), "bench-mcp-"))
  const flags = kind === "both" ? [] : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`]
  const service = await startChild(
    pinned(0, [process.execPath, ...flags, "--import", "tsx", "bench/lib/mcp-server.ts"]),
    { RATE_LIMIT_PER_MINUTE: "0", LOG_LEVEL: "warn", BENCH_BEARER: bearer, ECFR_BASE_URL: ecfr.url, DATA_DIR: dataDir }
  )
  const { authorization, mcp, rest, restUrl } = getEccnRequests(service.url, bearer, eccn)
  try {
    await (await waitUntilStored(restUrl, authorization)).arrayBuffer()
    const run = async (name: string, target: typeof mcp | typeof rest) => {
      const { cpuMs, result } = await cpuDuring(
        service.process.pid!,
        () => load(target.url, { ...target.options, connections: 8, durationSeconds: seconds })
      )
      const us = Math.round((cpuMs * 1000) / result.requests)
      console.log(
        `${name}: ${us} us/req, ${result.requests} req, p50 ${result.latencyMs.p50} p99 ${result.latencyMs.p99} ms, errors ${
          result.errors + result.non2xx
        }`
      )
      return us
    }
    if (kind === "both") {
      await run("warm mcp", mcp)
      await run("warm rest", rest)
      const m: Array<number> = []
      const r: Array<number> = []
      for (let round = 0; round < 3; round++) {
        m.push(await run("mcp", mcp))
        r.push(await run("rest", rest))
      }
      const median = (values: Array<number>) => values.slice().sort((a, b) => a - b)[1]!
      console.log(`median mcp ${median(m)} rest ${median(r)} ratio ${(median(m) / median(r)).toFixed(2)}`)
    } else {
      await run(kind, kind === "mcp" ? mcp : rest)
    }
  } finally {
    await service.stop()
    await ecfr.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
  for (const file of readdirSync(profileDir)) topSelf(join(profileDir, file))
  rmSync(profileDir, { recursive: true, force: true })
}

await main()
