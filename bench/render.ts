import { Either } from "effect"
import { spawnSync } from "node:child_process"
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { ValidPayload } from "../src/domain/documents/Contract.ts"
import { validatePayload } from "../src/domain/documents/Contract.ts"
import { contracts } from "../src/domain/documents/index.ts"
import { prepareContent } from "../src/render/Content.ts"
import { renderDocument } from "../src/render/Document.ts"
import { forgetLayouts } from "../src/render/graphics/SvgCache.ts"
import { loadFallback } from "../src/render/pdf/FallbackFonts.ts"
import { drawPictures } from "../src/render/Report.ts"
import { classificationPayload } from "../test/fixtures/documents/classification.ts"
import { fullCertificate } from "../test/fixtures/documents/hardCases.ts"
import { documentHtml } from "./lib/documentHtml.ts"

/**
 * Renders the full classification memorandum (final and draft) and a one-page screening
 * certificate in process, against headless Chromium printing the same content (same pictures,
 * same tables) to PDF from a warm browser, when Chromium is installed. The two are timed
 * alternately, so the machine's noise falls on both.
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
  // satori's layouts are reused by their input (same facts, same picture): here every render lays
  // its three pictures out again, as for a document seen for the first time (ours only)
  { name: "memo-final-new-pictures", slug: "classification", payload: classificationPayload, draft: false, cold: true },
  { name: "memo-draft", slug: "classification", payload: classificationPayload, draft: true },
  { name: "certificate", slug: "restricted-party-screening", payload: certificatePayload, draft: false },
  // 12 parties in nine scripts: the Noto faces load on first use, then come from the cache
  { name: "certificate-12-scripts", slug: "restricted-party-screening", payload: fullCertificate(), draft: false }
] as const
type Case = (typeof cases)[number]

const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = values.slice().sort((a, b) => a - b)
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 10) / 10
}

const pageCount = (bytes: Uint8Array) => (Buffer.from(bytes).toString("latin1").match(/\/Type \/Page\b/g) ?? []).length

const ticksPerSecond = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100

/** CPU time of a process in ms from /proc: its own threads, plus its reaped children when asked. */
const procCpuMs = (pid: number | "self", children: boolean): number => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    // after the command name: state is field 3, utime 14, stime 15, cutime 16, cstime 17
    const ticks = Number(fields[11]) + Number(fields[12]) + (children ? Number(fields[13]) + Number(fields[14]) : 0)
    return (ticks / ticksPerSecond) * 1000
  } catch {
    return 0
  }
}

/** Processes of the warm browser: their command lines name its profile directory. */
const browserPids = (marker: string) =>
  spawnSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" }).stdout.split("\n")
    .filter((line) => line.includes(marker))
    .map((line) => Number(line.trim().split(" ")[0]))

/**
 * Wall time, and CPU time spent by this process (all its threads, and children it reaped, e.g. a
 * per-document Chromium) plus the given live processes (a warm browser). On a shared machine CPU
 * time says more than wall time about the work each path needs.
 */
const timed = async (once: () => Promise<number>, others: ReadonlyArray<number> = []) => {
  const cpu = () => procCpuMs("self", true) + others.reduce((sum, pid) => sum + procCpuMs(pid, false), 0)
  const cpuBefore = cpu()
  const started = performance.now()
  const pages = await once()
  return { ms: performance.now() - started, cpuMs: cpu() - cpuBefore, pages }
}

const chromiumPath = () =>
  ["chromium", "chromium-browser", "google-chrome"].map((name) =>
    spawnSync("which", [name], { encoding: "utf8" }).stdout.trim()
  ).find((path) => path !== "")

/** Resident memory of the browser's process tree (its processes name the profile directory), in MB. */
const treeRssMb = (marker: string) =>
  Math.round(
    spawnSync("ps", ["-eo", "rss=,args="], { encoding: "utf8" }).stdout.split("\n")
      .filter((line) => line.includes(marker))
      .reduce((sum, line) => sum + Number(line.trim().split(" ")[0]), 0) / 1024
  )

const inProcess = (c: Case, payload: ValidPayload) => async () => {
  if ("cold" in c) forgetLayouts()
  return pageCount((await renderDocument(contracts[c.slug], payload, { draft: c.draft, now: new Date() })).bytes)
}

/**
 * The same content as HTML, pictures included: laid out by satori the same way (so that cost
 * counts on both sides) and inlined as SVG, which Chromium draws as vectors as our PDF does.
 */
