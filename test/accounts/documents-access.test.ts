import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { classificationPayload } from "../fixtures/documents/classification.ts"
import {
  addUsers,
  freeUser,
  newDataDir,
  paidUser,
  principalOf,
  publicAppWithProbe,
  signInFlow
} from "../support/OAuthDriver.ts"
import { enclaveConfig, makeIssuer } from "../support/ServiceTokens.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"
import { keysCommand } from "../support/TestStore.ts"

// API keys and OAuth tokens side by side in the public Auth chain, and who may render documents where.
describe("API keys, OAuth users and services on /pdf/*", () => {
  let publicServer: RunningServer
  let enclave: RunningServer
  let apiKey: string
  let keyId: string
  let keys: (...args: Array<string>) => Promise<string>
  let oauthToken: string
  let tokens: Awaited<ReturnType<typeof makeIssuer>>
  beforeAll(async () => {
    const dataDir = await newDataDir()
    await addUsers(dataDir, [freeUser, paidUser])
    keys = keysCommand(dataDir)
    const created = await keys("create", "--label", "accounts", "--credits", "2")
    apiKey = /api key: (\S+)/.exec(created)![1]!
    keyId = /key id:\s+(\S+)/.exec(created)![1]!
    tokens = await makeIssuer()
    publicServer = await startServer({ config: { dataDir }, app: publicAppWithProbe })
    enclave = await startServer({ config: { ...enclaveConfig(tokens.config()), dataDir } })
    oauthToken = (await signInFlow(publicServer.url, paidUser)).tokens.access_token
  })
  afterAll(async () => {
    await publicServer.close()
    await enclave.close()
  })

  const post = (server: RunningServer, path: string, bearer: string, body: unknown = classificationPayload) =>
    server.get(path, {
      method: "POST",
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      body: JSON.stringify(body)
    })

  it("resolves an API key and an OAuth token through the same chain", async () => {
    expect(await principalOf(publicServer.url, apiKey)).toMatchObject({ _tag: "ApiKey", status: "active" })
    expect(await principalOf(publicServer.url, oauthToken)).toMatchObject({ _tag: "OAuthUser", tier: "paid" })
  })

  it("keeps /pdf/* for API keys on the public deployment: an OAuth token is 402 with plan information", async () => {
    const contract = await publicServer.get("/pdf/classification/contract", {
      headers: { authorization: `Bearer ${oauthToken}` }
    })
    expect(contract.status).toBe(402)
    const body = await contract.json()
    expect(body.type).toBe(`${publicServer.url}/problems/api-key-required`)
    expect(body.plan).toMatchObject({ name: expect.any(String), purchaseUrl: expect.any(String) })
    const withKey = await publicServer.get("/pdf/classification/contract", {
      headers: { authorization: `Bearer ${apiKey}` }
    })
    expect(withKey.status).toBe(200)
  })

  it("shows what a key paid for in the keys CLI", async () => {
    expect(await keys("usage", keyId)).toMatch(new RegExp(`${keyId}\\s+active\\s+0\\s+-\\s+2`))
    expect((await post(publicServer, "/pdf/classification", apiKey)).status).toBe(200)
    expect((await post(publicServer, "/pdf/classification?draft=1", apiKey)).status).toBe(200)
    const [, line] = (await keys("usage")).split("\n")
    expect(line).toMatch(new RegExp(`^${keyId}\\s+active\\s+1\\s+\\d{4}-\\d{2}-\\d{2}T\\S+\\s+1\\s+accounts$`))
    await expect(keys("usage", "000000000000")).rejects.toThrow("no key with id 000000000000")
  })

  it("renders final documents for a service with the pdf entitlement on the enclave, without credits", async () => {
    const rendered = await post(enclave, "/pdf/classification", await tokens.sign({ svc_entitlements: ["pdf"] }))
    expect(rendered.status).toBe(200)
    expect(rendered.headers.get("content-type")).toBe("application/pdf")
    expect(new TextDecoder().decode((await rendered.arrayBuffer()).slice(0, 5))).toBe("%PDF-")
    const mcpOnly = await post(enclave, "/pdf/classification", await tokens.sign({ svc_entitlements: ["mcp"] }))
    expect(mcpOnly.status).toBe(403)
    expect((await mcpOnly.json()).entitlement).toBe("pdf")
    expect((await post(enclave, "/pdf/classification", apiKey)).status).toBe(401)
  })
})
