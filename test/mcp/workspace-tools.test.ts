import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { type FakeUpstream, startFakeUpstream } from "../support/FakeUpstream.ts"
import {
  connectBoth,
  connectModern,
  otherBearers,
  type ToolClient,
  workspaceAuth
} from "../support/mcp/WorkspaceClients.ts"
import { bearers } from "../support/Principals.ts"
import { startRegulatoryDataServer } from "../support/RegulatoryDataServer.ts"
import type { RunningServer } from "../support/TestServer.ts"

const radarFixture = readFileSync(new URL("../fixtures/radar/documents-newest.json", import.meta.url), "utf8")

const workspaceTools = [
  "sync_compliance_transaction",
  "list_compliance_transactions",
  "get_compliance_transaction",
  "upsert_product",
  "list_products",
  "get_product",
  "add_regulatory_note",
  "list_regulatory_notes",
  "delete_regulatory_note",
  "record_screening",
  "get_party_status",
  "list_screenings",
  "export_workspace"
]

const ok = async (client: ToolClient, name: string, args: unknown) => {
  const result = await client.call(name, args)
  expect(result.isError, `${name}: ${JSON.stringify(result.body)}`).toBe(false)
  return result.body
}

const failing = async (client: ToolClient, name: string, args: unknown): Promise<string> => {
  const result = await client.call(name, args)
  expect(result.isError, `${name} should fail`).toBe(true)
  return result.body as string
}

