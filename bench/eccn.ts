import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseCcl } from "../src/services/ccl/CclParser.ts"
import { parseControlScope } from "../src/services/ccl/scope/ControlScope.ts"
import { parseXmlNow } from "../src/services/ecfr/Xml.ts"
import { ecfrRoutes } from "../test/support/EcfrFake.ts"
import { fixtureParts, writeSavedResponses } from "../test/support/EcfrFixtures.ts"
import { startFakeUpstream } from "../test/support/FakeUpstream.ts"
import { generatedCcl } from "./lib/generated-ccl.ts"
import { compare } from "./lib/load.ts"
import { startBareServer, startService } from "./lib/processes.ts"

const median = (values: Array<number>) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const timed = (run: () => unknown, times = 5) =>
  median(Array.from({ length: times }, () => {
    const start = performance.now()
    run()
    return performance.now() - start
  }))

/** Same bytes and headers as the service's answer, from a bare node:http server. */
const bareTwin = async (url: string, init?: RequestInit) => {
  const sample = await fetch(url, init)
  const body = new Uint8Array(await sample.arrayBuffer())
  const headers: Record<string, string> = {}
  sample.headers.forEach((value, name) => {
    if (!["date", "connection", "keep-alive", "transfer-encoding"].includes(name)) headers[name] = value
  })
  return { bare: await startBareServer(body, headers), bytes: body.byteLength }
}

/**
 * One-time CCL parse of a generated 2 MB part 774 (against the bare XML tree parse of the same
 * text) and of every control row's scope (against that CCL parse), then ECCN and Country Chart
 * lookups (an ECCN, and a paragraph answered row by row) over HTTP from a warm index at 32
 * connections against a bare node:http server answering the same bytes. The service runs as `npm start` does, its eCFR
 * mirror reading from a loopback fake of the eCFR API. `cached` goes through the response microcache;
 * `handler` sends a credential, which bypasses it and slices the index on every request.
 */
export const run = async () => {
  const { entries, xml } = generatedCcl()
  const ccl = parseCcl(parseXmlNow(xml))
  const rows = [...ccl.entries.values()].flatMap((entry) =>
    entry.licenseRequirements.controls.map((row) => [row.appliesTo, entry.eccn] as const)
  )
  const cclParseMs = timed(() => parseCcl(parseXmlNow(xml)))
  // every control row's scope read once (the Country Chart check keeps each row's scope per snapshot)
  const scopeParseMs = timed(() => rows.forEach(([text, eccn]) => parseControlScope(text, eccn)))
  const parse = {
    bytes: xml.length,
    entries,
    controlRows: rows.length,
    cclParseMs: Math.round(cclParseMs * 10) / 10,
    bareXmlTreeMs: Math.round(timed(() => parseXmlNow(xml)) * 10) / 10,
    scopeParseAllRowsMs: Math.round(scopeParseMs * 10) / 10,
    scopeParseVsCclParse: Math.round((scopeParseMs / cclParseMs) * 1000) / 1000
  }

  const ecfr = await startFakeUpstream([ecfrRoutes(writeSavedResponses(new Map([...fixtureParts(), [774, xml]])))])
  const service = await startService({
    RATE_LIMIT_PER_MINUTE: "0",
    ECFR_BASE_URL: ecfr.url,
    DATA_DIR: mkdtempSync(join(tmpdir(), "bench-data-"))
  })
  const credential = { headers: { authorization: "Bearer benchmark" } }
  const cases = {
    eccnTextCached: { path: "/api/eccn/3A001", options: {} },
    eccnParagraphJsonHandler: { path: "/api/eccn/5A002.a.1?format=json", options: credential },
    countryChartWithEccnHandler: { path: "/api/country-chart?country=China&eccn=3A001", options: credential },
    countryChartParagraphHandler: { path: "/api/country-chart?country=China&eccn=6A003.b.4.b", options: credential }
  }
  const results: Record<string, unknown> = {}
  try {
    const warmStart = performance.now()
    await (await fetch(`${service.url}/api/eccn/0A501`)).arrayBuffer()
    await (await fetch(`${service.url}/api/country-chart?country=UK`)).arrayBuffer()
    const firstRequestsMs = Math.round(performance.now() - warmStart)
    for (const [name, { options, path }] of Object.entries(cases)) {
      const { bare, bytes } = await bareTwin(`${service.url}${path}`, options)
      try {
        results[name] = {
          bytes,
          ...(await compare(
            { url: `${service.url}${path}`, options },
            { url: `${bare.url}/` },
            name === "eccnTextCached" ? 3 : 1
          ))
        }
      } finally {
        await bare.stop()
      }
    }
    return {
      description:
        "ECCN and Country Chart lookups over HTTP at 32 connections vs bare node:http serving the same bytes; " +
        "one-time parse of a generated CCL of the real size and of every control row's scope (vs the CCL parse)",
      goal: "p99 under 5 ms over HTTP from a warm index",
      parse,
      firstRequestsMs,
      ...results
    }
  } finally {
    await service.stop()
    await ecfr.close()
  }
}
