import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { createHash, randomBytes } from "node:crypto"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { minimalClassificationPayload } from "./fixtures/documents/classification.ts"
import { offlineEnv, runCli } from "./support/CliEnv.ts"
import { denoAvailable, type DenoServer, startDenoServer } from "./support/DenoServer.ts"
import { modernPost } from "./support/mcp/McpTestApp.ts"
import { adminUrl } from "./support/SqlEngines.ts"

const onDatabase = async <A>(url: string, f: (client: pg.Client) => Promise<A>): Promise<A> => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await f(client)
  } finally {
    await client.end()
  }
}

/**
 * The Deno entry with `DATABASE_URL`: `@effect/sql-pg` under Deno's Node compatibility, on the same
 * PostgreSQL database a Node process administers. A key made by the Node CLI is checked, charged
 * and its document stored by the Deno process.
 */
describe.skipIf(!denoAvailable)("Deno entry (src/deno-main.ts) against PostgreSQL", () => {
  const database = `ecds_t_${randomBytes(6).toString("hex")}`
  const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${database}` }).href
  let server: DenoServer | undefined
  let key = ""

  beforeAll(async () => {
    await onDatabase(adminUrl, (client) => client.query(`CREATE DATABASE ${database}`))
    const created = await runCli(
      ["keys", "create", "--label", "deno", "--credits", "1"],
      offlineEnv({ DATABASE_URL: databaseUrl })
    )
    expect(created.status, created.stderr).toBe(0)
    key = /api key: (\S+)/.exec(created.stdout)![1]!
    server = await startDenoServer({
      ECFR_BASE_URL: "http://127.0.0.1:9",
      CSL_BULK_URL: "http://127.0.0.1:9/consolidated.json",
      DATA_DIR: mkdtempSync(join(tmpdir(), "svc-deno-pg-")),
      DATABASE_URL: databaseUrl
    })
  }, 180_000)

  afterAll(async () => {
    server?.stop()
    await onDatabase(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`))
  }, 60_000)

  it("checks a key, takes its credit and stores the document in PostgreSQL", async () => {
    const url = server!.url
    const ready = await (await fetch(`${url}/ready`)).json()
    expect(ready.checks.find((check: { name: string }) => check.name === "store")).toMatchObject({
      status: "ok",
      details: { engine: "postgresql" }
    })

    const response = await modernPost(
      { url, get: (path) => fetch(`${url}${path}`), close: async () => {} },
      "tools/call",
      {
        name: "create_pdf",
        arguments: { document: "classification", payload: minimalClassificationPayload }
      },
      { authorization: `Bearer ${key}` }
    )
    expect(response.status).toBe(200)
    const result = (await response.json()).result
    expect(result.isError ?? false).toBe(false)
    expect(result.structuredContent.credits_remaining).toBe(0)

    const link = new URL(result.structuredContent.url)
    const download = await fetch(`${url}${link.pathname}`)
    expect(download.status).toBe(200)
    const bytes = new Uint8Array(await download.arrayBuffer())
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(result.structuredContent.sha256)

    // what the Deno process wrote is in the shared database, as a Node instance reads it
    const rows = await onDatabase(databaseUrl, async (client) => ({
      balance: (await client.query("SELECT balance::int AS balance FROM credit_accounts")).rows[0].balance,
      holds: (await client.query("SELECT state FROM credit_holds")).rows.map((row) => row.state),
      documents: (await client.query("SELECT count(*)::int AS n FROM document_files")).rows[0].n
    }))
    expect(rows).toEqual({ balance: 0, holds: ["settled"], documents: 1 })
  }, 120_000)
})
