import { HttpLayerRouter } from "@effect/platform"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Validator } from "@seriousme/openapi-schema-validator"
import { Effect, Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AppRoutes } from "../src/http/App.ts"
import { appLayer, forRuntime } from "../src/layers/Main.ts"
import { PublicServices } from "../src/layers/Public.ts"
import * as AppConfig from "../src/services/AppConfig.ts"
import * as Credits from "../src/services/Credits.ts"
import * as KeyStore from "../src/services/KeyStore.ts"
import * as Renderer from "../src/services/Renderer.ts"
import { classificationPayload } from "./fixtures/documents/classification.ts"
import { parsePdf } from "./support/ParsePdf.ts"
import { type RunningServer, startServer, testConfig } from "./support/TestServer.ts"
import { accountStores, keysCommand, testStore } from "./support/TestStore.ts"

const dataDir = mkdtempSync(join(tmpdir(), "documents-test-"))
const stores = accountStores(dataDir)
/** The keys CLI against the server's store: returns the new key. */
const keys = keysCommand(dataDir)
const newKey = async (credits = 0) => {
  const output = await keys("create", "--label", "test", "--credits", String(credits))
  return { key: /api key: (\S+)/.exec(output)![1]!, keyId: /key id:\s+(\S+)/.exec(output)![1]! }
}
const balance = (keyId: string) =>
  Effect.runPromise(Effect.flatMap(Credits.Credits, (c) => c.balance(keyId)).pipe(Effect.provide(stores)))

const minimalCertificate = {
  COMPANY_NAME: "Northwind Secure Systems, Inc.",
  DOC_NUMBER: "RPS-2026-10311",
  VERSION: "1",
  DATE: "2026-11-19",
  SCREENED_BY: "Jane Doe",
  OVERALL_RESULT: "screen-clear",
  PARTIES: [{ PARTY: "Example GmbH", COUNTRY: "Germany", RESULT: "screen-clear" }],
  CERTIFICATION_STATEMENT: "Screened as recorded."
}
const minimalTcp = {
  COMPANY_NAME: "Northwind",
  DOC_NUMBER: "TCP-1",
  VERSION: "1",
  DATE: "2026-11-19",
  TCP_OWNER: "Jane Doe",
  FACILITY: "Boston lab",
  // one value per judgement section, so a final is not rendered as an incomplete draft
  TECHNOLOGY_DESCRIPTION: "<p>Encryption firmware source.</p>",
  DEEMED_EXPORT_ANALYSIS: "<p>No foreign persons.</p>",
  MARKING: "Marked on every page.",
  TRANSMISSION: "Encrypted only.",
  BRIEFING_ACKNOWLEDGMENT: "Signed yearly.",
  AUDIT_PROCEDURES: "Yearly audit."
}

