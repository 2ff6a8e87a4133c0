import { FetchHttpClient } from "@effect/platform"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as AppConfig from "../src/services/AppConfig.ts"
import * as DataGeneration from "../src/services/DataGeneration.ts"
import * as ArchiveRepo from "../src/services/enforcement/ArchiveRepo.ts"
import type { CollectionReport } from "../src/services/enforcement/Collect.ts"
import { parserVersion } from "../src/services/enforcement/ParsePipeline.ts"
import * as EnforcementCollection from "../src/services/EnforcementCollection.ts"
import * as EnforcementLake from "../src/services/EnforcementLake.ts"
import * as Checks from "../src/services/readiness/Checks.ts"
import { cliCommand } from "./support/CliEnv.ts"
import { sourcesRoute, type SourcesState } from "./support/EnforcementSources.ts"
import { type FakeUpstream, startFakeUpstream } from "./support/FakeUpstream.ts"
import { imageOnlyPdf, textPdf } from "./support/Pdf.ts"
import { testConfig } from "./support/TestServer.ts"
import { testStore } from "./support/TestStore.ts"

const contact = "Synthetic Compliance Team ops@example.test"

const sysId = (n: number) => `${String(n).padStart(4, "0")}abcdef0123456789abcdef012345`

const letterPdf = (respondent: string, extra = "") =>
  textPdf([{
    heading: "CHARGING LETTER",
    paragraphs: [
      `In the Matter of:\n${respondent}`,
      `The Bureau of Industry and Security charges that ${respondent} exported items classified under ECCN 3A001 ` +
      `without a license on March 4, 2098, in violation of the Export Control Reform Act. ${extra}`
    ]
  }])

const initialState = async (): Promise<SourcesState> => {
  const files = new Map<number, Uint8Array>()
  const cases = []
  for (let n = 1; n <= 25; n++) {
    const media = n === 3 ? null : 5000 + n
    if (media !== null) {
      files.set(
        media,
        n === 4
          ? new TextEncoder().encode("<html><body>Temporarily unavailable</body></html>")
          : await letterPdf(
            `Synthetic Case Respondent ${n} GmbH`,
            "The respondent shall pay a civil penalty of $250,000."
          )
      )
    }
    cases.push({
      caseNumber: `E${String(n).padStart(4, "0")}`,
      respondent: `Synthetic Case Respondent ${n} GmbH`,
      date: `2098-01-${String(n).padStart(2, "0")}`,
      media
    })
  }
  files.set(7001, await letterPdf("Imaginary Lens Traders LLC"))
  files.set(7002, await imageOnlyPdf())
  files.set(
    8001,
    await textPdf([{
      heading: "CONSENT AGREEMENT",
      paragraphs: [
        "Fictional Armaments Corp. agrees to pay a civil penalty of $1,000,000 under the Arms Export Control Act on June 1, 2097."
      ]
    }])
  )
  return {
    cases,
    letters: [
      { media: 7001, respondent: "Imaginary Lens Traders LLC", date: "2098-05-02" },
      { media: 7002, respondent: "Scanned Respondent Ltd.", date: "2098-05-01" }
    ],
    agreements: [
      { sysId: sysId(1), company: "Fictional Armaments Corp.", year: "2097", media: 8001 },
      { sysId: sysId(2), company: "Placeholder Avionics Inc.", year: "2096", media: null }
    ],
    releases: [
      {
        uuid: "11111111-2222-4333-8444-555555555555",
        title: "Synthetic Exporter Sentenced for Illegally Exporting Rifle Scopes to Embargoed Country",
        body: "<p>Synthetic Defendant Ivan Placeholder was sentenced for violating the International Emergency " +
          "Economic Powers Act by illegal exports of rifle scopes.</p>",
        date: 4_070_000_000
      },
      {
        uuid: "66666666-7777-4888-8999-aaaaaaaaaaaa",
        title: "Synthetic Tax Preparer Pleads Guilty to Export of Fraudulent Returns",
        body: "<p>A synthetic tax case with no connection to trade controls.</p>",
        date: 4_069_000_000
      }
    ],
    files,
    perPage: 10,
    pageOverride: undefined,
    delay: 0
  }
}

