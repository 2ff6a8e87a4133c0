import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as AppConfig from "../src/services/AppConfig.ts"
import { KeyStore, layer as keyStoreLayer } from "../src/services/KeyStore.ts"
import { freePort } from "./support/ports.ts"
import { testConfig } from "./support/TestServer.ts"

const deno = fileURLToPath(new URL("../node_modules/deno/deno", import.meta.url))
const entry = fileURLToPath(new URL("../src/deno.ts", import.meta.url))

describe.skipIf(!existsSync(deno))("documents on the Deno runtime", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "documents-deno-"))
  let url = ""
  let key = ""
  let child: ReturnType<typeof spawn>
  beforeAll(async () => {
    key = await Effect.runPromise(
      Effect.flatMap(KeyStore, (keys) => keys.create({ label: "deno", plan: "enterprise" })).pipe(
        Effect.map((created) => created.key),
        Effect.provide(keyStoreLayer.pipe(Layer.provide(AppConfig.layerWith(testConfig({ dataDir })))))
      )
    )
    const port = await freePort()
    url = `http://127.0.0.1:${port}`
    child = spawn(deno, [
      "run",
      "--allow-net",
      "--allow-env",
      "--allow-read",
      "--allow-write",
      "--allow-sys",
      "--allow-ffi",
      entry
    ], {
      cwd: tmpdir(),
      env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "none", DATA_DIR: dataDir },
      stdio: "ignore"
    })
    const deadline = Date.now() + 90_000
    for (;;) {
      try {
        await fetch(`${url}/health`)
        return
      } catch {
        if (Date.now() > deadline) throw new Error("the Deno server did not start")
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    }
  }, 120_000)
  afterAll(() => {
    child?.kill("SIGTERM")
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