describe("documents", () => {
  let server: RunningServer
  const post = (path: string, key: string | undefined, body: string, headers: Record<string, string> = {}) =>
    server.get(path, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers }
    })

  beforeAll(async () => {
    server = await startServer({ config: { dataDir } })
  })
  afterAll(async () => {
    await server.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("answers 402 with plan and contact without a valid key, 403 for a deactivated key", async () => {
    for (
      const authorization of [undefined, "Bearer svc_live_unknown", "Bearer svc_live_0123456789ab_" + "x".repeat(32)]
    ) {
      const response = await server.get(
        "/pdf/classification/contract",
        authorization ? { headers: { authorization } } : {}
      )
      expect(response.status).toBe(402)
      const body = await response.json()
      expect(body.type).toMatch(/\/problems\/api-key-required$/)
      expect(body.plan).toMatchObject({ name: "Enterprise", contact: "sales@example.com" })
    }
    const { key, keyId } = await newKey(5)
    await keys("deactivate", keyId)
    const response = await post("/pdf/classification?draft=1", key, JSON.stringify(classificationPayload))
    expect(response.status).toBe(403)
    expect((await response.json()).type).toMatch(/api-key-inactive$/)
  })

  it("serves every contract to a key holder", async () => {
    const { key } = await newKey()
    const response = await server.get("/pdf/classification/contract", { headers: { authorization: `Bearer ${key}` } })
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toBe("no-store")
    const contract = await response.json()
    expect(contract.template).toBe("classification")
    expect(Object.keys(contract.fields)).toHaveLength(172)
    expect(contract.required).toHaveLength(8)
    for (
      const slug of [
        "license-determination",
        "restricted-party-screening",
        "transaction-compliance-file",
        "emcp-manual",
        "tcp",
        "encryption-report"
      ]
    ) {
      const other = await server.get(`/pdf/${slug}/contract`, { headers: { authorization: `Bearer ${key}` } })
      expect(other.status, slug).toBe(200)
    }
    expect((await server.get("/pdf/nonsense/contract", { headers: { authorization: `Bearer ${key}` } })).status).toBe(
      404
    )
  })

  it("renders a free watermarked draft of the full memorandum", async () => {
    const { key, keyId } = await newKey(0)
    const response = await post("/pdf/classification?draft=1", key, JSON.stringify(classificationPayload))
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("application/pdf")
    expect(response.headers.get("content-disposition")).toBe("attachment; filename=\"ECM-2026-0142-v1.2-DRAFT.pdf\"")
    expect(response.headers.get("x-render-warnings")).toBe("0")
    expect(response.headers.get("cache-control")).toBe("no-store")
    const pdf = await parsePdf(new Uint8Array(await response.arrayBuffer()))
    expect(pdf.pages).toBeGreaterThanOrEqual(20)
    const all = pdf.text.join("\n")
    for (
      const value of [
        "5A002.a.1",
        "Sentinel 4200 VPN gateway",
        "ECM-2026-0142",
        "Contents",
        "Order of review",
        "Example Distributor 12 Ltd."
      ]
    ) {
      expect(all).toContain(value)
    }
    expect(pdf.text.every((page) => page.includes("DRAFT"))).toBe(true)
    expect(pdf.text[1]).toMatch(/Page 2 of \d+/)
    expect(pdf.info.Title).toBe("Export Classification Memorandum: Sentinel 4200 VPN gateway (model NW-S4200)")
    expect(pdf.info.Author).toBe("Jane Doe, Senior Trade Compliance Analyst")
    expect(pdf.embeddedFonts.some((name) => name.includes("IBMPlexSerif"))).toBe(true)
    expect(pdf.embeddedFonts.some((name) => name.includes("IBMPlexSans"))).toBe(true)
    expect(await balance(keyId)).toBe(0)
  })

  it("charges one credit for a final document, without watermark, and 402 with purchase info when none are left", async () => {
    const { key, keyId } = await newKey(1)
    const final = await post("/pdf/tcp", key, JSON.stringify(minimalTcp))
    expect(final.status).toBe(200)
    expect(final.headers.get("content-disposition")).toBe("attachment; filename=\"TCP-1-v1.pdf\"")
    const pdf = await parsePdf(new Uint8Array(await final.arrayBuffer()))
    expect(pdf.text.join(" ")).not.toContain("DRAFT")
    expect(pdf.text.join(" ")).toContain("Boston lab")
    expect(await balance(keyId)).toBe(0)
    const refused = await post("/pdf/tcp", key, JSON.stringify(minimalTcp))
    expect(refused.status).toBe(402)
    const problem = await refused.json()
    expect(problem).toMatchObject({ reason: "exhausted", balance: 0 })
    expect(problem.plan.purchaseUrl).toMatch(/\/docs$/)
  })

  it("refuses final documents to a key with a billing issue but still renders its drafts", async () => {
    const { key, keyId } = await newKey(3)
    await Effect.runPromise(
      Effect.flatMap(KeyStore.KeyStore, (store) => store.setStatus(keyId, "billing_issue")).pipe(Effect.provide(stores))
    )
    const final = await post("/pdf/tcp", key, JSON.stringify(minimalTcp))
    expect(final.status).toBe(402)
    expect(await final.json()).toMatchObject({ reason: "billing_issue", balance: 3 })
    expect((await post("/pdf/tcp?draft=1", key, JSON.stringify(minimalTcp))).status).toBe(200)
    expect(await balance(keyId)).toBe(3)
  })

  it("spends each credit exactly once under concurrent final renders", async () => {
    const { key, keyId } = await newKey(3)
    const responses = await Promise.all(
      Array.from({ length: 7 }, () =>
        post("/pdf/tcp", key, JSON.stringify(minimalTcp)).then(async (r) => {
          await r.arrayBuffer()
          return r.status
        }))
    )
    expect(responses.filter((status) => status === 200)).toHaveLength(3)
    expect(responses.filter((status) => status === 402)).toHaveLength(4)
    expect(await balance(keyId)).toBe(0)
  })

  it("renders the one-page screening certificate free, even with zero credits", async () => {
    const { key, keyId } = await newKey(0)
    const response = await post("/pdf/restricted-party-screening", key, JSON.stringify(minimalCertificate))
    expect(response.status).toBe(200)
    const pdf = await parsePdf(new Uint8Array(await response.arrayBuffer()))
    expect(pdf.pages).toBe(1)
    expect(pdf.text[0]).toContain("Example GmbH")
    expect(pdf.text[0]).toContain("Restricted-Party Screening Certificate")
    expect(await balance(keyId)).toBe(0)
  })

  it("answers 400 naming every bad field, for invalid JSON and malformed arrays, without charging", async () => {
    const { key, keyId } = await newKey(2)
    const invalid = await post("/pdf/classification", key, "{\"COMPANY_NAME\": ")
    expect(invalid.status).toBe(400)
    expect((await invalid.json()).invalidParams[0].name).toBe("body")
    const bad = await post(
      "/pdf/classification",
      key,
      JSON.stringify({
        ...classificationPayload,
        DOC_NUMBER: undefined,
        SCREEN_PARTIES: [{ PARTY: "A", RESULT: "maybe" }],
        KEY_FINDINGS: {}
      })
    )
    expect(bad.status).toBe(400)
    const names = (await bad.json()).invalidParams.map((issue: { name: string }) => issue.name)
    expect(names).toEqual(expect.arrayContaining(["DOC_NUMBER", "SCREEN_PARTIES[0].RESULT", "KEY_FINDINGS"]))
    const warned = await post(
      "/pdf/tcp?draft=1",
      key,
      JSON.stringify({
        ...minimalTcp,
        EXTRA: 1,
        OTHER: "x",
        PURPOSE: "<p>ok</p><script>x()</script><table><tr><th>Zone</th></tr><tr><td>Clean room B</td></tr></table>",
        FACILITY: "Lab 中 \u{13000}"
      })
    )
    expect(warned.status).toBe(200)
    // two unknown keys, one dropped element, one character no embedded face draws (the Han character prints)
    expect(warned.headers.get("x-render-warnings")).toBe("4")
    const notes = await parsePdf(new Uint8Array(await warned.arrayBuffer()))
    expect(notes.text.join(" ")).toMatch(/Lab\s+中/)
    expect(notes.text.at(-1)).toContain("Draft review notes")
    expect(notes.text.join(" ")).toContain("Clean room B")
    expect(notes.text.join(" ")).not.toContain("x()")
    expect(await balance(keyId)).toBe(2)
  })

  it("answers 413 before reading more than 1 MB, with or without Content-Length", async () => {
    const { key } = await newKey(1)
    const big = JSON.stringify({ ...minimalTcp, PURPOSE: "x".repeat(1024 * 1024) })
    const declared = await post("/pdf/tcp", key, big)
    expect(declared.status).toBe(413)
    expect((await declared.json()).limitBytes).toBe(1048576)
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new Uint8Array(100 * 1024).fill(32))
        controller.close()
      }
    })
    const chunked = await server.get("/pdf/tcp", {
      method: "POST",
      body: chunks,
      headers: { authorization: `Bearer ${key}` },
      duplex: "half"
    } as RequestInit)
    expect(chunked.status).toBe(413)
  })

  it("answers 413 on the web (Deno) handler too", async () => {
    const { key } = await newKey(1)
    const { dispose, handler } = HttpLayerRouter.toWebHandler(
      appLayer("web test", testStore).pipe(Layer.provide(AppConfig.layerWith(testConfig({ dataDir })))),
      { disableLogger: true }
    )
    try {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 12; i++) controller.enqueue(new Uint8Array(100 * 1024).fill(32))
          controller.close()
        }
      })
      const response = await handler(
        new Request("http://localhost/pdf/tcp", {
          method: "POST",
          body,
          headers: { authorization: `Bearer ${key}` },
          duplex: "half"
        } as RequestInit)
      )
      expect(response.status).toBe(413)
      expect(response.headers.get("content-type")).toBe("application/problem+json")
    } finally {
      await dispose()
    }
  })

  it("discloses the documents group and payload schemas in /openapi.json to key holders only", async () => {
    const anonymous = await (await server.get("/openapi.json")).json()
    expect(Object.keys(anonymous.paths).some((path) => path.startsWith("/pdf"))).toBe(false)
    const { key, keyId } = await newKey()
    const response = await server.get("/openapi.json", { headers: { authorization: `Bearer ${key}` } })
    expect(response.headers.get("cache-control")).toBe("private, max-age=3600")
    const full = await response.json()
    expect(full.paths["/pdf/{slug}"].post).toBeDefined()
    expect(full.components.schemas.ClassificationPayload.required).toHaveLength(8)
    const validation = await new Validator().validate(full)
    expect(validation.errors ?? []).toEqual([])
    await keys("deactivate", keyId)
    const revoked = await (await server.get("/openapi.json", { headers: { authorization: `Bearer ${key}` } })).json()
    expect(revoked.paths["/pdf/{slug}"]).toBeUndefined()
  })

  it("holds anonymous callers to the rate limit, not key holders", async () => {
    const limited = await startServer({ config: { dataDir, rateLimitPerMinute: 2 } })
    try {
      const { key } = await newKey()
      const anonymous = []
      for (let i = 0; i < 3; i++) anonymous.push((await limited.get("/openapi.json")).status)
      expect(anonymous).toEqual([200, 200, 429])
      for (let i = 0; i < 4; i++) {
        const response = await limited.get("/openapi.json", { headers: { authorization: `Bearer ${key}` } })
        expect(response.status).toBe(200)
        expect(response.headers.get("ratelimit-limit")).toBeNull()
      }
    } finally {
      await limited.close()
    }
  })

  it("gives the credit back when the client goes away before the document is delivered", async () => {
    let started = 0
    const stalled = Layer.succeed(Renderer.Renderer, {
      render: () => Effect.zipRight(Effect.sync(() => started++), Effect.never)
    })
    const app = forRuntime(
      AppRoutes.pipe(Layer.provide(stalled), Layer.provide(PublicServices)),
      "node test",
      testStore
    )
    const stalling = await startServer({ config: { dataDir }, app })
    try {
      const { key, keyId } = await newKey(1)
      const abort = new AbortController()
      const request = stalling.get("/pdf/tcp", {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        body: JSON.stringify(minimalTcp),
        signal: abort.signal
      }).catch(() => undefined)
      while (started === 0) await new Promise((resolve) => setTimeout(resolve, 10))
      expect(await balance(keyId)).toBe(0)
      abort.abort()
      await request
      for (let i = 0; i < 100 && (await balance(keyId)) === 0; i++) await new Promise((r) => setTimeout(r, 20))
      expect(await balance(keyId)).toBe(1)
    } finally {
      await stalling.close()
    }
  })

  it("never logs payloads", async () => {
    const lines: Array<string> = []
    const original = console.log
    console.log = (...args: Array<unknown>) => void lines.push(args.join(" "))
    const logged = await startServer({ config: { dataDir, logLevel: "debug" } })
    try {
      const { key } = await newKey(0)
      const marker = "Zanzibar-Marker-Trading-LLC"
      await logged.get("/pdf/restricted-party-screening?draft=1", {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        body: JSON.stringify({ ...minimalCertificate, PARTIES: [{ PARTY: marker }], EXTRA: "{broken" })
      }).then((r) => r.arrayBuffer())
      await logged.get("/pdf/tcp", {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        body: `{"${marker}"`
      })
        .then((r) => r.arrayBuffer())
      await new Promise((resolve) => setTimeout(resolve, 50))
    } finally {
      await logged.close()
      console.log = original
    }
    expect(lines.join("\n")).toContain("/pdf/:slug")
    expect(lines.join("\n")).not.toContain("Zanzibar")
    expect(lines.join("\n")).not.toContain("svc_live_")
  })
})