describe("enforcement collectors against local fakes", () => {
  let upstream: FakeUpstream
  let state: SourcesState
  let runtime: ManagedRuntime.ManagedRuntime<
    EnforcementCollection.EnforcementCollection | EnforcementLake.EnforcementLake,
    unknown
  >
  const collect = (...sources: Array<string>) =>
    runtime.runPromise(
      Effect.flatMap(EnforcementCollection.EnforcementCollection, (service) =>
        service.collect(sources.length === 0 ? {} : { sources }))
    )
  const repo = <A>(f: (repo: ArchiveRepo.ArchiveRepo) => Effect.Effect<A, unknown>) =>
    runtime.runPromise(Effect.flatMap(ArchiveRepo.make, f) as Effect.Effect<A, unknown, never>)
  const stats = () => runtime.runPromise(Effect.flatMap(EnforcementLake.EnforcementLake, (lake) => lake.stats))
  const bySource = (reports: ReadonlyArray<CollectionReport>) => new Map(reports.map((r) => [r.source, r]))
  const fileHits = () =>
    [...upstream.hits.entries()].filter(([path]) => /^\/media\/|sys_attachment/.test(path))
      .reduce((sum, [, n]) => sum + n, 0)

  beforeAll(async () => {
    state = await initialState()
    upstream = await startFakeUpstream([sourcesRoute(state)])
    const config = AppConfig.layerWith(testConfig({
      dojBaseUrl: upstream.url,
      enforcementCollection: {
        contact: Option.some(contact),
        bisBaseUrl: upstream.url,
        ddtcBaseUrl: upstream.url,
        spacingMillis: 0
      }
    }))
    const collection = EnforcementCollection.layerWith(
      Effect.flatMap(AppConfig.AppConfig, (c) =>
        EnforcementCollection.liveCollectors(c, contact, {
          timeout: "5 seconds",
          retries: 0,
          breaker: { failures: 1000, cooldownMillis: 1 }
        }))
    )
    runtime = ManagedRuntime.make(
      Layer.mergeAll(collection, EnforcementLake.layer).pipe(
        Layer.provideMerge(Layer.mergeAll(testStore, DataGeneration.layer, FetchHttpClient.layer)),
        Layer.provideMerge(config)
      )
    )
  }, 120_000)
  afterAll(async () => {
    await runtime?.dispose()
    await upstream?.close()
  })

  it("collects every source: metadata, files and parse statuses with reasons, politely", async () => {
    const reports = bySource(await collect())
    expect([...reports.keys()]).toEqual([
      "doj-press-releases",
      "bis-export-violations",
      "bis-charging-letters",
      "ddtc-consent-agreements"
    ])
    for (const report of reports.values()) {
      expect(report.error).toBeUndefined()
      expect(report).toMatchObject({ status: "ok", notModified: false })
    }
    expect(reports.get("bis-export-violations")).toMatchObject({
      listed: 25,
      added: 25,
      filesFetched: 24,
      byOutcome: { parsed: 23, failed: 1 }
    })
    expect(reports.get("bis-charging-letters")).toMatchObject({ listed: 2, byOutcome: { parsed: 1, no_text: 1 } })
    expect(reports.get("ddtc-consent-agreements")).toMatchObject({ listed: 2, byOutcome: { parsed: 1 } })
    // the tax case is examined and left out
    expect(reports.get("doj-press-releases")).toMatchObject({ listed: 1, filesFetched: 0 })

    const e0001 = await repo((r) => r.get("bis-case:E0001"))
    expect(e0001).toMatchObject({
      agency: "BIS",
      party: "Synthetic Case Respondent 1 GmbH",
      date: "2098-01-01",
      parseStatus: "parsed",
      parseAttempts: 1,
      parserVersion,
      originalDocUrl: `${upstream.url}/media/5001/download?inline`,
      fields: {
        statutes: ["Export Control Reform Act (ECRA)"],
        eccns: ["3A001"],
        penalties: ["$250,000"],
        dates: ["2098-03-04"]
      }
    })
    expect(await repo((r) => r.get("bis-case:E0004"))).toMatchObject({
      parseStatus: "failed",
      parseReason: "the file is not a PDF (no %PDF- header)",
      pdfSha256: null
    })
    expect(await repo((r) => r.get("bis-case:E0003"))).toMatchObject({ parseStatus: "no_pdf", pdfSha256: null })
    expect(await repo((r) => r.get("bis-media:7002"))).toMatchObject({ parseStatus: "no_text" })
    expect(await repo((r) => r.get(`ddtc:${sysId(1)}`))).toMatchObject({
      party: "Fictional Armaments Corp.",
      title: "Consent agreement: Fictional Armaments Corp. (2097)",
      parseStatus: "parsed"
    })
    expect(await repo((r) => r.get(`ddtc:${sysId(2)}`))).toMatchObject({ parseStatus: "no_pdf" })
    const doj = await repo((r) => r.get("doj:11111111-2222-4333-8444-555555555555"))
    expect(doj).toMatchObject({ parseStatus: "no_pdf", hasText: true, date: "2098-12-21" })
    expect(doj?.fields.statutes).toContain("International Emergency Economic Powers Act (IEEPA)")

    const agents = new Set(upstream.requests.map((request) => request.headers["user-agent"]))
    expect([...agents]).toEqual([`export-compliance-data-service enforcement collector (${contact})`])

    const coverage = await stats()
    expect(coverage.by_source?.find((s) => s.source === "bis-export-violations")).toMatchObject({
      documents: 25,
      by_parse_status: { parsed: 23, failed: 1, no_pdf: 1 },
      listed: 25,
      last_success_at: expect.stringMatching(/^\d{4}-/),
      last_error: null
    })
  })

  it("collects incrementally: unchanged listings answer 304 and no file is fetched again", async () => {
    const before = fileHits()
    const reports = bySource(await collect("bis-export-violations", "bis-charging-letters", "doj-press-releases"))
    expect(reports.get("bis-export-violations")).toMatchObject({ status: "ok", notModified: true, filesFetched: 0 })
    expect(reports.get("bis-charging-letters")).toMatchObject({ notModified: true, filesFetched: 0 })
    expect(reports.get("doj-press-releases")).toMatchObject({ notModified: true })
    expect(fileHits()).toBe(before)
    const conditional = upstream.requests.filter((request) => request.headers["if-none-match"] !== undefined)
    expect(conditional.length).toBeGreaterThanOrEqual(3)
  })

  it("fetches only new and changed documents, and marks removed ones without deleting them", async () => {
    state.cases.push({ caseNumber: "E0026", respondent: "Newly Listed Respondent SA", date: "2098-02-01", media: 5026 })
    state.files.set(5026, await letterPdf("Newly Listed Respondent SA"))
    state.cases[0] = { ...state.cases[0]!, respondent: "Synthetic Case Respondent 1 GmbH (renamed)", media: 5101 }
    state.files.set(5101, await letterPdf("Synthetic Case Respondent 1 GmbH (renamed)", "Amended letter."))
    state.cases.splice(state.cases.findIndex((c) => c.caseNumber === "E0010"), 1)
    const before = fileHits()
    const [report] = await collect("bis-export-violations")
    expect(report).toMatchObject({ status: "ok", added: 1, changed: 1, removed: 1, unchanged: 23, filesFetched: 2 })
    expect(fileHits() - before).toBe(2)
    expect(await repo((r) => r.get("bis-case:E0001"))).toMatchObject({
      party: "Synthetic Case Respondent 1 GmbH (renamed)",
      parseStatus: "parsed",
      originalDocUrl: `${upstream.url}/media/5101/download?inline`
    })
    expect(await repo((r) => r.get("bis-case:E0010"))).toMatchObject({
      parseStatus: "parsed",
      removedAt: expect.stringMatching(/^\d{4}-/)
    })
    const coverage = await stats()
    expect(coverage.by_source?.find((s) => s.source === "bis-export-violations")).toMatchObject({
      documents: 26,
      removed_upstream: 1
    })
  })

  it("fails loudly when an upstream is down, and keeps the archive", async () => {
    upstream.down = 503
    try {
      const reports = bySource(await collect())
      for (const report of reports.values()) {
        expect(report.status).toBe("failed")
        expect(report.error).toMatch(/answered 503/)
      }
    } finally {
      upstream.down = undefined
    }
    const coverage = await stats()
    const bis = coverage.by_source?.find((s) => s.source === "bis-export-violations")
    expect(bis).toMatchObject({ documents: 26, last_error: expect.stringMatching(/503/) })
    expect(bis?.last_success_at).not.toBeNull()
    const ready = await runtime.runPromise(Checks.enforcementArchive.check)
    expect(ready.status).toBe("degraded")
    expect(ready.summary).toMatch(
      /^enforcement collection failing for bis-charging-letters, bis-export-violations, ddtc-consent-agreements, doj-press-releases: /
    )
  })

  it("fails with a timeout when an upstream is slow", { timeout: 60_000 }, async () => {
    state.delay = 6_000
    try {
      const [report] = await collect("bis-charging-letters")
      expect(report).toMatchObject({ status: "failed", error: expect.stringMatching(/no answer .* in time/) })
    } finally {
      state.delay = 0
    }
  })

  it("fails loudly, naming what it found, when a page's structure is not recognized", async () => {
    state.pageOverride = "<html><body><h1>Site maintenance</h1><table><tr><th>Notice</th></tr>" +
      "<tr><td>Back soon</td></tr></table></body></html>"
    try {
      const reports = bySource(await collect())
      expect(reports.get("bis-export-violations")?.error).toMatch(
        /holds no case table .*found \[Notice\]/
      )
      expect(reports.get("ddtc-consent-agreements")?.error).toMatch(/sets no session token/)
      expect(reports.get("doj-press-releases")?.error).toMatch(/not the News API envelope/)
    } finally {
      state.pageOverride = undefined
    }
    expect((await stats()).total).toBeGreaterThanOrEqual(26)
  })

  it("refuses a listing that shrank by more than half instead of marking the catalog removed", async () => {
    const kept = state.cases
    state.cases = kept.slice(0, 5)
    try {
      const [report] = await collect("bis-export-violations")
      expect(report).toMatchObject({ status: "failed", error: expect.stringMatching(/shrank from 25 to 5/) })
    } finally {
      state.cases = kept
    }
  })

  it("re-parses stored files with reparse --all", async () => {
    const result = await runtime.runPromise(
      Effect.flatMap(EnforcementCollection.EnforcementCollection, (service) => service.reparse({ all: true }))
    )
    expect(result.reparsed).toBeGreaterThanOrEqual(26)
    expect(await repo((r) => r.get("bis-case:E0002"))).toMatchObject({ parseStatus: "parsed", parseAttempts: 2 })
  })
})

