import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { json, startFakeUpstream } from "../test/support/FakeUpstream.ts"
import { compare } from "./lib/load.ts"
import { startService } from "./lib/processes.ts"

/**
 * MCP `check_party_enforcement` (five sources: three feed sources, the archive, the DPL) against a
 * plain `search_csl` of the same name on one server, same key: what the whole enforcement check
 * costs over one screening call. The feed comes from a loopback fake (500 BIS and 200 DDTC notices,
 * 50 DOJ releases with names only in their headlines), the list is a generated 5,000-entry bulk
 * file. Both calls answer from memory once the feed is cached, so this is the matching cost.
 */
const bearer = "svc_live_bench"
const query = "Orion Vantage Trading Co., Ltd."

const syllables = ["ka", "lo", "mi", "ra", "ten", "vo", "shi", "dar", "bel", "nor", "quin", "zu", "pe", "gra", "sol"]
const forms = ["Co., Ltd.", "LLC", "GmbH", "Trading Company", "Industries", "S.A.", "Holdings", ""]

/** A deterministic pseudo-random name: two or three invented words and a legal form. */
const nameOf = (n: number) => {
  let x = (n * 2654435761) >>> 0
  const next = () => {
    x = (x * 1103515245 + 12345) >>> 0
    return x
  }
  const word = () => {
    const text = Array.from({ length: 2 + (next() % 2) }, () => syllables[next() % syllables.length]).join("")
    return text.charAt(0).toUpperCase() + text.slice(1)
  }
  return [word(), word(), ...(next() % 2 === 0 ? [word()] : []), forms[next() % forms.length]].join(" ").trim()
}

const notice = (n: number, title: string) => ({
  document_number: `2099-${String(10000 + n)}`,
  title,
  abstract: null,
  publication_date: `2099-0${1 + (n % 9)}-1${n % 10}`,
  html_url: `https://www.federalregister.gov/documents/2099/01/01/2099-${10000 + n}/x`,
  pdf_url: null
})

const feed = () => {
  const bis = Array.from(
    { length: 500 },
    (_, n) =>
      notice(
        n,
        n % 5 === 4
          ? "Notice of Partially Closed Meeting"
          : `In the Matter of: ${nameOf(n)}; Order Denying Export Privileges`
      )
  )
  bis[7] = notice(7, `In the Matter of: ${query}; Order Denying Export Privileges`)
  const ddtc = Array.from({ length: 200 }, (_, n) => notice(1000 + n, `Civil Penalty Against ${nameOf(1000 + n)}`))
  const doj = Array.from({ length: 50 }, (_, n) => ({
    uuid: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    title: `${nameOf(2000 + n)} Executive Sentenced for Illegally Exporting Controlled Items`,
    url: `/opa/pr/release-${n}`,
    body: "<p>Violations of the Export Control Reform Act.</p>",
    date: String(4070000000 + n * 86400)
  }))
  return { bis, ddtc, doj }
}

const bulkList = () => {
  const sources = [
    "Denied Persons List (DPL) - Bureau of Industry and Security",
    "Entity List (EL) - Bureau of Industry and Security"
  ]
  const results = Array.from({ length: 5000 }, (_, n) => ({
    id: `bench-${n}`,
    source: sources[n % 10 === 0 ? 0 : 1],
    name: n === 0 ? query.toUpperCase() : nameOf(5000 + n).toUpperCase(),
    alt_names: n % 3 === 0 ? [nameOf(20000 + n)] : null,
    addresses: [{ address: null, city: null, state: null, postal_code: null, country: "CN" }]
  }))
  return {
    results,
    search_performed_at: "2099-05-01T00:00:00+00:00",
    sources_used: sources.map((source) => ({ source }))
  }
}

const mcpCall = (url: string, name: string, args: unknown) => ({
  url: `${url}/mcp`,
  options: {
    method: "POST" as const,
    headers: {
      authorization: `Bearer ${bearer}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": name
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name,
        arguments: args,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {}
        }
      }
    })
  }
})

const answer = async (call: ReturnType<typeof mcpCall>) => {
  const body = await (await fetch(call.url, call.options)).json() as any
  if (body.result?.isError !== undefined || body.result?.structuredContent === undefined) {
    throw new Error(`tools/call failed: ${JSON.stringify(body).slice(0, 300)}`)
  }
  return body.result.structuredContent
}

export const run = async () => {
  const { bis, ddtc, doj } = feed()
  const upstream = await startFakeUpstream([(_request, url) => {
    if (url.pathname === "/api/v1/press_releases.json") return json({ results: doj })
    if (url.pathname !== "/api/v1/documents.json") return undefined
    const isBis = url.searchParams.get("conditions[agencies][]") === "industry-and-security-bureau"
    return json({ results: isBis ? bis : ddtc })
  }])
  const work = mkdtempSync(join(tmpdir(), "bench-party-"))
  const listFile = join(work, "consolidated.json")
  writeFileSync(listFile, JSON.stringify(bulkList()))
  const service = await startService(
    {
      RATE_LIMIT_PER_MINUTE: "0",
      LOG_LEVEL: "warn",
      BENCH_BEARER: bearer,
      FEDERAL_REGISTER_BASE_URL: upstream.url,
      DOJ_BASE_URL: upstream.url,
      CSL_FILE: listFile,
      DATA_DIR: join(work, "data")
    },
    "bench/lib/mcp-server.ts"
  )
  try {
    const check = mcpCall(service.url, "check_party_enforcement", { name: query })
    const screen = mcpCall(service.url, "search_csl", { name: query })
    for (let attempt = 0;; attempt++) {
      const body = await (await fetch(screen.url, screen.options)).json() as any
      if (body.result?.isError === undefined) break
      if (attempt === 100) throw new Error("the generated list did not load")
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const checked = await answer(check)
    if (checked.result !== "possible_match" || checked.groups.some((g: any) => g.status === "error")) {
      throw new Error(`unexpected check: ${checked.summary}`)
    }
    const result = await compare(check, screen)
    const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000
    return {
      description: "tools/call check_party_enforcement vs tools/call search_csl (same name, same key) on one " +
        "server: 400 BIS, 200 DDTC and 50 DOJ feed records, an empty archive, a 5,000-entry list; 32 connections, " +
        "alternating rounds",
      summary: checked.summary,
      recordsChecked: Object.fromEntries(checked.groups.map((g: any) => [g.source, g.records_checked])),
      check: result.candidate,
      searchCsl: result.baseline,
      throughputRatio: result.throughputRatio,
      p50Ratio: ratio(result.candidate.p50Ms, result.baseline.p50Ms),
      p99Ratio: ratio(result.candidate.p99Ms, result.baseline.p99Ms)
    }
  } finally {
    await service.stop()
    await upstream.close()
  }
}
