import { spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { minimalClassificationPayload } from "../test/fixtures/documents/classification.ts"
import { compare } from "./lib/load.ts"
import { type Child, startService } from "./lib/processes.ts"

const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"

const admin = async (statement: string) => {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

/** A key made by the `keys` CLI of the checkout at `root`, with the service's own environment. */
const keyFor = (root: string, env: Record<string, string>) => {
  const run = spawnSync(process.execPath, ["--import", "tsx", join(root, "src", "cli.ts"), "keys", "create"], {
    env: { ...process.env, ...env },
    encoding: "utf8"
  })
  const key = /api key: (\S+)/.exec(run.stdout)?.[1]
  if (key === undefined) throw new Error(`keys create failed: ${run.stderr}`)
  return key
}

/** Renders a draft over MCP and returns its download path. */
const linkFrom = async (service: Child, key: string) => {
  const response = await fetch(`${service.url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${key}`,
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "create_classification_pdf"
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "create_classification_pdf",
        arguments: { payload: minimalClassificationPayload, draft: true },
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: "bench", version: "0" }
        }
      }
    })
  })
  const link = (await response.json()).result?.structuredContent
  if (link?.url === undefined) throw new Error("create_classification_pdf returned no link")
  return new URL(link.url).pathname
}

/**
 * `GET /pdf/files/{id}` with the document in the SQL store: on the embedded database (PGlite) and
 * on PostgreSQL. With `BENCH_BASELINE=<checkout of the previous version>`, that version (documents
 * as files under DATA_DIR) is the baseline in the same run; otherwise PGlite is compared with
 * PostgreSQL only.
 */
export const run = async () => {
  const database = `ecds_bench_${randomBytes(4).toString("hex")}`
  await admin(`CREATE DATABASE ${database}`)
  const url = new URL(adminUrl)
  url.pathname = `/${database}`
  const common = { RATE_LIMIT_PER_MINUTE: "0", LOG_LEVEL: "warn" }
  const embeddedEnv = { ...common, DATA_DIR: mkdtempSync(join(tmpdir(), "ecds-bench-")) }
  const postgresEnv = { ...common, DATA_DIR: mkdtempSync(join(tmpdir(), "ecds-bench-")), DATABASE_URL: url.href }
  const baselineDir = process.env.BENCH_BASELINE
  const baselineEnv = { ...common, DATA_DIR: mkdtempSync(join(tmpdir(), "ecds-bench-")) }
  const services: Array<Child> = []
  try {
    const keys = [keyFor(".", embeddedEnv), keyFor(".", postgresEnv)]
    const embedded = await startService(embeddedEnv)
    services.push(embedded)
    const postgres = await startService(postgresEnv)
    services.push(postgres)
    const paths = [await linkFrom(embedded, keys[0]!), await linkFrom(postgres, keys[1]!)]
    const target = (service: Child, path: string) => ({ url: `${service.url}${path}` })
    const result: Record<string, unknown> = {
      description: "GET /pdf/files/{id} (a classification draft) from the SQL store: PGlite vs PostgreSQL, and each " +
        "vs the previous version's file store when BENCH_BASELINE is set (same run)",
      goal: "no request path slower than 0.8 x today",
      postgresVsEmbedded: await compare(target(postgres, paths[1]!), target(embedded, paths[0]!))
    }
    if (baselineDir !== undefined) {
      const baselineKey = keyFor(baselineDir, baselineEnv)
      const today = await startService(baselineEnv, join(baselineDir, "src", "node.ts"))
      services.push(today)
      const todayPath = await linkFrom(today, baselineKey)
      result.embeddedVsToday = await compare(target(embedded, paths[0]!), target(today, todayPath))
      result.postgresVsToday = await compare(target(postgres, paths[1]!), target(today, todayPath))
    }
    return result
  } finally {
    await Promise.all(services.map((service) => service.stop()))
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
  }
}