const htmlFor = async (c: Case, payload: ValidPayload) => {
  const content = prepareContent(contracts[c.slug], payload.values, [], await loadFallback([], () => true))
  const pictures = drawPictures(content, 492)
  return documentHtml(content, {
    ...(pictures.card ? { card: await pictures.card.svg } : {}),
    sections: await Promise.all(pictures.sections.map((picture) => picture?.svg))
  }, c.draft)
}

const chromiumFlags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
]

/** What an HTML-to-PDF service without a browser pool does: one Chromium per document, fresh profile. */
const viaChromiumCli = (executable: string, c: Case, payload: ValidPayload) => async () => {
  const directory = mkdtempSync(join(tmpdir(), "bench-print-"))
  try {
    writeFileSync(join(directory, "document.html"), await htmlFor(c, payload))
    await new Promise<void>((resolve, reject) => {
      const child = spawn(executable, [
        ...chromiumFlags,
        `--user-data-dir=${join(directory, "profile")}`,
        "--no-pdf-header-footer",
        `--print-to-pdf=${join(directory, "document.pdf")}`,
        `file://${join(directory, "document.html")}`
      ], { stdio: "ignore" })
      child.on("error", reject)
      child.on("exit", () => resolve())
    })
    return pageCount(readFileSync(join(directory, "document.pdf")))
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}

/** The part of puppeteer-core's API this bench drives. */
interface Page {
  readonly setContent: (html: string, options: { readonly waitUntil: "load" }) => Promise<void>
  readonly pdf: (options: Record<string, unknown>) => Promise<Uint8Array>
}
interface Browser {
  readonly newPage: () => Promise<Page>
  readonly close: () => Promise<void>
}
interface Puppeteer {
  readonly launch: (options: { executablePath: string; userDataDir: string; args: Array<string> }) => Promise<Browser>
}

/**
 * puppeteer-core drives the warm browser. It is not a dependency of the project (with its protocol
 * packages it weighs about 40 MB that every install would carry for this one baseline), so it is
 * loaded only when installed: `npm install --no-save puppeteer-core@24`. Without it the bench still
 * measures the per-document Chromium baseline, which needs no driver.
 */
const puppeteerDriver = async (): Promise<Puppeteer | undefined> => {
  const name = "puppeteer-core"
  try {
    return (await import(name)) as Puppeteer
  } catch {
    console.log(
      "render bench: puppeteer-core is not installed, so the warm-browser baseline is skipped " +
        "(npm install --no-save puppeteer-core@24 to include it)"
    )
    return undefined
  }
}

/** A warm browser kept open (puppeteer-core), the fastest way to use Chromium. */
const viaChromium = (page: Page, c: Case, payload: ValidPayload) => async () => {
  const contract = contracts[c.slug]
  await page.setContent(await htmlFor(c, payload), { waitUntil: "load" })
  const pdf = await page.pdf({
    format: "Letter",
    printBackground: true,
    displayHeaderFooter: true,
    headerTemplate: `<div style="font-size:7pt;margin-left:60pt">${contract.presentation.documentType}</div>`,
    footerTemplate: "<div style=\"font-size:7pt;margin-left:60pt\">Page <span class=\"pageNumber\"></span> of " +
      "<span class=\"totalPages\"></span></div>"
  })
  return pageCount(pdf)
}

type Run = Awaited<ReturnType<typeof timed>>

const summary = (runs: ReadonlyArray<Run>) => ({
  p50Ms: percentile(runs.map((run) => run.ms), 50),
  p99Ms: percentile(runs.map((run) => run.ms), 99),
  cpuP50Ms: percentile(runs.map((run) => run.cpuMs), 50),
  pages: runs[0]?.pages ?? 0
})

export const run = async () => {
  const iterations = Number(process.env.BENCH_ITERATIONS ?? 20)
  const payloads = new Map(cases.map((c) => {
    const result = validatePayload(contracts[c.slug], c.payload)
    if (Either.isLeft(result)) throw new Error(`${c.name}: fixture does not validate`)
    return [c.name, result.right] as const
  }))
  // the renderer alone first: the kernel's high-water mark of this process (ru_maxrss) before the
  // browser's traffic (whole PDFs as base64 over the DevTools protocol) shares the heap with it
  for (const c of cases) {
    for (let i = 0; i < Math.max(3, Math.floor(iterations / 4)); i++) await inProcess(c, payloads.get(c.name)!)()
  }
  const rendererPeakRss = Math.round(process.resourceUsage().maxRSS / 1024)
  const executablePath = chromiumPath()
  const profile = mkdtempSync(join(tmpdir(), "bench-chromium-"))
  const driver = executablePath === undefined ? undefined : await puppeteerDriver()
  const browser = executablePath === undefined || driver === undefined ? undefined : await driver.launch({
    executablePath,
    userDataDir: profile,
    args: chromiumFlags
  })
  let peakRss = 0
  let chromiumPeak = 0
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20)
  const candidate: Record<string, unknown> = {}
  const baseline: Record<string, unknown> = {}
  const baselineCli: Record<string, unknown> = {}
  const speedupP50: Record<string, { wall: number; cpu: number }> = {}
  const speedupP50Cli: Record<string, { wall: number; cpu: number }> = {}
  try {
    const page = browser ? await browser.newPage() : undefined
    for (const c of cases) {
      const ours = inProcess(c, payloads.get(c.name)!)
      const theirs = page && !("cold" in c) ? viaChromium(page, c, payloads.get(c.name)!) : undefined
      for (let i = 0; i < 3; i++) {
        await ours()
        await theirs?.()
      }
      const runs: { ours: Array<Run>; theirs: Array<Run> } = { ours: [], theirs: [] }
      const pids = browser ? browserPids(profile) : []
      for (let i = 0; i < iterations; i++) {
        runs.ours.push(await timed(ours))
        if (theirs) {
          runs.theirs.push(await timed(theirs, pids))
          chromiumPeak = Math.max(chromiumPeak, treeRssMb(profile))
        }
      }
      const cli = executablePath && !("cold" in c)
        ? viaChromiumCli(executablePath, c, payloads.get(c.name)!)
        : undefined
      const cliRuns: Array<Run> = []
      for (let i = 0; cli && i < Math.max(3, Math.floor(iterations / 4)); i++) {
        runs.ours.push(await timed(ours))
        cliRuns.push(await timed(cli))
      }
      candidate[c.name] = summary(runs.ours)
      const ratio = (other: ReadonlyArray<Run>, of: (run: Run) => number) =>
        Math.round((percentile(other.map(of), 50) / percentile(runs.ours.map(of), 50)) * 10) / 10
      if (theirs) {
        baseline[c.name] = summary(runs.theirs)
        speedupP50[c.name] = { wall: ratio(runs.theirs, (r) => r.ms), cpu: ratio(runs.theirs, (r) => r.cpuMs) }
      }
      if (cli) {
        baselineCli[c.name] = summary(cliRuns)
        speedupP50Cli[c.name] = { wall: ratio(cliRuns, (r) => r.ms), cpu: ratio(cliRuns, (r) => r.cpuMs) }
      }
    }
  } finally {
    clearInterval(sampler)
    await browser?.close()
    rmSync(profile, { recursive: true, force: true })
  }
  return {
    description: "in-process pdfkit render (pictures laid out by satori, drawn as vectors) vs headless Chromium " +
      "printing the same content (same pictures as inline SVG, same tables), from a warm browser " +
      "(puppeteer-core) and as one print-to-pdf process per document; timed alternately; cpu = CPU time of " +
      "every process involved; peakRssMb = this process after rendering every case before the browser starts " +
      "(ru_maxrss), processPeakRssMb = the whole run, puppeteer's traffic included",
    goal: "memo final p50 < 150 ms, certificate < 30 ms, peak RSS < 400 MB, >= 2.3x faster than a warm Chromium",
    iterations,
    candidate: {
      ...candidate,
      peakRssMb: rendererPeakRss,
      processPeakRssMb: Math.max(Math.round(peakRss / 1024 / 1024), Math.round(process.resourceUsage().maxRSS / 1024))
    },
    baseline: executablePath
      ? {
        warmBrowser: browser
          ? { ...baseline, peakRssMb: chromiumPeak }
          : "puppeteer-core not installed (npm install --no-save puppeteer-core@24)",
        printToPdfPerDocument: baselineCli,
        browser: executablePath
      }
      : "Chromium not installed (apt-get install chromium): absolute figures only",
    speedupP50: { vsWarmBrowser: speedupP50, vsPrintToPdfPerDocument: speedupP50Cli }
  }
}