describe("MCP workspace tools", () => {
  let fake: FakeUpstream
  let server: RunningServer
  let clients: ReadonlyArray<ToolClient>
  let other: ToolClient
  let service: ToolClient
  beforeAll(async () => {
    fake = await startFakeUpstream([
      (_request, url) =>
        url.pathname === "/api/v1/documents.json"
          ? { headers: { "content-type": "application/json" }, body: radarFixture }
          : undefined
    ])
    server = await startRegulatoryDataServer({ auth: workspaceAuth, config: { federalRegisterBaseUrl: fake.url } })
    clients = await connectBoth(server)
    other = await connectModern(server, otherBearers.otherKey)
    service = await connectModern(server, otherBearers.service)
  }, 120_000)
  afterAll(async () => {
    for (const client of [...(clients ?? []), other, service]) await client?.close()
    await server?.close()
    await fake?.close()
  })

  it("discloses the workspace tools with input schemas to credentialed callers only", async () => {
    for (const client of clients) {
      const names = (await client.listTools()).map((tool) => tool.name)
      expect(names, client.era).toEqual(expect.arrayContaining(workspaceTools))
    }
    const anonymous = await connectModern(server, undefined)
    const inactive = await connectModern(server, bearers.inactive)
    try {
      for (const client of [anonymous, inactive]) {
        const names = (await client.listTools()).map((tool) => tool.name)
        expect(names.filter((name) => workspaceTools.includes(name))).toEqual([])
      }
      // an anonymous tools/call is refused at the transport (401 with the OAuth metadata)
      await expect(anonymous.call("list_compliance_transactions", {})).rejects.toThrow(/Unauthorized/)
      const refused = await inactive.call("list_compliance_transactions", {}).catch((error: Error) => error.message)
      expect(typeof refused === "string" ? refused : refused.body).toMatch(/no longer active/)
    } finally {
      await anonymous.close()
      await inactive.close()
    }
  })

  it("syncs a transaction: events replace their type, the status is derived, fields merge", async () => {
    for (const client of clients) {
      const reference = `PO-${client.era}`
      const first = await ok(client, "sync_compliance_transaction", {
        reference,
        date: "2026-03-02",
        destination: "DE",
        value: { amount: 125000, currency: "USD" },
        parties: [{ name: "Rheinmetall Test GmbH", role: "consignee", country: "DE" }],
        items: [{ description: "Thermal camera core", eccn: "6a003.b.4.b", jurisdiction: "EAR" }],
        events: [{ type: "classify", status: "complete", summary: "6A003.b.4.b per memo CM-1" }]
      })
      expect(first).toMatchObject({ reference, status: "pending", date: "2026-03-02" })
      expect(first.items[0].eccn).toBe("6A003.b.4.b")
      expect(first.open_steps).toEqual(["jurisdiction", "screen", "license", "export_docs", "red_flags"])

      const flagged = await ok(client, "sync_compliance_transaction", {
        reference,
        events: [{ type: "screen", status: "flagged", summary: "Possible match on the Entity List" }]
      })
      expect(flagged.status).toBe("flagged")
      expect(flagged.parties).toEqual(first.parties)
      expect(flagged.created_at).toBe(first.created_at)

      const steps = ["jurisdiction", "screen", "license", "export_docs", "red_flags"].map((type) => ({
        type,
        status: "complete",
        summary: `${type} done`,
        links: [{ url: "https://example.test/pdf/abc", label: "memo" }]
      }))
      const complete = await ok(client, "sync_compliance_transaction", { reference, events: steps })
      expect(complete.status).toBe("complete")
      expect(complete.open_steps).toEqual([])
      expect(complete.events.map((event: any) => event.type)).toEqual([
        "classify",
        "screen",
        "jurisdiction",
        "license",
        "export_docs",
        "red_flags"
      ])
      expect(complete.events.find((event: any) => event.type === "screen").summary).toBe("screen done")

      const fetched = await ok(client, "get_compliance_transaction", { reference })
      expect(fetched).toEqual(complete)
    }
  })

  it("rejects invalid arguments with the field and the rule, never the value", async () => {
    const [client] = clients
    const missing = await failing(client!, "sync_compliance_transaction", { date: "2026-01-01" })
    expect(missing).toMatch(/^Invalid arguments: .*`reference`/)
    const badEvent = await failing(client!, "sync_compliance_transaction", {
      reference: "PO-bad",
      events: [{ type: "ship", status: "complete", summary: "x" }]
    })
    expect(badEvent).toMatch(/events/)
    const badDate = await failing(client!, "list_compliance_transactions", { from: "2026-13-01" })
    expect(badDate).toMatch(/must be a date such as 2026-03-31/)
    const extra = await failing(client!, "get_product", { label: "x", workspace: "key:key_other" })
    expect(extra).toMatch(/^Invalid arguments/)
    const secretName = await failing(client!, "record_screening", {
      party: "Secret Party Name Ltd",
      decision: "cleared",
      analyst: "ana"
    })
    expect(secretName).not.toContain("Secret Party Name")
    const cursor = await failing(client!, "list_compliance_transactions", { cursor: "bm90LWEtY3Vyc29y" })
    expect(cursor).toMatch(/cursor: not one this list issued/)
    const unknown = await failing(client!, "get_compliance_transaction", { reference: "PO-none" })
    expect(unknown).toMatch(/No transaction with reference PO-none/)
  })

  it("pages over 250 transactions with opaque cursors, filtered by status and date", async () => {
    const client = service
    for (let index = 0; index < 250; index++) {
      const day = String((index % 28) + 1).padStart(2, "0")
      await ok(client, "sync_compliance_transaction", {
        reference: `SO-${String(index).padStart(3, "0")}`,
        date: `2026-0${(index % 3) + 1}-${day}`,
        events: index % 5 === 0 ? [{ type: "red_flags", status: "flagged", summary: "Unusual routing" }] : []
      })
    }
    const seen: Array<string> = []
    const dates: Array<string> = []
    let cursor: string | null = null
    let pages = 0
    do {
      const page: any = await ok(client, "list_compliance_transactions", {
        limit: 100,
        ...(cursor === null ? {} : { cursor })
      })
      expect(page.count).toBe(page.transactions.length)
      seen.push(...page.transactions.map((t: any) => t.reference))
      dates.push(...page.transactions.map((t: any) => t.date))
      cursor = page.next_cursor
      pages++
    } while (cursor !== null)
    expect(pages).toBe(3)
    expect(seen).toHaveLength(250)
    expect(new Set(seen).size).toBe(250)
    expect(dates).toEqual([...dates].sort().reverse())

    const flagged: any = await ok(client, "list_compliance_transactions", { status: "flagged", limit: 100 })
    expect(flagged.count).toBe(50)
    expect(flagged.next_cursor).toBeNull()
    expect(flagged.transactions.every((t: any) => t.status === "flagged")).toBe(true)

    const february: any = await ok(client, "list_compliance_transactions", {
      from: "2026-02-01",
      to: "2026-02-28",
      limit: 100
    })
    expect(february.count).toBe(83)
    expect(february.transactions.every((t: any) => t.date.startsWith("2026-02-"))).toBe(true)
  }, 300_000)

  it("keeps a products registry keyed by label, stale after a rule change naming its ECCN", async () => {
    for (const client of clients) {
      const label = `Thermal Core TC-${client.era}`
      const product = await ok(client, "upsert_product", {
        label,
        jurisdiction: "EAR",
        eccn: "3A090.a",
        rationale: "Meets the performance parameters of 3A090.a",
        memo_document: "CM-2026-014",
        classified_by: "A. Analyst",
        classified_on: "2026-08-01"
      })
      // the radar fixture has a rule naming 3A090 published 2026-08-20, after the classification
      expect(product.stale).toBe(true)
      expect(product.rule_changes_checked).toBe(true)
      expect(product.stale_reasons.join("\n")).toMatch(/rule change naming 3A090 published 2026-08-20.*91 FR 90001/)

      const today = new Date().toISOString().slice(0, 10)
      await ok(client, "upsert_product", {
        label: label.toUpperCase(),
        jurisdiction: "EAR",
        eccn: "3A090.a",
        classified_by: "A. Analyst"
      })
      const fresh = await ok(client, "get_product", { label: label.toLowerCase() })
      expect(fresh).toMatchObject({ label: label.toUpperCase(), classified_on: today, stale: false, stale_reasons: [] })

      const itar = await failing(client, "upsert_product", {
        label: "Gun sight",
        jurisdiction: "ITAR",
        classified_by: "x"
      })
      expect(itar).toMatch(/must name `usml_category` when jurisdiction is ITAR/)
    }
    const listed = await ok(clients[0]!, "list_products", { limit: 1 })
    expect(listed.count).toBe(1)
    expect(listed.next_cursor).not.toBeNull()
    const rest = await ok(clients[0]!, "list_products", { cursor: listed.next_cursor })
    expect(rest.products.map((p: any) => p.label)).not.toContain(listed.products[0].label)
  })

  it("pins regulatory notes and returns them beside get_eccn and get_country_chart_row", async () => {
    const [client] = clients
    const eccnNote = await ok(client!, "add_regulatory_note", {
      target: { eccn: "3A001.b" },
      text: "Our counsel reads b.2 narrowly; see memo CM-7",
      author: "legal"
    })
    expect(eccnNote.id).toMatch(/^note_/)
    const countryNote = await ok(client!, "add_regulatory_note", {
      target: { country: "CN" },
      text: "All CN shipments need a second review"
    })
    await ok(client!, "add_regulatory_note", { target: { cfr: "15 CFR 740.17(b)(2)" }, text: "ENC notes" })
    const bad = await failing(client!, "add_regulatory_note", { target: { cfr: "section 740" }, text: "x" })
    expect(bad).toMatch(/`target.cfr` must be a CFR citation/)
    const two = await failing(client!, "add_regulatory_note", { target: { eccn: "3A001", country: "CN" }, text: "x" })
    expect(two).toMatch(/`target` must name exactly one of/)

    const eccn = await client!.call("get_eccn", { eccn: "3A001" })
    expect(eccn.isError).toBe(false)
    expect(eccn.raw._meta["svc/workspace_notes"].map((note: any) => note.id)).toEqual([eccnNote.id])
    const chart = await client!.call("get_country_chart_row", { country: "China", eccn: "3A001" })
    expect(chart.raw._meta["svc/workspace_notes"].map((note: any) => note.id).sort()).toEqual(
      [eccnNote.id, countryNote.id].sort()
    )
    const unrelated = await client!.call("get_eccn", { eccn: "4A003" })
    expect(unrelated.raw._meta?.["svc/workspace_notes"]).toBeUndefined()

    const byTarget = await ok(client!, "list_regulatory_notes", { target: { country: "CN" } })
    expect(byTarget.notes.map((note: any) => note.id)).toEqual([countryNote.id])
    const all = await ok(client!, "list_regulatory_notes", {})
    expect(all.count).toBe(3)
    expect(await ok(client!, "delete_regulatory_note", { id: countryNote.id })).toEqual({
      id: countryNote.id,
      deleted: true
    })
    expect(await failing(client!, "delete_regulatory_note", { id: countryNote.id })).toMatch(/No note/)
    expect((await ok(client!, "list_regulatory_notes", {})).count).toBe(2)
  })

  it("records screenings and answers a party's status, history and re-screen due", async () => {
    const [client] = clients
    const first = await ok(client!, "record_screening", {
      party: "Orion Vantage Trading Co., Ltd.",
      country: "HK",
      decision: "escalated",
      analyst: "B. Analyst",
      hits: [{ id: "csl:EL:12345", score: 91 }],
      ownership: { checked: true, aggregate_listed_percent: 0 },
      affiliates_rule: { disposition: "no_listed_owner" }
    })
    expect(first.id).toMatch(/^scr_/)
    await ok(client!, "record_screening", {
      party: "orion vantage trading co ltd",
      decision: "false_positive",
      analyst: "C. Lead",
      rationale: "Different address and registration number"
    })
    const status = await ok(client!, "get_party_status", { party: "ORION VANTAGE TRADING CO. LTD" })
    expect(status.screened).toBe(true)
    expect(status.latest.decision).toBe("false_positive")
    expect(status.history.map((entry: any) => entry.decision)).toEqual(["false_positive", "escalated"])
    expect(status.history[1]).toMatchObject({ affiliates_rule: { disposition: "no_listed_owner" } })
    expect(status.rescreen_due).toBe(false)
    const never = await ok(client!, "get_party_status", { party: "Nobody Screened Inc" })
    expect(never).toMatchObject({ screened: false, rescreen_due: true, latest: null })

    const escalated = await ok(client!, "list_screenings", { decision: "escalated" })
    expect(escalated.screenings.map((entry: any) => entry.id)).toEqual([first.id])
  })

  it("isolates workspaces: no tool reads or writes another workspace's records", async () => {
    const [mine] = clients
    await ok(mine!, "sync_compliance_transaction", {
      reference: "ISO-1",
      events: [{ type: "classify", status: "complete", summary: "mine" }]
    })
    await ok(mine!, "upsert_product", { label: "Iso Widget", jurisdiction: "EAR", eccn: "EAR99", classified_by: "me" })
    const note = await ok(mine!, "add_regulatory_note", { target: { eccn: "5A002" }, text: "mine only" })
    await ok(mine!, "record_screening", { party: "Iso Party", decision: "clear", analyst: "me" })

    for (const stranger of [other, service]) {
      expect(await failing(stranger, "get_compliance_transaction", { reference: "ISO-1" })).toMatch(/No transaction/)
      const listed = await ok(stranger, "list_compliance_transactions", { limit: 100 })
      expect(listed.transactions.map((t: any) => t.reference)).not.toContain("ISO-1")
      expect(await failing(stranger, "get_product", { label: "Iso Widget" })).toMatch(/No product/)
      expect((await ok(stranger, "list_products", {})).products.map((p: any) => p.label)).not.toContain("Iso Widget")
      expect((await ok(stranger, "list_regulatory_notes", {})).notes.map((n: any) => n.id)).not.toContain(note.id)
      expect(await failing(stranger, "delete_regulatory_note", { id: note.id })).toMatch(/No note/)
      expect((await ok(stranger, "get_party_status", { party: "Iso Party" })).screened).toBe(false)
      expect((await ok(stranger, "list_screenings", {})).screenings.map((s: any) => s.party)).not.toContain("Iso Party")
      const eccn = await stranger.call("get_eccn", { eccn: "5A002" })
      expect(eccn.raw._meta?.["svc/workspace_notes"]).toBeUndefined()
      // writes under the same keys create the stranger's own records
      const theirs = await ok(stranger, "sync_compliance_transaction", {
        reference: "ISO-1",
        events: [{ type: "classify", status: "flagged", summary: "theirs" }]
      })
      expect(theirs.events).toHaveLength(1)
      await ok(stranger, "upsert_product", {
        label: "ISO WIDGET",
        jurisdiction: "ITAR",
        usml_category: "XI(a)",
        classified_by: "x"
      })
      await ok(stranger, "add_regulatory_note", { target: { eccn: "5A002" }, text: "theirs" })
      await ok(stranger, "record_screening", { party: "Iso Party", decision: "match", analyst: "x" })
    }

    const still = await ok(mine!, "get_compliance_transaction", { reference: "ISO-1" })
    expect(still.events).toEqual([expect.objectContaining({ status: "complete", summary: "mine" })])
    expect((await ok(mine!, "get_product", { label: "iso widget" })).jurisdiction).toBe("EAR")
    const notes = await ok(mine!, "list_regulatory_notes", { target: { eccn: "5A002" } })
    expect(notes.notes.map((n: any) => n.text)).toEqual(["mine only"])
    const party = await ok(mine!, "get_party_status", { party: "Iso Party" })
    expect(party.history.map((s: any) => s.decision)).toEqual(["clear"])
  })

  it("exports the caller's workspace as JSON Lines, and only it", async () => {
    const [mine] = clients
    const exportOf = async (client: ToolClient) => {
      const result = await client.call("export_workspace", {})
      expect(result.isError).toBe(false)
      return (result.raw.content[0].text as string).split("\n").map((line) => JSON.parse(line))
    }
    const lines = await exportOf(mine!)
    expect(lines[0]).toMatchObject({ kind: "workspace", format: "ecds-workspace/1", workspace: "key:key_test" })
    const references = lines.filter((line) => line.kind === "transaction").map((line) => line.record.reference)
    expect(references).toContain("ISO-1")
    expect(lines[0].counts.transactions).toBe(references.length)
    expect(lines.filter((line) => line.kind === "note").map((line) => line.record.text)).toContain("mine only")

    const theirs = await exportOf(other)
    expect(theirs[0].workspace).toBe("key:key_other")
    expect(theirs.filter((line) => line.kind === "note").map((line) => line.record.text)).toEqual(["theirs"])
    const enclave = await exportOf(service)
    expect(enclave[0].workspace).toBe("svc:acme")
    expect(enclave[0].counts.transactions).toBe(251)
  })
})
