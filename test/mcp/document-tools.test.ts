import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { DocumentSlugs } from "../../src/domain/Documents.ts"
import { KeyStore } from "../../src/services/KeyStore.ts"
import { minimalClassificationPayload } from "../fixtures/documents/classification.ts"
import { modernPost } from "../support/mcp/McpTestApp.ts"
import {
  addUsers,
  freeUser,
  newDataDir,
  paidUser,
  principalOf,
  publicAppWithProbe,
  signInFlow
} from "../support/OAuthDriver.ts"
import { parsePdf } from "../support/ParsePdf.ts"
import { enclaveConfig, makeIssuer } from "../support/ServiceTokens.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"
import { accountStores, keysCommand } from "../support/TestStore.ts"

const documentToolNames = DocumentSlugs.flatMap((slug) => {
  const name = slug.replaceAll("-", "_")
  return [`get_${name}_pdf_contract`, `create_${name}_pdf`]
})

const tools = async (server: RunningServer, bearer?: string): Promise<Array<string>> => {
  const response = await modernPost(server, "tools/list", {}, bearer ? { authorization: `Bearer ${bearer}` } : {})
  return ((await response.json()).result.tools as Array<{ name: string }>).map((tool) => tool.name)
}

const call = async (server: RunningServer, bearer: string, name: string, args: unknown): Promise<any> => {
  const response = await modernPost(server, "tools/call", { name, arguments: args }, {
    authorization: `Bearer ${bearer}`
  })
  expect(response.status).toBe(200)
  return (await response.json()).result
}

const create = (server: RunningServer, bearer: string, args: unknown = { payload: minimalClassificationPayload }) =>
  call(server, bearer, "create_classification_pdf", args)

/** The path of a link on the server it points to. */
const pathOf = (url: string) => new URL(url).pathname

