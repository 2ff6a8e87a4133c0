import { afterAll, beforeAll, describe, expect, it, vi } from "@effect/vitest"
import { Option } from "effect"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { lettersHtml, lettersPath, type SourcesState } from "../support/EnforcementSources.ts"
import { storeWithImport } from "../support/EnforcementStore.ts"
import { type FakeUpstream, startFakeUpstream } from "../support/FakeUpstream.ts"
import { callTool, modernPost, productionApp } from "../support/mcp/McpTestApp.ts"
import { bearers } from "../support/Principals.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

const fixturePath = (name: string) => new URL(`../fixtures/party-enforcement/${name}`, import.meta.url)
const fixture = (name: string) => readFileSync(fixturePath(name), "utf8")
const jsonReply = (body: string) => ({ headers: { "content-type": "application/json; charset=utf-8" }, body })

/** The BIS charging-letters page (bis.gov views table) as the fake serves it. */
const lettersPage = lettersHtml(
  {
    cases: [],
    letters: [
      { media: 7301, respondent: "Orion Vantage Trading Co., Ltd. (Synthetic Test Party)", date: "2099-01-20" },
      { media: 7302, respondent: "Tamarind Circuitworks LLC (Synthetic Test Party)", date: "2099-02-11" }
    ],
    agreements: [],
    releases: [],
    files: new Map(),
    perPage: 50,
    pageOverride: undefined,
    delay: 0
  } satisfies SourcesState,
  new URL(`http://x${lettersPath}`)
)

/**
 * The feed's upstreams: BIS and DDTC notices from the Federal Register API, DOJ releases, the BIS
 * charging-letters page; `doj: false` fails DOJ.
 */
const feedUpstream = (options: { readonly doj: boolean }) =>
  startFakeUpstream([(_request, url) => {
    if (url.pathname === lettersPath) {
      return { headers: { "content-type": "text/html; charset=utf-8" }, body: lettersPage }
    }
    if (url.pathname === "/api/v1/press_releases.json") {
      return options.doj ? jsonReply(fixture("doj-press-releases.json")) : { status: 503, body: "unavailable" }
    }
    if (url.pathname !== "/api/v1/documents.json") {
      return undefined
    }
    const bis = url.searchParams.get("conditions[agencies][]") === "industry-and-security-bureau"
    return jsonReply(fixture(bis ? "federal-register-bis.json" : "federal-register-ddtc.json"))
  }])

/** A DDTC consent agreement as the weekly collection stores it (id from the portal's sys_id). */
const consentAgreement = {
  id: "ddtc:8e7d6c5b4a3928170f1e2d3c4b5a6978",
  agency: "DDTC",
  party: "Orion Vantage Trading Co., Ltd. (Synthetic Test Party)",
  title: "Orion Vantage Trading Co., Ltd. Consent Agreement (2099)",
  date: "2099-02-25",
  source_url: "https://www.pmddtc.state.gov/ddtc_public/ddtc_public?id=ddtc_kb_article_page"
}

/** A directory holding the archive fixture and the consent agreement, ready for an import. */
const importArchive = (work: string) => {
  const dir = join(work, "import")
  mkdirSync(dir, { recursive: true })
  const records = JSON.parse(fixture("archive-metadata.json")) as Array<unknown>
  writeFileSync(join(dir, "metadata.json"), JSON.stringify([...records, consentAgreement]))
  return dir
}

const collectionConfig = (url: string) => ({
  enforcementCollection: { contact: Option.none(), bisBaseUrl: url, ddtcBaseUrl: url, spacingMillis: 0 }
})

const check = async (server: RunningServer, args: unknown, bearer: string = bearers.apiKey) => {
  const response = await modernPost(server, "tools/call", { name: "check_party_enforcement", arguments: args }, {
    authorization: `Bearer ${bearer}`
  })
  return (await response.json()).result
}

const groupOf = (result: any, source: string) => result.structuredContent.groups.find((g: any) => g.source === source)
const hitIds = (result: any, source: string): Array<string> =>
  groupOf(result, source).hits.map((hit: any) => hit.record_id)

const allSources = [
  "federal-register:bis",
  "federal-register:ddtc",
  "doj:press-releases",
  "bis:charging-letters",
  "archive:ddtc-consent-agreements",
  "enforcement-archive",
  "csl:dpl"
]

