import { afterAll, beforeAll, describe, expect, it, vi } from "@effect/vitest"
import { Option } from "effect"
import { readFileSync } from "node:fs"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import type { IncomingMessage } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as EnforcementFeed from "../src/services/EnforcementFeed.ts"
import { appWith } from "./support/AppWith.ts"
import { lettersHtml, lettersPath, type SourcesState } from "./support/EnforcementSources.ts"
import { storeWithImport } from "./support/EnforcementStore.ts"
import { type FakeReply, startFakeUpstream } from "./support/FakeUpstream.ts"
import { type RunningServer, startServer } from "./support/TestServer.ts"

const fixture = (name: string): FakeReply => ({
  status: 200,
  headers: { "content-type": "application/json; charset=utf-8" },
  body: readFileSync(new URL(`./fixtures/enforcement/${name}`, import.meta.url), "utf8")
})

type Source = "bis" | "ddtc" | "doj" | "letters"

const sourceOf = (url: URL): Source | undefined => {
  if (url.pathname === "/api/v1/press_releases.json") return "doj"
  if (url.pathname === lettersPath) return "letters"
  if (url.pathname !== "/api/v1/documents.json") return undefined
  const agency = url.searchParams.get("conditions[agencies][]")
  return agency === "industry-and-security-bureau" ? "bis" : agency === "state-department" ? "ddtc" : undefined
}

const normal: Record<Source, FakeReply> = {
  bis: fixture("federal-register-bis-notices.json"),
  ddtc: fixture("federal-register-ddtc-notices.json"),
  doj: fixture("doj-press-releases.json"),
  letters: {
    status: 200,
    headers: { "content-type": "text/html; charset=utf-8" },
    body: lettersHtml(
      {
        cases: [],
        letters: [{ media: 4101, respondent: "Synthetic Lantern Optics Ltd. (Test Fixture)", date: "2098-12-01" }],
        agreements: [],
        releases: [],
        files: new Map(),
        perPage: 50,
        pageOverride: undefined,
        delay: 0
      } satisfies SourcesState,
      new URL(`http://x${lettersPath}`)
    )
  }
}

/** The archive holds one DDTC consent agreement (collected weekly in production); the feed reads it from there. */
const archiveDir = mkdtempSync(join(tmpdir(), "enforcement-feed-"))
writeFileSync(
  join(archiveDir, "metadata.json"),
  JSON.stringify([{
    id: "ddtc:5f1e2d3c4b5a69788796a5b4c3d2e1f0",
    agency: "DDTC",
    party: "Synthetic Quarry Avionics Inc. (Test Fixture)",
    title: "Synthetic Quarry Avionics Inc. Consent Agreement (2098)",
    date: "2098-11-20",
    source_url: "https://www.pmddtc.state.gov/ddtc_public/ddtc_public?id=ddtc_kb_article_page"
  }])
)
const archiveStore = storeWithImport(archiveDir)

/** One fake standing in for the Federal Register and justice.gov; `replies` overrides a source. */
const startUpstream = async () => {
  const replies: Partial<Record<Source, FakeReply>> = {}
  const upstream = await startFakeUpstream([
    (_request: IncomingMessage, url: URL) => {
      const source = sourceOf(url)
      return source === undefined ? undefined : replies[source] ?? normal[source]
    }
  ])
  return { upstream, replies }
}

const feedConfig = (url: string) => ({
  federalRegisterBaseUrl: url,
  dojBaseUrl: url,
  enforcementCollection: { contact: Option.none(), bisBaseUrl: url, ddtcBaseUrl: url, spacingMillis: 0 }
})

const ids = (body: { actions: ReadonlyArray<{ id: string }> }) => body.actions.map((action) => action.id)

