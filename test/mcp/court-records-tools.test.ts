import { FetchHttpClient } from "@effect/platform"
import { afterAll, beforeAll, describe, expect, it, vi } from "@effect/vitest"
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client"
import { Effect, Redacted } from "effect"
import { readFileSync } from "node:fs"
import * as CourtRecords from "../../src/services/CourtRecords.ts"
import { type FakeUpstream, startFakeUpstream } from "../support/FakeUpstream.ts"
import { productionApp } from "../support/mcp/McpTestApp.ts"
import { connectBoth, type ToolClient, workspaceAuth } from "../support/mcp/WorkspaceClients.ts"
import { bearers } from "../support/Principals.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

const fixture = (name: string) => readFileSync(new URL(`../fixtures/court-records/${name}`, import.meta.url), "utf8")
const jsonReply = (body: string) => ({ headers: { "content-type": "application/json" }, body })

const goodToken = "0123456789abcdef0123456789abcdef01234567"
const badToken = "ffffffffffffffffffffffffffffffffffffffff"

/** CourtListener v4 in its own response format: search, dockets, docket entries; 401 for any other token. */
const courtListener = () =>
  startFakeUpstream([(request, url) => {
    if (request.headers.authorization !== `Token ${goodToken}`) {
      return { status: 401, headers: { "content-type": "application/json" }, body: "{\"detail\":\"Invalid token.\"}" }
    }
    if (url.pathname === "/api/rest/v4/search/") {
      return jsonReply(fixture(url.searchParams.get("type") === "o" ? "search-opinions.json" : "search-dockets.json"))
    }
    if (url.pathname === "/api/rest/v4/dockets/") return jsonReply(fixture("dockets.json"))
    if (url.pathname === "/api/rest/v4/docket-entries/") return jsonReply(fixture("docket-entries.json"))
    return undefined
  }])