describe("MCP check_party_enforcement", () => {
  const work = mkdtempSync(join(tmpdir(), "party-enforcement-"))
  const lines: Array<string> = []
  let upstream: FakeUpstream
  let server: RunningServer
  beforeAll(async () => {
    vi.spyOn(console, "log").mockImplementation((text: unknown) => {
      lines.push(...String(text).split("\n"))
    })
    const dataDir = join(work, "data")
    const archive = importArchive(work)
    upstream = await feedUpstream({ doj: true })
    server = await startServer({
      app: productionApp(undefined, storeWithImport(archive)),
      config: {
        dataDir,
        logLevel: "debug",
        federalRegisterBaseUrl: upstream.url,
        dojBaseUrl: upstream.url,
        ...collectionConfig(upstream.url),
        cslFile: Option.some(fileURLToPath(fixturePath("consolidated.json")))
      }
    })
    // the list loads in the background: wait until screening answers
    for (let attempt = 0; (await server.get("/api/csl?name=probe")).status !== 200; attempt++) {
      if (attempt === 200) throw new Error("the fixture screening list did not load")
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })
  afterAll(async () => {
    await server?.close()
    await upstream?.close()
    vi.restoreAllMocks()
    rmSync(work, { recursive: true, force: true })
  })

  it("groups hits by source, with scores, the matched name and a citation, and a summary", async () => {
    const result = await check(server, { name: "Orion Vantage Trading Co., Ltd." })
    expect(result.isError, result.content[0].text).toBeUndefined()
    const body = result.structuredContent
    expect(body.groups.map((g: any) => g.source)).toEqual(allSources)
    expect(body.groups.map((g: any) => g.detail ?? g.status)).toEqual(allSources.map(() => "ok"))
    expect(body.result).toBe("possible_match")

    const bis = groupOf(result, "federal-register:bis")
    expect(bis.hits).toHaveLength(1)
    expect(bis.hits[0]).toMatchObject({
      record_id: "fr:2099-03101",
      score: 100,
      matched_in: "party",
      matched_name: "Orion Vantage Trading Co., Ltd. (Synthetic Test Party)",
      query_name: "Orion Vantage Trading Co., Ltd.",
      action_type: "denial_order",
      date: "2099-05-02",
      citation: "Federal Register document 2099-03101 (2099-05-02)",
      url: expect.stringContaining("federalregister.gov/documents/2099/05/02/2099-03101/")
    })
    expect(bis.records_checked).toBe(3)
    expect(bis.coverage_from).toBe("2099-03-10")

    const doj = groupOf(result, "doj:press-releases")
    expect(doj.hits).toHaveLength(1)
    expect(doj.hits[0]).toMatchObject({ matched_in: "title", matched_name: "Orion Vantage Trading" })
    expect(doj.hits[0].score).toBeGreaterThanOrEqual(85)
    expect(doj.hits[0].url).toBe("https://www.justice.gov/opa/pr/orion-vantage-trading-executive-sentenced-synthetic")

    expect(hitIds(result, "bis:charging-letters")).toEqual(["bis-media:7301"])
    expect(groupOf(result, "bis:charging-letters").hits[0]).toMatchObject({
      action_type: "charging_letter",
      date: "2099-01-20",
      url: `${upstream.url}${lettersPath}`
    })
    expect(groupOf(result, "bis:charging-letters").records_checked).toBe(2)
    expect(hitIds(result, "archive:ddtc-consent-agreements")).toEqual([consentAgreement.id])
    expect(groupOf(result, "archive:ddtc-consent-agreements").hits[0]).toMatchObject({
      action_type: "consent_agreement",
      date: "2099-02-25"
    })
    expect(hitIds(result, "enforcement-archive")).toEqual(["bis-case:E2099-0042", consentAgreement.id])
    expect(groupOf(result, "enforcement-archive").hits[0].citation).toContain("bis-case:E2099-0042")
    expect(groupOf(result, "csl:dpl").hits[0]).toMatchObject({
      record_id: "dpl-0001",
      matched_in: "list_name",
      matched_name: "ORION VANTAGE TRADING CO., LTD.",
      citation: "Denied Persons List, 99 FR 12345"
    })
    expect(groupOf(result, "federal-register:ddtc")).toMatchObject({ status: "ok", total_hits: 0, hits: [] })
    expect(body.summary).toBe(
      "1 possible match in BIS enforcement actions, 1 possible match in DOJ export prosecutions, " +
        "1 possible match in BIS charging letters, 1 possible match in DDTC consent agreements, " +
        "2 possible matches in the enforcement archive and 1 possible match in the Denied Persons List. " +
        "No match found in DDTC enforcement actions."
    )
    expect(body.disclaimer).toContain("not a clearance")
  })

  it("answers complete, every source checked, with hits from every source", async () => {
    const result = await check(server, {
      name: "Orion Vantage Trading Co., Ltd.",
      aliases: ["Meridian Aerostructures, Inc."]
    })
    const body = result.structuredContent
    expect(body.groups.map((g: any) => g.source)).toEqual(allSources)
    for (const group of body.groups) {
      expect(group.status, group.source).toBe("ok")
      expect(group.stale ?? false, group.source).toBe(false)
      expect(group.total_hits, group.source).toBeGreaterThan(0)
    }
    expect(body.result).toBe("possible_match")
    expect(body.summary).not.toMatch(/Not checked|No match found/)
    expect(hitIds(result, "federal-register:ddtc")).toEqual(["fr:2099-03200"])
    expect(hitIds(result, "bis:charging-letters")).toEqual(["bis-media:7301"])
    expect(hitIds(result, "archive:ddtc-consent-agreements")).toEqual([consentAgreement.id])
  })

  it("matches variants: word order, legal forms spelled out, punctuation, case, typos, transliteration", async () => {
    for (
      const name of [
        "Vantage Orion Trading Company Limited",
        "ORION-VANTAGE TRADING CO LTD",
        "orion vantage trading",
        "Orion Vantage Tradng Co."
      ]
    ) {
      const result = await check(server, { name })
      expect(hitIds(result, "federal-register:bis"), name).toEqual(["fr:2099-03101"])
      expect(hitIds(result, "enforcement-archive"), name).toEqual(["bis-case:E2099-0042", consentAgreement.id])
      expect(hitIds(result, "csl:dpl"), name).toEqual(["dpl-0001"])
    }
    const cyrillic = await check(server, { name: "Иван Петрович Соколов" })
    expect(hitIds(cyrillic, "federal-register:bis")).toEqual(["fr:2099-03020"])
    expect(hitIds(cyrillic, "csl:dpl")).toEqual(["dpl-0002"])
    const aka = await check(server, { name: "Kestrel Dynamik" })
    expect(groupOf(aka, "enforcement-archive").hits[0]).toMatchObject({
      record_id: "bis-case:E2099-0007",
      matched_in: "party",
      matched_name: "Kestrel Dynamics GmbH (a.k.a. Kestrel Dynamik)"
    })
  })

  it("finds a party named only in a title, and checks aliases, reporting which name matched", async () => {
    const result = await check(server, { name: "Blue Heron Holdings", aliases: ["Meridian Aerostructures, Inc."] })
    const ddtc = groupOf(result, "federal-register:ddtc")
    expect(ddtc.hits).toHaveLength(1)
    expect(ddtc.hits[0]).toMatchObject({
      record_id: "fr:2099-03200",
      matched_in: "title",
      query_name: "Meridian Aerostructures, Inc.",
      action_type: "civil_penalty"
    })
    // only the Denied Persons List is screened: the party's SDN entry is not reported here
    expect(groupOf(result, "csl:dpl").hits).toEqual([])
    expect(result.structuredContent.query.names).toEqual(["Blue Heron Holdings", "Meridian Aerostructures, Inc."])
  })

  it("does not match a clearly different name, and says so without claiming clearance", async () => {
    const result = await check(server, { name: "Northbridge Ceramics Cooperative" })
    const body = result.structuredContent
    expect(body.groups.every((g: any) => g.status === "ok" && g.total_hits === 0)).toBe(true)
    expect(body.result).toBe("no_match_found")
    expect(body.summary).toBe(
      "No match found in BIS enforcement actions, DDTC enforcement actions, DOJ export prosecutions, " +
        "BIS charging letters, DDTC consent agreements, the enforcement archive and the Denied Persons List."
    )
    expect(body.summary).not.toMatch(/clear/i)
  })

  it("narrows the Denied Persons List by country and honours min_score and limit", async () => {
    const elsewhere = await check(server, { name: "Orion Vantage Trading", country: "DE" })
    expect(groupOf(elsewhere, "csl:dpl").hits).toEqual([])
    const strict = await check(server, { name: "Orion Vantage Trade", limit: 1 })
    expect(strict.structuredContent.query).toMatchObject({ min_score: 85, limit: 1 })
    expect(hitIds(strict, "federal-register:bis")).toEqual([])
    const loose = await check(server, { name: "Orion Vantage Trade", min_score: 40 })
    expect(hitIds(loose, "federal-register:bis")).toEqual(["fr:2099-03101"])
    expect(groupOf(loose, "federal-register:bis").hits[0].score).toBeLessThan(85)
  })

  it("rejects bad input with a clear tool error that does not echo the name", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ name: "" }, /`name` must not be blank/],
      [{ name: "   " }, /`name` must not be blank/],
      [{ name: "Secretive Partyname ".repeat(30) }, /`name` must be at most 512 characters/],
      [{ name: "Secretive\u0000Partyname" }, /`name` must not contain control characters/],
      [{ name: "Secretive\nPartyname" }, /`name` must not contain control characters/],
      [{}, /`name` is required/],
      [{ name: 42 }, /`name` must be given once, as text/],
      [{ name: "Secretive Partyname", aliases: Array(6).fill("Other Partyname") }, /`aliases` must list at most 5/],
      [{ name: "Secretive Partyname", aliases: "Other Partyname" }, /`aliases` must be a list of names/],
      [{ name: "Secretive Partyname", aliases: [""] }, /`aliases\[0\]` must not be blank/],
      [{ name: "Secretive Partyname", limit: 100 }, /`limit` must be an integer from 1 to 25/],
      [{ name: "Secretive Partyname", country: "Germany" }, /`country` must be ISO 3166-1 alpha-2/],
      [{ name: "Secretive Partyname", extra: true }, /`extra` is not a known parameter/],
      [{ name: "--- ..." }, /name \(has no letters or digits to compare\)/]
    ]
    for (const [args, message] of cases) {
      const result = await check(server, args)
      expect(result.isError, JSON.stringify(args)).toBe(true)
      expect(result.content[0].text).toMatch(message)
      expect(result.content[0].text).not.toContain("Partyname")
    }
  })

  it("is disclosed to and callable by authenticated callers only", async () => {
    const anonymousList = await (await modernPost(server, "tools/list")).json()
    expect(anonymousList.result.tools.map((tool: any) => tool.name)).not.toContain("check_party_enforcement")
    const discovery = await (await server.get("/.well-known/mcp")).json()
    expect(JSON.stringify(discovery)).not.toContain("check_party_enforcement")
    const anonymousCall = await modernPost(server, "tools/call", {
      name: "check_party_enforcement",
      arguments: { name: "Orion Vantage Trading" }
    })
    expect(anonymousCall.status).toBe(401)

    const keyList = await (await modernPost(server, "tools/list", {}, { authorization: `Bearer ${bearers.apiKey}` }))
      .json()
    const listed = keyList.result.tools.find((tool: any) => tool.name === "check_party_enforcement")
    expect(listed).toMatchObject({ annotations: { readOnlyHint: true } })
    expect(listed.inputSchema.required).toEqual(["name"])
    const signedIn = await check(server, { name: "Orion Vantage Trading" }, bearers.oauth)
    expect(signedIn.structuredContent.result).toBe("possible_match")
  })

  it("never writes a party name to the logs", async () => {
    await callTool(server, "check_party_enforcement", { name: "Zebulon Quartermaine Exports" })
    await check(server, { name: "Zebulon\u0007Quartermaine" })
    await new Promise((resolve) => setTimeout(resolve, 100))
    const everything = lines.join("\n")
    expect(everything).toContain("\"msg\":\"request\"")
    for (const word of ["Zebulon", "Quartermaine", "Orion", "Иван", "Meridian", "Partyname"]) {
      expect(everything).not.toContain(word)
    }
  })
})