describe("enterprise document tools over MCP (public deployment)", () => {
  let server: RunningServer
  let dataDir: string
  let keys: (...args: Array<string>) => Promise<string>
  let setStatus: (keyId: string, status: "active" | "inactive" | "billing_issue") => Promise<unknown>
  let freeToken: string
  let paidToken: string
  let freeUserId: string
  const newKey = async (credits: number) => {
    const output = await keys("create", "--label", "mcp-documents", "--credits", String(credits))
    return { key: /api key: (\S+)/.exec(output)![1]!, keyId: /key id:\s+(\S+)/.exec(output)![1]! }
  }
  const spent = async (keyId: string) => /\s+\w+\s+(\d+)\s+/.exec((await keys("usage", keyId)).split("\n")[1]!)![1]

  beforeAll(async () => {
    dataDir = await newDataDir()
    await addUsers(dataDir, [freeUser, paidUser])
    const stores = accountStores(dataDir)
    keys = keysCommand(dataDir)
    setStatus = (keyId, status) =>
      Effect.runPromise(
        Effect.flatMap(KeyStore, (store) => store.setStatus(keyId, status)).pipe(Effect.provide(stores))
      )
    server = await startServer({ config: { dataDir }, app: publicAppWithProbe })
    freeToken = (await signInFlow(server.url, freeUser)).tokens.access_token
    paidToken = (await signInFlow(server.url, paidUser)).tokens.access_token
    freeUserId = (await principalOf(server.url, freeToken)).userId as string
  }, 120_000)
  afterAll(() => server.close())

  it("lists get_pdf_contract and create_pdf to an API key and a free-tier OAuth user, not to anonymous or deactivated callers; SPEC's 14 names stay callable", async () => {
    expect(documentToolNames).toHaveLength(14)
    const anonymous = await tools(server)
    for (const name of [...documentToolNames, "get_pdf_contract", "create_pdf"]) expect(anonymous).not.toContain(name)
    const { key, keyId } = await newKey(0)
    for (const bearer of [key, freeToken]) {
      const listed = await tools(server, bearer)
      expect(listed).toEqual(expect.arrayContaining(["get_pdf_contract", "create_pdf"]))
      // the per-type names are aliases: callable (below), not repeated in every tools/list
      for (const name of documentToolNames) expect(listed).not.toContain(name)
    }
    const discovery =
      await (await fetch(`${server.url}/.well-known/mcp`, { headers: { authorization: `Bearer ${key}` } }))
        .json()
    expect(discovery.capabilities.tools).toEqual(expect.arrayContaining(documentToolNames))
    await setStatus(keyId, "inactive")
    expect(await tools(server, key)).not.toContain("create_pdf")
    const refused = await modernPost(server, "tools/call", { name: "create_tcp_pdf", arguments: {} }, {
      authorization: `Bearer ${key}`
    })
    expect(refused.status).toBe(401)
  })

  it("answers get_pdf_contract and each get_<slug>_pdf_contract with exactly the REST contract", async () => {
    const { key } = await newKey(0)
    for (const slug of DocumentSlugs) {
      const rest = await (await server.get(`/pdf/${slug}/contract`, { headers: { authorization: `Bearer ${key}` } }))
        .json()
      const result = await call(server, key, `get_${slug.replaceAll("-", "_")}_pdf_contract`, {})
      expect(result.isError ?? false).toBe(false)
      expect(result.structuredContent).toEqual(rest)
      const shared = await call(server, key, "get_pdf_contract", { document: slug })
      expect(shared.structuredContent).toEqual(rest)
    }
    const unknown = await call(server, key, "get_pdf_contract", { document: "invoice" })
    expect(unknown.isError).toBe(true)
    expect(unknown.content[0].text).toMatch(/^Invalid arguments: `document` must be one of "classification"/)
  })

  it("renders a final document for one credit and delivers it as a link that needs no bearer", async () => {
    const { key, keyId } = await newKey(2)
    const result = await create(server, key)
    expect(result.isError ?? false).toBe(false)
    const link = result.structuredContent
    expect(link).toMatchObject({
      document: "classification",
      file_name: "ECM-2026-0142-v1.0.pdf",
      content_type: "application/pdf",
      draft: false,
      metering: "credits",
      credits_charged: 1,
      credits_remaining: 1,
      warnings: { count: 0, messages: [] }
    })
    expect(link.url).toMatch(new RegExp(`^${server.url}/pdf/files/[A-Za-z0-9_-]{43}$`))
    expect(Date.parse(link.expires_at) - Date.now()).toBeGreaterThan(3_500_000)
    expect(JSON.stringify(result)).not.toContain("%PDF")

    const download = await fetch(link.url)
    expect(download.status).toBe(200)
    expect(download.headers.get("content-type")).toBe("application/pdf")
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="ECM-2026-0142-v1.0.pdf"`)
    expect(download.headers.get("cache-control")).toBe("private, no-store")
    expect(download.headers.get("x-render-warnings")).toBe("0")
    const bytes = new Uint8Array(await download.arrayBuffer())
    expect(bytes.byteLength).toBe(link.bytes)
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(link.sha256)
    const pdf = await parsePdf(bytes)
    expect(pdf.text.join(" ")).toContain("Sentinel 4200")
    expect(pdf.text.join(" ")).not.toMatch(/DRAFT/)
    // the link stays valid until it expires; downloading again charges nothing
    expect((await fetch(link.url)).status).toBe(200)
    expect(await spent(keyId)).toBe("1")
    expect(await keys("usage", keyId)).toMatch(new RegExp(`${keyId}\\s+active\\s+1\\s+\\S+\\s+1\\s+mcp-documents`))
  })

  it("answers purchase information, not a JSON-RPC error, when the key has no credits; nothing is debited", async () => {
    const { key, keyId } = await newKey(0)
    const result = await create(server, key)
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toMatchObject({
      type: `${server.url}/problems/credits-required`,
      status: 402,
      reason: "exhausted",
      balance: 0,
      plan: { name: expect.any(String), purchaseUrl: expect.any(String), contact: expect.any(String) }
    })
    expect(result.content[0].text).toContain(result.structuredContent.plan.purchaseUrl)
    // the very body REST answers with its 402, minus the request id
    const rest = await server.get("/pdf/classification", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(minimalClassificationPayload)
    })
    expect(rest.status).toBe(402)
    const { instance: _instance, ...restBody } = await rest.json()
    expect(result.structuredContent).toEqual(restBody)
    expect(await spent(keyId)).toBe("0")
  })

  it("renders drafts free for any authenticated caller", async () => {
    const { key, keyId } = await newKey(0)
    const result = await create(server, key, { payload: minimalClassificationPayload, draft: true })
    expect(result.structuredContent).toMatchObject({
      draft: true,
      metering: "free",
      credits_charged: 0,
      credits_remaining: 0,
      file_name: "ECM-2026-0142-v1.0-DRAFT.pdf"
    })
    const pdf = await parsePdf(new Uint8Array(await (await fetch(result.structuredContent.url)).arrayBuffer()))
    expect(pdf.text.join(" ")).toMatch(/DRAFT/)
    expect(await spent(keyId)).toBe("0")
    const paidUserDraft = await create(server, paidToken, { payload: minimalClassificationPayload, draft: true })
    expect(paidUserDraft.structuredContent.metering).toBe("free")
    // the listed create_pdf renders the same document when given its type
    const shared = await call(server, key, "create_pdf", {
      document: "classification",
      payload: minimalClassificationPayload,
      draft: true
    })
    expect(shared.structuredContent).toMatchObject({
      document: "classification",
      draft: true,
      metering: "free",
      file_name: "ECM-2026-0142-v1.0-DRAFT.pdf"
    })
    expect(await spent(keyId)).toBe("0")
  })

  it("answers purchase information to a key with a billing issue", async () => {
    const { key, keyId } = await newKey(3)
    await setStatus(keyId, "billing_issue")
    const result = await create(server, key)
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toMatchObject({ reason: "billing_issue", balance: 3 })
    expect((await create(server, key, { payload: minimalClassificationPayload, draft: true })).isError ?? false).toBe(
      false
    )
    expect(await spent(keyId)).toBe("0")
  })

  it("renders under the plan for a paid-tier user, with credits held on the account for a free-tier user", async () => {
    const paid = await create(server, paidToken)
    expect(paid.isError ?? false).toBe(false)
    expect(paid.structuredContent.metering).toBe("plan")
    expect(paid.structuredContent).not.toHaveProperty("credits_charged")

    const broke = await create(server, freeToken)
    expect(broke.isError).toBe(true)
    expect(broke.structuredContent).toMatchObject({ reason: "exhausted", balance: 0, plan: expect.any(Object) })

    expect(await keys("user-credit", freeUserId, "1")).toMatch(/: 1 credits$/)
    const bought = await create(server, freeToken)
    expect(bought.structuredContent).toMatchObject({ metering: "credits", credits_charged: 1, credits_remaining: 0 })
    expect((await fetch(bought.structuredContent.url)).status).toBe(200)
    expect(await keys("user-usage", freeUserId)).toMatch(new RegExp(`${freeUserId}\\s+free\\s+1\\s+\\S+\\s+0\\s+`))
    await expect(keys("user-credit", "usr_unknown", "1")).rejects.toThrow("no user with id usr_unknown")
  })

  it("reports oversize and invalid payloads as clear tool errors, without charging", async () => {
    const { key, keyId } = await newKey(1)
    const oversize = await create(server, key, {
      payload: { ...minimalClassificationPayload, NOTES: "x".repeat(1_100_000) }
    })
    expect(oversize.isError).toBe(true)
    expect(oversize.content[0].text).toMatch(/Payload too large: .*1048576 bytes/)
    const { COMPANY_NAME: _dropped, ...incomplete } = minimalClassificationPayload
    const invalid = await create(server, key, { payload: { ...incomplete, PRODUCT_TABLE: "not rows" } })
    expect(invalid.isError).toBe(true)
    // the per-type tool's schema is the contract: the key is named before anything runs
    expect(invalid.content[0].text).toMatch(/^Invalid arguments: .*`payload\.COMPANY_NAME` is required/)
    const notAnObject = await create(server, key, { payload: [1, 2] })
    expect(notAnObject.isError).toBe(true)
    expect(notAnObject.content[0].text).toMatch(/^Invalid arguments: `payload` must be an object/)
    const extra = await create(server, key, { payload: minimalClassificationPayload, format: "pdf" })
    expect(extra.content[0].text).toMatch(/^Invalid arguments: `format` is not a known parameter/)
    expect(await spent(keyId)).toBe("0")
  })

  it("answers the same 404 problem for unknown ids, and 400 for malformed ones", async () => {
    const unknown = await server.get(`/pdf/files/${randomBytes(32).toString("base64url")}`)
    expect(unknown.status).toBe(404)
    expect(unknown.headers.get("content-type")).toBe("application/problem+json")
    expect((await unknown.json()).type).toBe(`${server.url}/problems/document-link-not-found`)
    for (const malformed of ["short", `${"a".repeat(43)}.pdf`, "%2e%2e%2fcredits.json", "a".repeat(44)]) {
      const response = await server.get(`/pdf/files/${malformed}`)
      expect(response.status, malformed).toBe(400)
    }
  })
})

describe("document links expire and stay out of the access log", () => {
  it("gives the same 404 for an expired link as for an unknown one", async () => {
    const dataDir = await newDataDir()
    const output = await keysCommand(dataDir)("create", "--credits", "0")
    const key = /api key: (\S+)/.exec(output)![1]!
    const lines: Array<string> = []
    const original = console.log
    console.log = (...args: Array<unknown>) => void lines.push(args.join(" "))
    const server = await startServer({ config: { dataDir, pdfLinkTtlSeconds: 1, logLevel: "debug" } })
    try {
      const link = (await create(server, key, { payload: minimalClassificationPayload, draft: true })).structuredContent
      const token = pathOf(link.url).split("/").at(-1)!
      expect((await fetch(link.url)).status).toBe(200)
      await new Promise((resolve) => setTimeout(resolve, 1100))
      const expired = await fetch(link.url)
      expect(expired.status).toBe(404)
      const unknown = await server.get(`/pdf/files/${randomBytes(32).toString("base64url")}`)
      const { instance: _a, ...expiredBody } = await expired.json()
      const { instance: _b, ...unknownBody } = await unknown.json()
      expect(expiredBody).toEqual(unknownBody)
      await new Promise((resolve) => setTimeout(resolve, 50))
      const log = lines.join("\n")
      expect(log).toContain("/pdf/files/:id")
      expect(log).not.toContain(token)
      expect(log).not.toContain(createHash("sha256").update(token).digest("hex"))
    } finally {
      console.log = original
      await server.close()
    }
  }, 120_000)
})

describe("enterprise document tools on the enclave", () => {
  it("renders for a service with the pdf entitlement, and guards the download with the access policy", async () => {
    const issuer = await makeIssuer()
    const server = await startServer({ config: enclaveConfig(issuer.config()) })
    try {
      const entitled = await issuer.sign({ svc_entitlements: ["mcp", "pdf"] })
      expect(await tools(server, entitled)).toEqual(expect.arrayContaining(["get_pdf_contract", "create_pdf"]))
      const result = await create(server, entitled)
      expect(result.structuredContent).toMatchObject({ metering: "plan", draft: false })
      const path = pathOf(result.structuredContent.url)
      expect((await server.get(path)).status).toBe(401)
      const download = await server.get(path, { headers: { authorization: `Bearer ${entitled}` } })
      expect(download.status).toBe(200)
      expect((await parsePdf(new Uint8Array(await download.arrayBuffer()))).pages).toBeGreaterThan(0)

      const mcpOnly = await create(server, await issuer.sign({ svc_entitlements: ["mcp"] }))
      expect(mcpOnly.isError).toBe(true)
      expect(mcpOnly.content[0].text).toMatch(/Not entitled: .*`pdf` entitlement/)
    } finally {
      await server.close()
    }
  })
})
