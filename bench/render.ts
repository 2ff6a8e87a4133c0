import { Either } from "effect"
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { prepareContent } from "../src/render/Content.ts"
import { validatePayload } from "../src/render/contracts/Contract.ts"
import { contracts } from "../src/render/contracts/index.ts"
import { renderDocument } from "../src/render/Document.ts"
import { drawPictures } from "../src/render/Report.ts"
import { classificationPayload } from "../test/fixtures/documents/classification.ts"
import { documentHtml } from "./lib/documentHtml.ts"

/**
 * Renders the full classification memorandum (final and draft) and a one-page screening
 * certificate in process, against headless Chromium printing the same content (same pictures,
 * same tables) to PDF from a warm browser, when Chromium is installed.
 */
const certificatePayload = {
  COMPANY_NAME: "Northwind Secure Systems, Inc.",
  DOC_NUMBER: "RPS-2026-10311",
  VERSION: "1",
  DATE: "2026-11-19",
  TRANSACTION_REFERENCE: "Sales order SO-448120",
  SCREENED_BY: "Jane Doe, Trade Compliance Analyst",
  SCREENING_DATE: "2026-11-19",
  LISTS_SEARCHED: "Entity List, Denied Persons, Unverified, MEU, SDN, DTC Debarred",
  LIST_VERSION: "CSL as published 2026-11-19",
  OVERALL_RESULT: "screen-clear",
  PARTIES: Array.from(
    { length: 6 },
    (_, i) => ({ PARTY: `Example Party ${i + 1}`, COUNTRY: "Germany", RESULT: "screen-clear" })
  ),
  CERTIFICATION_STATEMENT: "I certify that the parties above were screened on the date shown."
}

const cases = [
  { name: "memo-final", slug: "classification", payload: classificationPayload, draft: false },
  { name: "memo-draft", slug: "classification", payload: classificationPayload, draft: true },
  { name: "certificate", slug: "restricted-party-screening", payload: certificatePayload, draft: false }
] as const

const percentile = (values: Array<number>, p: number) => {
  const sorted = values.slice().sort((a, b) => a - b)
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 10) / 10
}

const measure = async (iterations: number, once: () => Promise<number>) => {
  for (let i = 0; i < 3; i++) await once()
  const times: Array<number> = []
  let pages = 0
  for (let i = 0; i < iterations; i++) {
    const started = performance.now()
    pages = await once()
    times.push(performance.now() - started)
  }
  return { p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), pages }
}

const pageCount = (bytes: Uint8Array) => (Buffer.from(bytes).toString("latin1").match(/\/Type \/Page\b/g) ?? []).length

const chromiumPath = () =>
  ["chromium", "chromium-browser", "google-chrome"].find((name) => spawnSync("which", [name]).status === 0)

/** Resident memory of the browser's process tree, in MB. */
const treeRssMb = (marker: string) => {
  const ps = spawnSync("ps", ["-eo", "rss=,args="], { encoding: "utf8" }).stdout
  return Math.round(
    ps.split("\n").filter((line) => line.includes(marker)).reduce(
      (sum, line) => sum + Number(line.trim().split(" ")[0]),
      0
    ) /
      1024
  )
}

export const run = async () => {
  const iterations = Number(process.env.BENCH_ITERATIONS ?? 25)
  const valid = Object.fromEntries(cases.map((c) => {
    const result = validatePayload(contracts[c.slug], c.payload)
    if (Either.isLeft(result)) throw new Error(`${c.name}: fixture does not validate`)
    return [c.name, result.right]
  }))
  const candidate: Record<string, unknown> = {}
  let peakRss = process.memoryUsage().rss
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5)
  for (const c of cases) {
    candidate[c.name] = await measure(iterations, async () => {
      const rendered = await renderDocument(contracts[c.slug], valid[c.name]!, { draft: c.draft, now: new Date() })
      return pageCount(rendered.bytes)
    })
  }
  clearInterval(sampler)
  const result: Record<string, unknown> = {
    description: "in-process pdfkit + satori/resvg render of the same payloads; Chromium prints the same content " +
      "(same pictures) from a warm browser via puppeteer-core",
    goal: "memo p50 < 300 ms and >= 10x faster than Chromium",
    iterations,
    candidate: { ...candidate, peakRssMb: Math.round(peakRss / 1024 / 1024) }
  }

  const executablePath = chromiumPath()
  if (executablePath === undefined) {
    return { ...result, baseline: "Chromium not installed (apt-get install chromium): absolute figures only" }
  }
  const { launch } = await import("puppeteer-core")
  const profile = mkdtempSync(join(tmpdir(), "bench-chromium-"))
  const browser = await launch({
    executablePath: spawnSync("which", [executablePath], { encoding: "utf8" }).stdout.trim(),
    userDataDir: profile,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync"
    ]
  })
  const baseline: Record<string, unknown> = {}
  let chromiumPeak = 0
  const chromiumSampler = setInterval(() => (chromiumPeak = Math.max(chromiumPeak, treeRssMb(profile))), 100)
  try {
    const page = await browser.newPage()
    for (const c of cases) {
      const contract = contracts[c.slug]
      baseline[c.name] = await measure(Math.max(5, Math.floor(iterations / 3)), async () => {
        const content = prepareContent(contract, valid[c.name]!.values, [])
        const pictures = drawPictures(content, 492)
        const html = documentHtml(content, {
          ...(pictures.card ? { card: await pictures.card.png } : {}),
          sections: await Promise.all(pictures.sections.map((picture) => picture?.png))
        }, c.draft)
        await page.setContent(html, { waitUntil: "load" })
        const pdf = await page.pdf({
          format: "Letter",
          printBackground: true,
          displayHeaderFooter: true,
          headerTemplate: `<div style="font-size:7pt;margin-left:60pt">${contract.presentation.documentType}</div>`,
          footerTemplate:
            "<div style=\"font-size:7pt;margin-left:60pt\">Page <span class=\"pageNumber\"></span> of <span class=\"totalPages\"></span></div>"
        })
        return pageCount(pdf)
      })
    }
  } finally {
    clearInterval(chromiumSampler)
    await browser.close()
    rmSync(profile, { recursive: true, force: true })
  }
  const ratios = Object.fromEntries(cases.map((c) => {
    const ours = candidate[c.name] as { p50Ms: number }
    const theirs = baseline[c.name] as { p50Ms: number }
    return [c.name, Math.round((theirs.p50Ms / ours.p50Ms) * 10) / 10]
  }))
  return {
    ...result,
    baseline: {
      ...baseline,
      chromium: readFileSync("/proc/version", "utf8").length > 0 ? executablePath : "",
      peakRssMb: chromiumPeak
    },
    speedupP50: ratios
  }
}