describe("MCP check_party_enforcement with sources missing", () => {
  const work = mkdtempSync(join(tmpdir(), "party-enforcement-down-"))
  let upstream: FakeUpstream
  let server: RunningServer
  beforeAll(async () => {
    upstream = await feedUpstream({ doj: false })
    // no archive imported, and the screening list's bulk URL is down
    server = await startServer({
      app: productionApp(),
      config: {
        dataDir: join(work, "data"),
        federalRegisterBaseUrl: upstream.url,
        dojBaseUrl: upstream.url,
        ...collectionConfig(upstream.url),
        cslBulkUrl: `${upstream.url}/csl/consolidated.json`
      }
    })
  })
  afterAll(async () => {
    await server?.close()
    await upstream?.close()
    rmSync(work, { recursive: true, force: true })
  })

  it("reports failed and unconfigured sources as not checked, and still answers the others", async () => {
    const result = await check(server, { name: "Orion Vantage Trading Co., Ltd." })
    expect(result.isError, result.content[0]?.text).toBeUndefined()
    const body = result.structuredContent
    expect(body.groups.map((g: any) => [g.source, g.status])).toEqual([
      ["federal-register:bis", "ok"],
      ["federal-register:ddtc", "ok"],
      ["doj:press-releases", "error"],
      ["bis:charging-letters", "ok"],
      ["archive:ddtc-consent-agreements", "error"],
      ["enforcement-archive", "not_configured"],
      ["csl:dpl", "error"]
    ])
    expect(groupOf(result, "doj:press-releases")).toMatchObject({ hits: [], total_hits: 0, records_checked: 0 })
    expect(groupOf(result, "doj:press-releases").detail).toMatch(/justice\.gov/)
    expect(groupOf(result, "csl:dpl").detail).toMatch(/not been loaded/)
    expect(hitIds(result, "federal-register:bis")).toEqual(["fr:2099-03101"])
    expect(body.result).toBe("possible_match")
    expect(body.summary).toBe(
      "1 possible match in BIS enforcement actions and 1 possible match in BIS charging letters. " +
        "No match found in DDTC enforcement actions. " +
        "Not checked: DOJ export prosecutions (source unavailable), DDTC consent agreements (source unavailable), " +
        "the enforcement archive (not configured) and the Denied Persons List (source unavailable)."
    )
  })

  it("answers `incomplete`, not a clear result, when nothing matched but sources were not checked", async () => {
    const result = await check(server, { name: "Northbridge Ceramics Cooperative" })
    const body = result.structuredContent
    expect(body.result).toBe("incomplete")
    expect(body.summary).toMatch(
      /^No match found in BIS enforcement actions, DDTC enforcement actions and BIS charging letters\. Not checked: /
    )
    expect(upstream.requests.some((request) => request.url.includes("Northbridge"))).toBe(false)
  })
})