describe("MCP court-records tools against a CourtListener fake", () => {
  const lines: Array<string> = []
  let upstream: FakeUpstream
  let server: RunningServer
  let clients: ReadonlyArray<ToolClient>
  beforeAll(async () => {
    vi.spyOn(console, "log").mockImplementation((text: unknown) => {
      lines.push(...String(text).split("\n"))
    })
    upstream = await courtListener()
    server = await startServer({
      app: productionApp(workspaceAuth),
      config: { courtListenerBaseUrl: upstream.url, logLevel: "debug" }
    })
    clients = await connectBoth(server)
  }, 120_000)
  afterAll(async () => {
    for (const client of clients ?? []) await client.close()
    await server?.close()
    await upstream?.close()
    vi.restoreAllMocks()
  })

  it("searches dockets and opinions with the caller's token, passing CourtListener's cursor through", async () => {
    for (const client of clients) {
      const before = upstream.requests.length
      const result = await client.call("search_court_records", {
        query: "\"Orion Vantage\"",
        court: "dcd",
        filed_after: "2099-01-01",
        courtlistener_token: goodToken
      })
      expect(result.isError, JSON.stringify(result.body)).toBe(false)
      expect(result.body).toMatchObject({ kind: "dockets", count: 2, next_cursor: "cz0xOS4yNjcmcz0yMDM0NTY" })
      expect(result.body.results[0]).toEqual({
        case_name: "United States v. Orion Vantage Trading Co. (Synthetic Test Case)",
        court: "dcd",
        docket_number: "1:99-cr-00045",
        docket_id: 68412345,
        date_filed: "2099-02-14",
        url: `${upstream.url}/docket/68412345/united-states-v-orion-vantage-trading-co/`
      })
      const sent = upstream.requests.slice(before)
      expect(sent).toHaveLength(1)
      const params = new URL(sent[0]!.url, upstream.url).searchParams
      expect(Object.fromEntries(params)).toEqual({
        q: "\"Orion Vantage\"",
        type: "r",
        court: "dcd",
        filed_after: "2099-01-01"
      })
      expect(sent[0]!.url).not.toContain(goodToken)
      expect(sent[0]!.headers.authorization).toBe(`Token ${goodToken}`)
    }
    const [client] = clients
    const opinions = await client!.call("search_court_records", {
      query: "entity list",
      kind: "opinions",
      cursor: "cz0xOS4yNjcmcz0yMDM0NTY",
      courtlistener_token: goodToken
    })
    expect(opinions.body.results[0]).toMatchObject({
      court: "cadc",
      docket_id: 68500001,
      snippet: "The Export Administration Regulations authorize the Bureau to add an entity to the Entity List ..."
    })
    expect(opinions.body.next_cursor).toBeNull()
    expect(new URL(upstream.requests.at(-1)!.url, upstream.url).searchParams.get("cursor")).toBe(
      "cz0xOS4yNjcmcz0yMDM0NTY"
    )
  })

  it("finds a case by docket number and lists its documents with PDF links", async () => {
    const [client] = clients
    const found = await client!.call("find_court_case", {
      docket_number: "1:99-cr-00045",
      court: "dcd",
      courtlistener_token: goodToken
    })
    expect(found.body.cases).toEqual([{
      docket_id: 68412345,
      case_name: "United States v. Orion Vantage Trading Co. (Synthetic Test Case)",
      court: "dcd",
      docket_number: "1:99-cr-00045",
      date_filed: "2099-02-14",
      date_terminated: null,
      url: `${upstream.url}/docket/68412345/united-states-v-orion-vantage-trading-co/`
    }])
    const sent = new URL(upstream.requests.at(-1)!.url, upstream.url).searchParams
    expect(sent.get("docket_number")).toBe("1:99-cr-00045")
    expect(sent.get("court")).toBe("dcd")

    const documents = await client!.call("get_court_case_documents", {
      docket_id: 68412345,
      courtlistener_token: goodToken
    })
    expect(documents.body.next_cursor).toBe("cD0xMA==")
    expect(documents.body.entries.map((entry: any) => entry.entry_number)).toEqual([12, 1])
    expect(documents.body.entries[0].documents[0]).toEqual({
      id: 900401,
      document_number: "12",
      attachment_number: null,
      description: "Plea Agreement",
      available: true,
      page_count: 14,
      url: "https://storage.courtlistener.com/recap/gov.uscourts.dcd.999999/gov.uscourts.dcd.999999.12.0.pdf"
    })
    expect(documents.body.entries[1].documents[0]).toMatchObject({
      available: false,
      url: `${upstream.url}/docket/68412345/1/united-states-v-orion-vantage-trading-co/`
    })
    const entriesSent = new URL(upstream.requests.at(-1)!.url, upstream.url).searchParams
    expect(entriesSent.get("docket")).toBe("68412345")
  })

  it("takes the token from the X-CourtListener-Token header", async () => {
    const client = new ModernClient({ name: "header", version: "1" }, {
      versionNegotiation: { mode: { pin: "2026-07-28" } }
    })
    await client.connect(
      new ModernTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${bearers.apiKey}`, "x-courtlistener-token": goodToken } }
      })
    )
    try {
      const result: any = await client.callTool({
        name: "find_court_case",
        arguments: { docket_number: "1", court: "dcd" }
      })
      expect(result.isError).toBeFalsy()
      expect(JSON.parse(result.content[0].text).count).toBe(1)
    } finally {
      await client.close()
    }
  })

  it("without a token answers an error that says how to get one, and calls nobody", async () => {
    const before = upstream.requests.length
    for (const client of clients) {
      const result = await client.call("search_court_records", { query: "anything" })
      expect(result.isError).toBe(true)
      expect(result.body).toMatch(/CourtListener API token is required/)
      expect(result.body).toContain("https://www.courtlistener.com/profile/api/")
    }
    expect(upstream.requests.length).toBe(before)
  })

  it("reports a refused token (401) without retrying, and never logs the token or the query", async () => {
    const before = upstream.requests.length
    const result = await clients[0]!.call("search_court_records", {
      query: "Secret Counterparty Name",
      courtlistener_token: badToken
    })
    expect(result.isError).toBe(true)
    expect(result.body).toMatch(/CourtListener refused the token \(HTTP 401\)/)
    expect(upstream.requests.length).toBe(before + 1)
    // the failure is logged beside the answer, not before it: wait for the line, then read everything logged
    await vi.waitFor(() => expect(lines.join("\n")).toContain("court records upstream failed"), { timeout: 10_000 })
    const logged = lines.join("\n")
    expect(logged).not.toContain(badToken)
    expect(logged).not.toContain(goodToken)
    expect(logged).not.toContain("Secret Counterparty Name")
    expect(logged).not.toContain("Orion Vantage")
  })

  it("reports CourtListener down as unavailable after bounded retries", async () => {
    upstream.down = 503
    try {
      const before = upstream.requests.length
      const result = await clients[0]!.call("find_court_case", {
        docket_number: "1:99-cr-00045",
        court: "dcd",
        courtlistener_token: goodToken
      })
      expect(result.isError).toBe(true)
      expect(result.body).toMatch(/CourtListener answered HTTP 503; try again later/)
      expect(upstream.requests.length - before).toBe(3)
    } finally {
      upstream.down = undefined
    }
  })
})

describe("CourtRecords service against a slow CourtListener", () => {
  it("gives up at its deadline with a timeout the caller can act on", async () => {
    const slow = await startFakeUpstream([() => ({ ...jsonReply(fixture("dockets.json")), delay: 5_000 })])
    try {
      const program = Effect.gen(function*() {
        const court = yield* CourtRecords.make({
          baseUrl: slow.url,
          timeout: "150 millis",
          deadline: "2 seconds",
          retries: 1
        })
        return yield* Effect.flip(
          court.findCase({ docket_number: "1:99-cr-00045", court: "dcd" }, Redacted.make(goodToken))
        )
      })
      const error = await Effect.runPromise(program.pipe(Effect.provide(FetchHttpClient.layer)))
      expect(error._tag).toBe("CourtRecordsUnavailable")
      expect(error.message).toBe("CourtListener did not answer in time; try again later.")
      expect(slow.requests).toHaveLength(2)
    } finally {
      await slow.close()
    }
  }, 30_000)
})