describe("GET /api/enforcement", () => {
  let fake: Awaited<ReturnType<typeof startUpstream>>
  let server: RunningServer
  const lines: Array<string> = []
  beforeAll(async () => {
    vi.spyOn(console, "log").mockImplementation((text: unknown) => {
      lines.push(...String(text).split("\n"))
    })
    fake = await startUpstream()
    // every request looks again (a 1 ms cache), with short timeouts and no breaker, so each test sets its own upstream
    server = await startServer({
      config: { ...feedConfig(fake.upstream.url), logLevel: "info" },
      app: appWith(
        EnforcementFeed.layerWith({
          timeout: "400 millis",
          retries: 0,
          breaker: { failures: 1000, cooldownMillis: 1 }
        }, "1 millis"),
        archiveStore
      )
    })
  })
  afterAll(async () => {
    await server.close()
    await fake.upstream.close()
    vi.restoreAllMocks()
    rmSync(archiveDir, { recursive: true, force: true })
  })

  let request = 0
  const feed = async (query = "") => {
    // the sources' 1 ms cache counts whole milliseconds: a request within 2 ms of the previous
    // test's lookup would still be answered by it, whatever upstream this test set
    await new Promise((resolve) => setTimeout(resolve, 3))
    // a distinct Accept per request keeps the 30 s response microcache out of the way of changing upstreams
    const accept = `application/json, */*;q=0.${++request}`
    const response = await server.get(`/api/enforcement${query}`, { headers: { accept } })
    return { response, body: await response.json() as any }
  }

  it("merges BIS, DDTC and DOJ actions into one record shape, newest first", async () => {
    const { body, response } = await feed()
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600, stale-while-revalidate=86400")
    expect(ids(body)).toEqual([
      "doj:0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b",
      "fr:2099-02222",
      "fr:2099-02150",
      "fr:2099-02000",
      "fr:2099-01900",
      "doj:2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e",
      "fr:2099-01750",
      "bis-media:4101",
      "ddtc:5f1e2d3c4b5a69788796a5b4c3d2e1f0"
    ])
    expect(body.count).toBe(9)
    const byId = Object.fromEntries(body.actions.map((action: { id: string }) => [action.id, action]))
    expect(byId["fr:2099-02000"]).toEqual({
      id: "fr:2099-02000",
      agency: "BIS",
      action_type: "denial_order",
      party: "Synthetic Société Exportatrice SARL (Test Fixture)",
      title: "In the Matter of: Synthetic Société Exportatrice SARL (Test Fixture); Order Denying Export Privileges",
      date: "2099-04-02",
      statutes: ["Export Control Reform Act (ECRA)", "50 U.S.C. 4819", "15 CFR 766.25"],
      source_url:
        "https://www.federalregister.gov/documents/2099/04/02/2099-02000/in-the-matter-of-synthetic-societe-exportatrice",
      doc_url: "https://www.govinfo.gov/content/pkg/FR-2099-04-02/pdf/2099-02000.pdf"
    })
    expect(byId["fr:2099-02222"]).toMatchObject({ action_type: "temporary_denial", party: null, statutes: [] })
    expect(byId["fr:2099-01900"]).toMatchObject({
      action_type: "administrative_order",
      party: "Example Widgets Holding Ltd. (Test Fixture)",
      statutes: ["Export Administration Regulations (EAR)"],
      doc_url: null
    })
    expect(byId["fr:2099-02150"]).toMatchObject({
      agency: "DDTC",
      action_type: "statutory_debarment",
      party: null,
      statutes: ["International Traffic in Arms Regulations (ITAR)", "22 CFR 127.7"]
    })
    expect(byId["fr:2099-01750"]).toMatchObject({ action_type: "debarment_rescission", party: null })
    expect(byId["doj:0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b"]).toEqual({
      id: "doj:0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b",
      agency: "DOJ",
      action_type: "criminal",
      party: null,
      title: "Synthetic Defendant Sentenced for Illegally Exporting Example Widgets (Test Fixture)",
      date: "2099-05-10",
      statutes: ["Export Control Reform Act (ECRA)", "50 U.S.C. 4819"],
      source_url: "https://www.justice.gov/opa/pr/synthetic-defendant-sentenced-test-fixture",
      doc_url: null
    })
    expect(byId["doj:2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e"]).toMatchObject({
      action_type: "settlement",
      date: "2099-03-03",
      statutes: ["International Emergency Economic Powers Act (IEEPA)"],
      source_url: "https://www.justice.gov/opa/pr/example-components-agrees-to-pay-test-fixture"
    })
    expect(body.sources).toEqual([
      expect.objectContaining({
        id: "federal-register:bis",
        agency: "BIS",
        status: "ok",
        actions: 3,
        scanned: 5,
        coverage_from: "2099-03-01"
      }),
      expect.objectContaining({
        id: "federal-register:ddtc",
        agency: "DDTC",
        status: "ok",
        actions: 2,
        scanned: 2,
        coverage_from: "2099-02-27"
      }),
      expect.objectContaining({
        id: "doj:press-releases",
        agency: "DOJ",
        status: "ok",
        actions: 2,
        scanned: 4,
        coverage_from: "2099-02-17"
      }),
      expect.objectContaining({
        id: "bis:charging-letters",
        agency: "BIS",
        status: "ok",
        actions: 1,
        scanned: 1,
        coverage_from: "2098-12-01"
      }),
      expect.objectContaining({
        id: "archive:ddtc-consent-agreements",
        agency: "DDTC",
        status: "ok",
        actions: 1,
        scanned: 1,
        coverage_from: "2098-11-20"
      })
    ])
    expect(byId["bis-media:4101"]).toMatchObject({
      agency: "BIS",
      action_type: "charging_letter",
      party: "Synthetic Lantern Optics Ltd. (Test Fixture)",
      date: "2098-12-01",
      doc_url: expect.stringMatching(/\/media\/4101\/download/)
    })
    expect(byId["ddtc:5f1e2d3c4b5a69788796a5b4c3d2e1f0"]).toMatchObject({
      agency: "DDTC",
      action_type: "consent_agreement",
      party: "Synthetic Quarry Avionics Inc. (Test Fixture)",
      date: "2098-11-20"
    })
    for (const source of body.sources) expect(source.error).toBeUndefined()
  })

  it("asks each upstream the documented questions", async () => {
    await feed()
    const sent = fake.upstream.requests.slice(-3).map((r) => new URL(r.url, "http://x"))
    const bis = sent.find((url) => sourceOf(url) === "bis")!.searchParams
    expect(bis.getAll("conditions[type][]")).toEqual(["NOTICE"])
    expect(bis.get("order")).toBe("newest")
    const ddtc = sent.find((url) => sourceOf(url) === "ddtc")!.searchParams
    expect(ddtc.get("conditions[term]")).toBe("debarment")
    const doj = sent.find((url) => sourceOf(url) === "doj")!.searchParams
    expect(doj.get("parameters[title]")).toBe("export")
    expect(doj.get("sort")).toBe("date")
    expect(doj.get("direction")).toBe("DESC")
  })

  it.each([
    ["?agency=DDTC", ["fr:2099-02150", "fr:2099-01750", "ddtc:5f1e2d3c4b5a69788796a5b4c3d2e1f0"]],
    ["?action_type=charging_letter", ["bis-media:4101"]],
    ["?action_type=consent_agreement", ["ddtc:5f1e2d3c4b5a69788796a5b4c3d2e1f0"]],
    ["?action_type=settlement", ["doj:2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e"]],
    ["?party=societe%20EXPORTATRICE", ["fr:2099-02000"]],
    ["?party=widgets", ["doj:0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b", "fr:2099-01900"]],
    ["?party=example%20components", ["doj:2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e"]],
    ["?party=widge", []],
    ["?statute=ECRA", ["doj:0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b", "fr:2099-02000"]],
    ["?statute=15%20CFR%20766", ["fr:2099-02000"]],
    ["?statute=itar", ["fr:2099-02150"]],
    ["?since=2099-04-02", [
      "doj:0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b",
      "fr:2099-02222",
      "fr:2099-02150",
      "fr:2099-02000"
    ]],
    ["?limit=2", ["doj:0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b", "fr:2099-02222"]]
  ])("filters %s", async (query, expected) => {
    const { body } = await feed(query)
    expect(ids(body)).toEqual(expected)
    expect(body.count).toBe(expected.length)
  })

  it("consults only the sources of the agency asked for", async () => {
    const before = fake.upstream.hits.get("/api/v1/documents.json") ?? 0
    const { body } = await feed("?agency=DOJ")
    expect(body.sources.map((s: { id: string }) => s.id)).toEqual(["doj:press-releases"])
    expect(fake.upstream.hits.get("/api/v1/documents.json") ?? 0).toBe(before)
  })

  it.each([
    "?agency=OFAC",
    "?action_type=fine",
    "?since=2099-13-01",
    "?limit=0",
    "?limit=501",
    "?party=x",
    `?party=${"y".repeat(201)}`
  ])("rejects %s with a 400", async (query) => {
    const { response } = await feed(query)
    expect(response.status).toBe(400)
  })

  it("degrades per source: a failing source serves its last good answer marked stale, and says why", async () => {
    fake.replies.bis = { status: 503, body: "maintenance" }
    fake.replies.doj = { status: 200, headers: { "content-type": "text/html" }, body: "<html>Access denied</html>" }
    fake.replies.letters = { status: 503, body: "maintenance" }
    try {
      const { body, response } = await feed()
      expect(response.status).toBe(200)
      expect(response.headers.get("cache-control")).toBe("no-store")
      expect(body.count).toBe(9)
      const [bis, ddtc, doj, letters, agreements] = body.sources
      expect(bis).toMatchObject({
        status: "stale",
        actions: 3,
        fetched_at: expect.any(String),
        error: "The Federal Register API answered HTTP 503; retry later."
      })
      expect(ddtc).toMatchObject({ status: "ok" })
      expect(doj).toMatchObject({
        status: "stale",
        error: expect.stringMatching(/justice.gov News API answered in an unexpected format/)
      })
      // the charging letters keep their answer about 24 hours: the failing page is not even asked again
      expect(letters).toMatchObject({ status: "ok", actions: 1 })
      expect(letters.error).toBeUndefined()
      expect(fake.upstream.hits.get(lettersPath)).toBe(1)
      expect(agreements).toMatchObject({ status: "ok", actions: 1 })
    } finally {
      delete fake.replies.bis
      delete fake.replies.doj
      delete fake.replies.letters
    }
  })

  it("reads a zero-hit Federal Register answer (no results key) as no actions, not an error", async () => {
    fake.replies.ddtc = fixture("../research/federal-register-zero-hits.json")
    try {
      const { body } = await feed("?agency=DDTC")
      expect(ids(body)).toEqual(["ddtc:5f1e2d3c4b5a69788796a5b4c3d2e1f0"])
      expect(body.sources[0]).toMatchObject({ status: "ok", actions: 0, scanned: 0, coverage_from: null })
    } finally {
      delete fake.replies.ddtc
    }
  })

  it("never logs party names, and logs failing sources by id only", async () => {
    fake.replies.ddtc = { status: 200, body: "{}", delay: 2000 }
    try {
      const { body } = await feed("?party=Secretparty%20Zyxwv%20Holdings&agency=DDTC")
      expect(body.sources[0]).toMatchObject({ status: "stale", error: expect.stringMatching(/did not answer in time/) })
      await new Promise((resolve) => setTimeout(resolve, 50))
      const log = lines.join("\n")
      expect(log).toContain("enforcement source failed")
      expect(log).toContain("federal-register:ddtc")
      expect(log).not.toMatch(/secretparty/i)
      expect(log).not.toMatch(/zyxwv/i)
    } finally {
      delete fake.replies.ddtc
    }
  })
})

