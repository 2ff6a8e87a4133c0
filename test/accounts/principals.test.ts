import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { addUsers, freeUser, newDataDir, paidUser, publicAppWithProbe, signInFlow } from "../support/OAuthDriver.ts"
import { enclaveConfig, makeIssuer } from "../support/ServiceTokens.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

// Every kind of caller on the free REST surface of the public deployment, and on the enclave.
describe("principals on the REST surfaces", () => {
  let publicServer: RunningServer
  let enclave: RunningServer
  const bearers: Record<string, string | undefined> = { anonymous: undefined }
  beforeAll(async () => {
    const dataDir = await newDataDir()
    await addUsers(dataDir, [freeUser, paidUser])
    const tokens = await makeIssuer()
    publicServer = await startServer({ config: { dataDir }, app: publicAppWithProbe })
    enclave = await startServer({ config: { ...enclaveConfig(tokens.config()), dataDir } })
    bearers["OAuth user (free)"] = (await signInFlow(publicServer.url, freeUser)).tokens.access_token
    bearers["OAuth user (paid)"] = (await signInFlow(publicServer.url, paidUser)).tokens.access_token
    bearers["unknown OAuth token"] = `svc_oauth_${"A".repeat(65)}`
    bearers["unknown API key"] = "svc_live_0123456789ab_abcdefghijklmnopqrstuvwxyzABCDEF"
    bearers["service JWT"] = await tokens.sign()
    bearers["garbage"] = "not-a-credential"
  })
  afterAll(async () => {
    await publicServer.close()
    await enclave.close()
  })

  const get = (server: RunningServer, path: string, bearer: string | undefined) =>
    server.get(path, bearer === undefined ? {} : { headers: { authorization: `Bearer ${bearer}` } })

  it("serves the public free reads to every caller alike, never with 401", async () => {
    for (const path of ["/api/regulatory-status", "/skills", "/"]) {
      const bodies = new Set<string>()
      for (const [who, bearer] of Object.entries(bearers)) {
        const response = await get(publicServer, path, bearer)
        expect(response.status, `${who} on ${path}`).toBe(200)
        bodies.add(await response.text())
      }
      expect(bodies.size, path).toBe(1)
    }
  })

  it("discloses the enterprise OpenAPI surface to signed-in users and exempts them from the anonymous limit", async () => {
    const paths = async (bearer: string | undefined) =>
      Object.keys((await (await get(publicServer, "/openapi.json", bearer)).json()).paths)
    expect(await paths(undefined)).not.toContain("/pdf/{slug}")
    expect(await paths(bearers["OAuth user (free)"])).toContain("/pdf/{slug}")
    expect(await paths(bearers["unknown OAuth token"])).not.toContain("/pdf/{slug}")
    const signedIn = await get(publicServer, "/api/regulatory-status", bearers["OAuth user (free)"])
    expect(signedIn.headers.get("ratelimit-limit")).toBeNull()
    const unknown = await get(publicServer, "/api/regulatory-status", bearers["unknown OAuth token"])
    expect(unknown.headers.get("ratelimit-limit")).toBe("120")
  })

  it("counts other spellings of a limited path against the anonymous budget", async () => {
    for (const path of ["/API/regulatory-status", "//api/regulatory-status", "/%61pi/regulatory-status"]) {
      const response = await get(publicServer, path, undefined)
      expect(response.status, path).toBe(200)
      expect(response.headers.get("ratelimit-limit"), path).toBe("120")
    }
  })

  it("accepts only the service JWT on the enclave's guarded paths", async () => {
    for (const [who, bearer] of Object.entries(bearers)) {
      const response = await get(enclave, "/api/regulatory-status", bearer)
      expect(response.status, who).toBe(who === "service JWT" ? 200 : 401)
    }
  })
})
