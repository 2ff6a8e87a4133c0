import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { modernMeta, productionApp } from "../support/mcp/McpTestApp.ts"
import { bearers } from "../support/Principals.ts"
import { enclaveConfig, makeIssuer } from "../support/ServiceTokens.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

/**
 * Golden copies of the public surface (issue 19 item 8): the OpenAPI document per caller kind and
 * deployment, and tools/list per caller kind. A change of the surface shows up in review as a diff
 * of these files; after an intended change regenerate them with `npx vitest run test/golden -u`.
 */
const golden = (name: string) => `./__snapshots__/${name}.json`

/** The server's loopback origin varies per run; the golden copies name a fixed one. */
const stable = (server: RunningServer, value: unknown) =>
  `${JSON.stringify(value, null, 2).replaceAll(server.url, "http://127.0.0.1:PORT")}\n`

const toolsList = async (server: RunningServer, headers: Record<string, string>) => {
  const tools: Array<unknown> = []
  let cursor: string | undefined
  for (;;) {
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/list",
        ...headers
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: { ...(cursor === undefined ? {} : { cursor }), _meta: modernMeta }
      })
    })
    const { result } = await response.json()
    tools.push(...result.tools)
    cursor = result.nextCursor
    if (cursor === undefined) return tools
  }
}

describe("golden public surfaces (public deployment)", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ app: productionApp() })
  }, 60_000)
  afterAll(() => server.close())

  it("OpenAPI for anonymous callers", async () => {
    const document = await (await server.get("/openapi.json")).json()
    await expect(stable(server, document)).toMatchFileSnapshot(golden("openapi.anonymous"))
  })

  it("OpenAPI for callers with a key", async () => {
    const document = await (await server.get("/openapi.json", {
      headers: { authorization: `Bearer ${bearers.apiKey}` }
    })).json()
    await expect(stable(server, document)).toMatchFileSnapshot(golden("openapi.credentialed"))
  })

  it.each([
    ["anonymous", {}],
    ["api-key", { authorization: `Bearer ${bearers.apiKey}` }],
    ["oauth-free-tier", { authorization: `Bearer ${bearers.oauth}` }]
  ])("tools/list for %s callers", async (kind, headers) => {
    await expect(stable(server, await toolsList(server, headers))).toMatchFileSnapshot(golden(`tools-list.${kind}`))
  })
})

describe("golden public surfaces (enclave deployment)", () => {
  let server: RunningServer
  let token: string
  beforeAll(async () => {
    const issuer = await makeIssuer()
    server = await startServer({ config: enclaveConfig(issuer.config()) })
    token = await issuer.sign()
  }, 60_000)
  afterAll(() => server.close())

  it("OpenAPI for anonymous callers and for a service", async () => {
    const anonymous = await (await server.get("/openapi.json")).json()
    await expect(stable(server, anonymous)).toMatchFileSnapshot(golden("openapi.enclave.anonymous"))
    const service = await (await server.get("/openapi.json", { headers: { authorization: `Bearer ${token}` } }))
      .json()
    await expect(stable(server, service)).toMatchFileSnapshot(golden("openapi.enclave.service"))
  })

  it("tools/list for a service", async () => {
    const tools = await toolsList(server, { authorization: `Bearer ${token}` })
    await expect(stable(server, tools)).toMatchFileSnapshot(golden("tools-list.enclave-service"))
  })
})
