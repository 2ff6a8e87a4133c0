import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { DefaultResultChars } from "../../src/mcp/Budget.ts"
import { bigCclRoutes, longBody } from "../support/BudgetFixtures.ts"
import { federalRegisterRoutes } from "../support/BudgetFixtures.ts"
import { ecfrRoutes, tempDataDir } from "../support/EcfrFake.ts"
import { type FakeUpstream, startFakeUpstream } from "../support/FakeUpstream.ts"
import { callTool, modernPost, productionApp } from "../support/mcp/McpTestApp.ts"
import { bearers } from "../support/Principals.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

/** What an agent reads of a result: the characters of its text content. */
const charsOf = (result: { content: Array<{ text?: string }> }) =>
  result.content.reduce((sum, part) => sum + (part.text?.length ?? 0), 0)

/**
 * Arguments that ask each listed tool for as much as it will give over the large fixtures. A tool
 * added to the catalogue without a line here fails the sweep: its budget has to be considered.
 */
const largest: Record<string, Record<string, unknown>> = {
  list_skills: {},
  get_skill: { name: "svc-classify" },
  get_skill_bundle: { name: "svc-classify" },
  get_ecfr_part: { part: 774 },
  get_ecfr_sections: { part: 740 },
  search_ecfr_part: { part: 774, query: "radiation", per_page: 20 },
  search_ecfr_title: { query: "lantern", per_page: 20 },
  get_ecfr_text: { part: 740, section: "740.1" },
  get_ecfr_versions: { part: 740 },
  get_ecfr_meta: {},
  get_eccn: { eccn: "3A001" },
  get_country_chart_row: { country: "China", eccn: "3A001" },
  get_rule_changes: {},
  get_regulatory_status: {},
  search_csl: { names: ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"], size: 50 },
  get_enforcement_actions: { limit: 500 },
  search_enforcement_documents: { limit: 100 },
  get_enforcement_document: { id: "bis-case:E0001", include_text: true },
  search_federal_register: { query: "export", limit: 100 },
  get_federal_register_document: { document_number: "2025-12361" },
  search_sec_edgar: { query: "export", limit: 100 },
  search_ecfr: { query: "export", limit: 100 },
  search_govinfo: { query: "export", limit: 100 },
  search_regulations: { query: "export", limit: 100 },
  check_party_enforcement: { name: "Synthetic defendant 1", limit: 25 },
  get_pdf_contract: { document: "classification" },
  create_pdf: { document: "tcp", payload: {}, draft: true },
  sync_compliance_transaction: { reference: "T-1" },
  list_compliance_transactions: {},
  get_compliance_transaction: { reference: "T-1" },
  upsert_product: { label: "P-1", jurisdiction: "EAR", classified_by: "analyst" },
  list_products: {},
  get_product: { label: "P-1" },
  add_regulatory_note: { target: { eccn: "3A001" }, text: "note" },
  list_regulatory_notes: {},
  delete_regulatory_note: { id: "00000000-0000-4000-8000-000000000000" },
  record_screening: { party: "Example GmbH", decision: "clear", analyst: "analyst" },
  get_party_status: { party: "Example GmbH" },
  list_screenings: {},
  export_workspace: {},
  search_court_records: { query: "export" },
  find_court_case: { docket_number: "1:25-cr-00001", court: "dcd" },
  get_court_case_documents: { docket_id: 1 }
}

describe("MCP result budgets, Federal Register citations and CCL search hits", () => {
  let fake: FakeUpstream
  let server: RunningServer
  beforeAll(async () => {
    let base = ""
    fake = await startFakeUpstream([bigCclRoutes(), federalRegisterRoutes(() => base), ecfrRoutes()])
    base = fake.url
    server = await startServer({
      app: productionApp(),
      config: {
        ecfrBaseUrl: fake.url,
        federalRegisterBaseUrl: fake.url,
        dojBaseUrl: fake.url,
        dataDir: tempDataDir(),
        rateLimitPerMinute: 0
      }
    })
  }, 120_000)
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  const rest = async (path: string) => (await server.get(path, { headers: { accept: "application/json" } })).json()
  const call = async (name: string, args: Record<string, unknown>) => (await callTool(server, name, args)).result

  /** Follows `next_offset` from the first call to the end, checking each page's size. */
  const pages = async (name: string, args: Record<string, unknown>) => {
    const all: Array<any> = []
    let offset: number | undefined
    do {
      const result = await call(name, offset === undefined ? args : { ...args, offset })
      expect(result.isError, `${name} ${result.content[0].text.slice(0, 200)}`).toBeUndefined()
      expect(charsOf(result), name).toBeLessThanOrEqual(DefaultResultChars)
      all.push(result.structuredContent)
      offset = result.structuredContent.next_offset ?? undefined
      if (offset !== undefined) expect(result.structuredContent.rest).toContain(`"offset":${offset}`)
    } while (offset !== undefined && all.length < 40)
    return all
  }

  it("keeps every listed tool's largest answer within 20,000 characters", async () => {
    const { result } = await (await modernPost(server, "tools/list", {}, {
      authorization: `Bearer ${bearers.apiKey}`
    })).json()
    const names: Array<string> = result.tools.map((tool: { name: string }) => tool.name)
    expect(names.filter((name) => largest[name] === undefined), "tools without a budget case").toEqual([])
    const sizes: Record<string, number> = {}
    for (const name of names) {
      const answer = await call(name, largest[name]!)
      sizes[name] = charsOf(answer)
    }
    const over = Object.entries(sizes).filter(([, size]) => size > DefaultResultChars)
    expect(over).toEqual([])
  })

  it("get_skill_bundle pages a bundle larger than the budget by whole files, and the pages add up to it", async () => {
    const whole = await rest("/skills/svc-classify/bundle")
    expect(JSON.stringify(whole).length).toBeGreaterThan(DefaultResultChars)
    const all = await pages("get_skill_bundle", { name: "svc-classify" })
    expect(all.length).toBeGreaterThan(1)
    expect(all[0].rest).toMatch(
      /^Files 1-\d+ of \d+ shown; not yet: .+ Rest: get_skill_bundle \{"name":"svc-classify","offset":\d+\}$/
    )
    const merged = all.reduce((bundle, page) => ({
      ...bundle,
      ...(page.skill_md === undefined ? {} : { skill_md: page.skill_md }),
      templates: { ...bundle.templates, ...page.templates },
      references: { ...bundle.references, ...page.references },
      prompts: { ...bundle.prompts, ...page.prompts }
    }), { name: whole.name, description: whole.description, upstream: whole.upstream })
    expect(merged).toEqual(whole)
  })

  it("get_eccn cuts a huge entry, names the next page and the paragraphs not shown, and the pages add up", async () => {
    const whole = await rest("/api/eccn/3A001")
    expect(JSON.stringify(whole).length).toBeGreaterThan(3 * DefaultResultChars)
    const all = await pages("get_eccn", { eccn: "3A001" })
    expect(all[0].rest).toMatch(
      /Rest: get_eccn \{"eccn":"3A001","offset":\d+\}; or one paragraph at a time \(3A001\.y\.\d+/
    )
    const items = all.flatMap((page) => page.entry.listOfItemsControlled.items)
    expect(items).toEqual(whole.entry.listOfItemsControlled.items)
    expect(all.at(-1).rest).toMatch(/the last page/)
    // a paragraph named in the cut answer is read by itself
    const named = /get_eccn \{"eccn":"(3A001\.y\.\d+)"\}/.exec(all[0].rest)![1]!
    const paragraph = await call("get_eccn", { eccn: named })
    expect(paragraph.structuredContent.entry.listOfItemsControlled.items[0].paragraph).toBe(named.slice(6))
  })

  it("get_enforcement_actions and get_rule_changes page long feeds without repeating or skipping", async () => {
    const feed = await rest("/api/enforcement?limit=500")
    expect(JSON.stringify(feed).length).toBeGreaterThan(3 * DefaultResultChars)
    const actions = (await pages("get_enforcement_actions", { limit: 500 })).flatMap((page) => page.actions)
    expect(actions).toEqual(feed.actions)
    const radar = await rest("/api/radar")
    expect(JSON.stringify(radar).length).toBeGreaterThan(DefaultResultChars)
    const documents = (await pages("get_rule_changes", {})).flatMap((page) => page.results)
    expect(documents).toEqual(radar.results)
  })

  it("get_federal_register_document pages a long body; the pages add up to the whole text", async () => {
    const all = await pages("get_federal_register_document", { document_number: "2025-12361" })
    expect(all.length).toBeGreaterThan(5)
    expect(all.map((page) => page.document.body).join("")).toBe(longBody)
    expect(all[0].rest).toMatch(/Rest: get_federal_register_document \{"document_number":"2025-12361","offset":\d+\}/)
  })

  it("search answers keep what fits and say how many hits were left out", async () => {
    const search = await call("search_federal_register", { query: "export", limit: 100 })
    expect(charsOf(search)).toBeLessThanOrEqual(DefaultResultChars)
    expect(search.structuredContent.results.length).toBeLessThan(100)
    expect(search.structuredContent.count).toBe(search.structuredContent.results.length)
    expect(search.structuredContent.rest).toMatch(/^Hits 1-\d+ of the \d+ found are shown .* smaller `limit`/)
  })

  it("resolves a volume-and-page citation to the document holding the page, and FR Doc numbers directly", async () => {
    for (const citation of ["90 FR 47201", "90 FR 47250", "FR Doc. 2025-12361", "FR Doc 2025-12361"]) {
      const { structuredContent, isError } = await call("get_federal_register_document", { citation })
      expect(isError, citation).toBeUndefined()
      expect(structuredContent.document_number, citation).toBe("2025-12361")
      expect(structuredContent.document.cfr_references).toEqual([{ title: 15, part: 774 }, { title: 15, part: 744 }])
      expect(structuredContent.document.html_url).toMatch(/^https:\/\/www\.federalregister\.gov\//)
    }
    // the second document of the issue, and the page that starts the next weekday's issue
    const second = await call("get_federal_register_document", { citation: "90 FR 47301" })
    expect(second.structuredContent.document_number).toBe("2025-12362")
    // the issue probes are cached: asking again costs no upstream request
    const before = fake.hits.get("/api/v1/documents.json") ?? 0
    await call("get_federal_register_document", { citation: "90 FR 47201" })
    expect(fake.hits.get("/api/v1/documents.json") ?? 0).toBe(before)
  })

  it("says when no issue holds the page, when the text is no citation, and asks for one way to name it", async () => {
    // 2025-08-23 is a Saturday: no issue, so its pages are nowhere
    const gap = await call("get_federal_register_document", { citation: "90 FR 46801" })
    expect(gap.isError).toBe(true)
    expect(gap.content[0].text).toMatch(/No Federal Register issue of 2025 holds page 46801 \(90 FR 46801\)/)
    const junk = await call("get_federal_register_document", { citation: "page forty" })
    expect(junk.content[0].text).toMatch(/is not a Federal Register citation/)
    const both = await call("get_federal_register_document", { citation: "90 FR 47201", document_number: "2025-1" })
    expect(both.isError).toBe(true)
    expect(both.content[0].text).toMatch(/^Invalid arguments: .*give `document_number` or `citation`/)
    const upstreamDown = await (async () => {
      fake.down = 503
      try {
        return await call("get_federal_register_document", { citation: "91 FR 100" })
      } finally {
        fake.down = undefined
      }
    })()
    expect(upstreamDown.isError).toBeUndefined()
    expect(upstreamDown.structuredContent).toMatchObject({ document_number: "91 FR 100", document: null })
    expect(upstreamDown.structuredContent.error).toMatch(/Federal Register/)
  })

  it("gives each part 774 search hit the ECCN whose entry holds its excerpt", async () => {
    const { structuredContent } = await call("search_ecfr_part", { part: 774, query: "radiation" })
    expect(structuredContent.results).toHaveLength(1)
    expect(structuredContent.results[0]).toMatchObject({ part: 774, eccn: "3A001" })
    const other = await call("search_ecfr_part", { part: 740, query: "lantern" })
    expect(other.structuredContent.results.every((hit: { eccn?: string }) => hit.eccn === undefined)).toBe(true)
  })
})