describe("MCP check_party_enforcement over a screening list without the Denied Persons List", () => {
  const work = mkdtempSync(join(tmpdir(), "party-enforcement-nodpl-"))
  let server: RunningServer
  beforeAll(async () => {
    const list = JSON.parse(fixture("consolidated.json"))
    const withoutDpl = {
      ...list,
      results: list.results.filter((record: any) => !record.source.includes("(DPL)")),
      sources_used: list.sources_used.filter((source: any) => !source.source.includes("(DPL)"))
    }
    const listFile = join(work, "consolidated.json")
    writeFileSync(listFile, JSON.stringify(withoutDpl))
    server = await startServer({
      app: productionApp(),
      config: { dataDir: join(work, "data"), cslFile: Option.some(listFile) }
    })
    for (let attempt = 0; (await server.get("/api/csl?name=probe")).status !== 200; attempt++) {
      if (attempt === 200) throw new Error("the screening list did not load")
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })
  afterAll(async () => {
    await server?.close()
    rmSync(work, { recursive: true, force: true })
  })

  it("reports the Denied Persons List as not configured, not as clear", async () => {
    const result = await check(server, { name: "Ivan Petrovich Sokolov" })
    expect(groupOf(result, "csl:dpl")).toMatchObject({
      status: "not_configured",
      detail: "The screening list in use holds no Denied Persons List entries.",
      hits: []
    })
    expect(result.structuredContent.result).toBe("incomplete")
    expect(result.structuredContent.summary).toContain("the Denied Persons List (not configured)")
  })
})
