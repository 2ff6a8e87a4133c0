import type { SqlClient } from "@effect/sql/SqlClient"
import { PGlite } from "@electric-sql/pglite"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime, Option, Scope } from "effect"
import { spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { cpSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { migrated } from "../src/layers/Store.ts"
import * as DocumentFiles from "../src/services/DocumentFiles.ts"
import * as DocumentFilesSql from "../src/services/store/DocumentFilesSql.ts"
import * as Pglite from "../src/services/store/Pglite.ts"
import { minimalClassificationPayload } from "../test/fixtures/documents/classification.ts"
import { postgresStore } from "./lib/database.ts"
import { compare } from "./lib/load.ts"
import { percentiles } from "./lib/percentiles.ts"
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

const documentsPerSize = 40
const storeOptions = { ttlSeconds: 3600, maxBytes: 2 ** 31 }

/** Wall and this process's CPU time of each call, in order. */
const timed = async (calls: ReadonlyArray<() => Promise<unknown>>) => {
  const wall: Array<number> = []
  const cpu: Array<number> = []
  for (const call of calls) {
    const cpuStarted = process.cpuUsage()
    const started = performance.now()
    await call()
    wall.push(performance.now() - started)
    const used = process.cpuUsage(cpuStarted)
    cpu.push((used.user + used.system) / 1000)
  }
  return { wall_ms: percentiles(wall), cpu_ms: percentiles(cpu) }
}

/**
 * The first download of a document at an instance that did not render it (its in-process copy is
 * empty, so the bytes come from the store): instance A stores the documents, instance B (its own
 * cache, its own connections) reads each once. Against "today" (before the shared store: one
 * process's in-memory links) and, on PGlite, against PGlite's stock bytea parser in the same run.
 */
const firstDownloads = async <A>(
  size: number,
  store: Layer.Layer<A | SqlClient, unknown>,
  stock?: () => Promise<PGlite>
) => {
  const runtime = ManagedRuntime.make(store.pipe(Layer.provide(Logger.minimumLogLevel(LogLevel.Warning)), Layer.orDie))
  try {
    const scope = await runtime.runPromise(Scope.make())
    const [a, b] = await runtime.runPromise(
      Effect.all([DocumentFilesSql.make(storeOptions), DocumentFilesSql.make(storeOptions)]).pipe(Scope.extend(scope))
    )
    const documents = Array.from({ length: documentsPerSize }, () => ({
      fileName: "bench.pdf",
      warnings: 0,
      bytes: randomBytes(size)
    }))
    const tokens: Array<string> = []
    for (const document of documents) tokens.push((await runtime.runPromise(a.put(document))).token)
    const found = (got: Option.Option<unknown>) => {
      if (Option.isNone(got)) throw new Error("a stored document was not found")
    }
    const today = await runtime.runPromise(
      DocumentFiles.make(DocumentFiles.memoryBlobs(), storeOptions).pipe(Scope.extend(scope))
    )
    const todayTokens: Array<string> = []
    for (const document of documents) todayTokens.push((await Effect.runPromise(today.put(document))).token)
    const result: Record<string, unknown> = {
      other_instance: await timed(tokens.map((token) => async () => found(await runtime.runPromise(b.get(token))))),
      today_memory: await timed(
        todayTokens.map((token) => async () => found(await Effect.runPromise(today.get(token))))
      )
    }
    if (stock !== undefined) {
      // the same rows through PGlite's own parser: a second handle on a copy of the database
      const db = await stock()
      try {
        const read = (token: string) =>
          db.query("SELECT file_name, warnings, bytes, expires_at FROM document_files WHERE token_hash = $1", [
            DocumentFiles.hashOf(token)
          ])
        result.stock_pglite_parser = await timed(tokens.map((token) => () => read(token)))
      } finally {
        await db.close()
      }
    }
    return result
  } finally {
    await runtime.dispose()
  }
}

/**
 * `GET /pdf/files/{id}` with the document in the SQL store: on the embedded database (PGlite) and
 * on PostgreSQL. With `BENCH_BASELINE=<checkout of the previous version>`, that version (documents
 * as files under DATA_DIR) is the baseline in the same run; otherwise PGlite is compared with
 * PostgreSQL only.
 */
export const run = async () => {
  const first: Record<string, unknown> = {}
  for (const size of [200_000, 2_000_000]) {
    const dataDir = mkdtempSync(join(tmpdir(), "ecds-bench-first-"))
    const embedded = await firstDownloads(
      size,
      migrated(Pglite.layer({ dataDir: join(dataDir, "db") }), "embedded"),
      async () => {
        const copy = join(dataDir, "copy")
        cpSync(join(dataDir, "db"), copy, { recursive: true, filter: (path) => !path.endsWith(".lock") })
        return PGlite.create({ dataDir: copy })
      }
    )
    const database = `ecds_bench_${randomBytes(4).toString("hex")}`
    await admin(`CREATE DATABASE ${database}`)
    const url = new URL(adminUrl)
    url.pathname = `/${database}`
    try {
      const postgresql = await firstDownloads(
        size,
        postgresStore(url.href, { poolSize: 4 })
      )
      first[`${size / 1000}_kB`] = { embedded, postgresql }
    } finally {
      await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  if (process.env.BENCH_FIRST_ONLY === "1") return { first_download_at_another_instance: first }
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
      first_download_at_another_instance: first,
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