describe("ecds enforcement collect", () => {
  const repoRoot = fileURLToPath(new URL("..", import.meta.url))
  const work = mkdtempSync(join(tmpdir(), "enforcement-collect-"))
  let upstream: FakeUpstream
  beforeAll(async () => {
    upstream = await startFakeUpstream([sourcesRoute(await initialState())])
  })
  afterAll(async () => {
    await upstream?.close()
    rmSync(work, { recursive: true, force: true })
  })
  /** Asynchronous: the fake upstream answers from this process while the command runs. */
  const ecds = (args: ReadonlyArray<string>, env: Record<string, string>) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        cliCommand[0],
        [...cliCommand.slice(1), "enforcement", ...args],
        {
          cwd: repoRoot,
          env: {
            ...process.env,
            DATA_DIR: join(work, "data"),
            DOJ_BASE_URL: upstream.url,
            BIS_BASE_URL: upstream.url,
            DDTC_BASE_URL: upstream.url,
            ENFORCEMENT_REQUEST_SPACING_MS: "0",
            ...env
          },
          encoding: "utf8",
          timeout: 180_000
        },
        (error, stdout, stderr) =>
          resolve({ status: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr })
      )
    })

  it("refuses to collect without an operator contact", async () => {
    const result = await ecds(["collect"], {})
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("ENFORCEMENT_COLLECTOR_CONTACT is not set")
  }, 200_000)

  it("collects the named sources, one JSON report each, then re-parses", async () => {
    const result = await ecds(["collect", "--source", "bis-charging-letters,ddtc-consent-agreements"], {
      ENFORCEMENT_COLLECTOR_CONTACT: contact
    })
    expect(result.stderr).not.toContain("error")
    expect(result.status).toBe(0)
    const reports = result.stdout.trim().split("\n").map((line) => JSON.parse(line))
    expect(reports.map((report) => [report.source, report.status, report.listed])).toEqual([
      ["bis-charging-letters", "ok", 2],
      ["ddtc-consent-agreements", "ok", 2]
    ])
    const reparsed = await ecds(["reparse", "--all"], {})
    expect(reparsed.status).toBe(0)
    expect(JSON.parse(reparsed.stdout.trim())).toMatchObject({ reparsed: 3, parser_version: parserVersion })
  }, 400_000)
})
