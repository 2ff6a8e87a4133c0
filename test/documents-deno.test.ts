import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { denoAvailable, type DenoServer, startDenoServer } from "./support/DenoServer.ts"
import { keysInDataDir } from "./support/TestStore.ts"

describe.skipIf(!denoAvailable)("documents on the Deno runtime", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "documents-deno-"))
  let url = ""
  let key = ""
  let server: DenoServer | undefined
  beforeAll(async () => {
    key = /api key: (\S+)/.exec(await keysInDataDir(dataDir)("create", "--label", "deno"))![1]!
    server = await startDenoServer({ DATA_DIR: dataDir })
    url = server.url
  }, 120_000)
  afterAll(() => {
    server?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("renders the free certificate and refuses an oversized chunked body with 413", async () => {
    const certificate = await fetch(`${url}/pdf/restricted-party-screening`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        COMPANY_NAME: "Northwind",
        DOC_NUMBER: "RPS-1",
        VERSION: "1",
        DATE: "2026-11-19",
        SCREENED_BY: "Jane Doe",
        OVERALL_RESULT: "screen-clear",
        PARTIES: [{ PARTY: "Example GmbH" }]
      })
    })
    expect(certificate.status).toBe(200)
    expect(certificate.headers.get("content-type")).toBe("application/pdf")
    expect(Buffer.from(await certificate.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-")
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 15; i++) controller.enqueue(new Uint8Array(100 * 1024).fill(32))
        controller.close()
      }
    })
    const oversized = await fetch(`${url}/pdf/tcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: chunks,
      duplex: "half"
    } as RequestInit)
    expect(oversized.status).toBe(413)
    expect(oversized.headers.get("content-type")).toBe("application/problem+json")
  })
})