describe("GET /api/enforcement with nothing good yet", () => {
  it("answers an empty feed with every source in error, never a 5xx", async () => {
    const server = await startServer({
      config: feedConfig("http://127.0.0.1:9")
    })
    try {
      const response = await server.get("/api/enforcement")
      const body = await response.json()
      expect(response.status).toBe(200)
      expect(body).toMatchObject({ actions: [], count: 0 })
      expect(body.sources.map((s: { status: string }) => s.status)).toEqual([
        "error",
        "error",
        "error",
        "error",
        "error"
      ])
      expect(body.sources[0].error).toMatch(/could not be reached/)
      expect(body.sources[3].error).toMatch(/could not be reached/)
      expect(body.sources[4].error).toMatch(/archive holds no DDTC consent agreements/)
    } finally {
      await server.close()
    }
  })
  it("fails the charging letters alone when their page changes shape, and keeps the other sources", async () => {
    const fake = await startUpstream()
    fake.replies.letters = {
      status: 200,
      headers: { "content-type": "text/html" },
      body: "<html><body>Page moved</body></html>"
    }
    const server = await startServer({ config: feedConfig(fake.upstream.url) })
    try {
      const response = await server.get("/api/enforcement?agency=BIS")
      const body = await response.json()
      expect(response.status).toBe(200)
      expect(body.sources.map((s: { id: string; status: string }) => `${s.id} ${s.status}`)).toEqual([
        "federal-register:bis ok",
        "bis:charging-letters error"
      ])
      expect(body.sources[1].error).toMatch(/\S/)
      expect(body.count).toBe(3)
    } finally {
      await server.close()
      await fake.upstream.close()
    }
  })
})

describe("GET /api/enforcement caching", () => {
  it("keeps each source's answer for hours: repeated and differently filtered requests reuse it", async () => {
    const fake = await startUpstream()
    const server = await startServer({ config: feedConfig(fake.upstream.url) })
    try {
      await server.get("/api/enforcement")
      await server.get("/api/enforcement?agency=BIS&limit=3")
      await server.get("/api/enforcement?party=widgets")
      expect(fake.upstream.hits.get("/api/v1/documents.json")).toBe(2)
      expect(fake.upstream.hits.get("/api/v1/press_releases.json")).toBe(1)
    } finally {
      await server.close()
      await fake.upstream.close()
    }
  })
})
