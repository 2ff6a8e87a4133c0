import { mkdirSync, writeFileSync } from "node:fs"

/**
 * `npm run bench [-- name ...]`: runs the named benchmarks (all by default) one after another and
 * writes each result to `bench/results/<name>.json`, plus `bench/results/summary.json`.
 */
const benchmarks: Record<string, () => Promise<{ run: () => Promise<unknown> }>> = {
  "http-core": () => import("./http-core.ts"),
  auth: () => import("./auth.ts"),
  accounts: () => import("./accounts.ts"),
  mcp: () => import("./mcp.ts"),
  "mcp-documents": () => import("./mcp-documents.ts"),
  "enforcement-archive": () => import("./enforcement-archive.ts"),
  "enforcement-collect": () => import("./enforcement-collect.ts"),
  "party-enforcement": () => import("./party-enforcement.ts"),
  skills: () => import("./skills.ts"),
  ecfr: () => import("./ecfr.ts"),
  eccn: () => import("./eccn.ts"),
  screening: () => import("./screening.ts"),
  "screening-batch": () => import("./screening-batch.ts"),
  render: () => import("./render.ts"),
  "rate-limit": () => import("./rate-limit.ts"),
  "oauth-guessing": () => import("./oauth-guessing.ts"),
  "oauth-clients": () => import("./oauth-clients.ts"),
  "document-links": () => import("./document-links.ts"),
  "store-maintenance": () => import("./store-maintenance.ts"),
  workspace: () => import("./workspace.ts"),
  "agent-tasks": () => import("./agent-tasks.ts")
}

const selected = process.argv.slice(2).filter((arg) => !arg.startsWith("-"))
const names = selected.length > 0 ? selected : Object.keys(benchmarks)
mkdirSync("bench/results", { recursive: true })
const summary: Record<string, unknown> = {}
for (const name of names) {
  const load = benchmarks[name]
  if (!load) {
    console.error(`unknown benchmark ${name}; known: ${Object.keys(benchmarks).join(", ")}`)
    process.exit(2)
  }
  console.log(`▶ ${name}`)
  const startedAt = new Date().toISOString()
  const result = await (await load()).run()
  const record = { name, startedAt, node: process.version, result }
  writeFileSync(`bench/results/${name}.json`, JSON.stringify(record, null, 2))
  summary[name] = result
  console.log(JSON.stringify(result, null, 2))
}
writeFileSync("bench/results/summary.json", JSON.stringify({ at: new Date().toISOString(), summary }, null, 2))
