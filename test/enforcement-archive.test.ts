import { afterAll, beforeAll, describe, expect, it, vi } from "@effect/vitest"
import { Effect, ManagedRuntime } from "effect"
import { spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { appLayer } from "../src/layers/Main.ts"
import * as ArchiveRepo from "../src/services/enforcement/ArchiveRepo.ts"
import { importDirectory, ImportRejected } from "../src/services/enforcement/Import.ts"
import { cliCommand } from "./support/CliEnv.ts"
import { imageOnlyPdf, textPdf } from "./support/Pdf.ts"
import { adminUrl, databaseConfig, onServer } from "./support/SqlEngines.ts"
import { type RunningServer, startServer } from "./support/TestServer.ts"
import { freshStore } from "./support/TestStore.ts"

const repoRoot = fileURLToPath(new URL("..", import.meta.url))
const metadataFixture = fileURLToPath(new URL("./fixtures/enforcement/metadata.json", import.meta.url))

/** Every party name in the fixture metadata: none may appear in logs or import messages. */
const partyNames = [
  "Synthetic Widget Exporters GmbH",
  "Fictional Optics Trading Company",
  "Imaginary Defense Articles Ltd.",
  "Placeholder Electronics Ltd."
]

/**
 * The archive lives on a PostgreSQL database of its own, shared by the CLI import (another process)
 * and the running server, as in a deployment with DATABASE_URL.
 */
const database = `ecds_t_${randomBytes(6).toString("hex")}`
const databaseUrl = (() => {
  const url = new URL(adminUrl)
  url.pathname = `/${database}`
  return url.href
})()

const runImport = (dataDir: string, args: ReadonlyArray<string>) =>
  spawnSync(cliCommand[0], [...cliCommand.slice(1), "enforcement", ...args], {
    cwd: repoRoot,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
    encoding: "utf8",
    timeout: 120_000
  })

const writeJson = (path: string, value: unknown) => writeFileSync(path, JSON.stringify(value, null, 2))

describe("enforcement document archive", () => {
  const work = mkdtempSync(join(tmpdir(), "enforcement-archive-"))
  const importDir = join(work, "import")
  const dataDir = join(work, "data")
  const pdfs: Record<string, Uint8Array> = {}
  let firstImport: ReturnType<typeof runImport>
  let server: RunningServer
  const logLines: Array<string> = []

  beforeAll(async () => {
    await Effect.runPromise(onServer((client) => client.query(`CREATE DATABASE ${database}`)))
    mkdirSync(join(importDir, "pdfs"), { recursive: true })
    copyFileSync(metadataFixture, join(importDir, "metadata.json"))
    pdfs.e0001 = await textPdf([
      {
        heading: "SETTLEMENT AGREEMENT",
        paragraphs: [
          "This synthetic test agreement is made between the Bureau of Industry and Security and Synthetic Widget " +
          "Exporters GmbH. It describes no real case.",
          "The respondent exported thermal imaging cameras, classified under a made-up ECCN for this fixture, " +
          "without the required license, in violation of the Export Control Reform Act."
        ]
      },
      { paragraphs: ["The respondent shall pay a civil penalty of $123,456 (synthetic figure)."] }
    ])
    pdfs.m1001 = await textPdf([
      {
        heading: "CHARGING LETTER",
        paragraphs: [
          "Fictional Optics Trading Company is alleged, in this synthetic letter, to have shipped infrared lenses."
        ]
      }
    ])
    pdfs.scan = await imageOnlyPdf()
    writeFileSync(join(importDir, "pdfs/bis-case-E0001.pdf"), pdfs.e0001)
    writeFileSync(join(importDir, "pdfs/bis-media-1001.pdf"), pdfs.m1001)
    writeFileSync(join(importDir, "pdfs/ddtc-scan.pdf"), pdfs.scan)
    writeFileSync(join(importDir, "pdfs/not-really.pdf"), "this is plain text, not a PDF")
    firstImport = runImport(dataDir, ["import", importDir])

    vi.spyOn(console, "log").mockImplementation((text: unknown) => {
      logLines.push(...String(text).split("\n"))
    })
    server = await startServer({
      config: { dataDir, logLevel: "debug", database: databaseConfig(databaseUrl) },
      app: appLayer(`node ${process.version}`)
    })
  }, 180_000)
  afterAll(async () => {
    await server?.close()
    await Effect.runPromise(onServer((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)))
    vi.restoreAllMocks()
    rmSync(work, { recursive: true, force: true })
  })

  const get = async (path: string, init?: RequestInit) => {
    const response = await server.get(path, init)
    const type = response.headers.get("content-type") ?? ""
    const body = type.includes("json") ? await response.json() as any : type.includes("pdf")
      ? new Uint8Array(await response.arrayBuffer())
      : await response.text()
    return { response, body }
  }

  it("imports metadata and PDFs with the operator command, reporting counts only", () => {
    expect(firstImport.status).toBe(0)
    const report = JSON.parse(firstImport.stdout.trim())
    expect(report).toMatchObject({
      imported: 6,
      total: 6,
      by_parse_status: { parsed: 2, no_text: 1, pending: 1, no_pdf: 1, failed: 1 }
    })
    expect(firstImport.stderr).toContain("bis-case:E0003: the file is not a readable PDF")
    for (const name of partyNames) {
      expect(firstImport.stdout).not.toContain(name)
      expect(firstImport.stderr).not.toContain(name)
    }
  })

  it("lists the catalog newest first, undated last, with count and total", async () => {
    const { body } = await get("/api/enforcement/docs")
    expect(body).toMatchObject({ query: null, agency: null, count: 6, total: 6 })
    expect(body.documents.map((d: { id: string }) => d.id)).toEqual([
      "doj:0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b",
      "bis-media:1001",
      "bis-case:E0001",
      "ddtc:0123456789abcdef0123456789abcdef",
      "bis-case:E0002",
      "bis-case:E0003"
    ])
    const limited = await get("/api/enforcement/docs?agency=BIS&limit=2")
    expect(limited.body).toMatchObject({ agency: "BIS", count: 2, total: 4 })
  })

  it("serves one document's metadata, the colon URL-encoded or not", async () => {
    const encoded = await get("/api/enforcement/docs/bis-case%3AE0001")
    expect(encoded.response.status).toBe(200)
    expect(encoded.body).toEqual({
      parse_reason: null,
      parse_attempts: 1,
      extracted: {
        parties: ["Synthetic Widget Exporters GmbH"],
        dates: [],
        statutes: ["Export Control Reform Act (ECRA)"],
        penalties: ["$123,456"],
        eccns: []
      },
      id: "bis-case:E0001",
      agency: "BIS",
      party: "Synthetic Widget Exporters GmbH",
      title: "Settlement Agreement and Order (Synthetic Test Case E0001)",
      date: "2099-02-10",
      parse_status: "parsed",
      file_url: `${server.url}/api/enforcement/docs/bis-case%3AE0001/file`,
      text_url: `${server.url}/api/enforcement/docs/bis-case%3AE0001/text`,
      original_doc_url: "https://example.test/bis/cases/E0001.pdf",
      source_url: "https://example.test/bis/cases/E0001",
      pages: 2,
      text_chars: expect.any(Number)
    })
    const raw = await get("/api/enforcement/docs/bis-case:E0001")
    expect(raw.body.id).toBe("bis-case:E0001")
    const doj = await get("/api/enforcement/docs/doj%3A0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b")
    expect(doj.body).toMatchObject({ parse_status: "no_pdf", file_url: null, text_url: null, pages: null })
  })

  it("searches party, title and parsed text with a snippet around the match", async () => {
    const text = await get("/api/enforcement/docs?q=thermal%20imaging")
    expect(text.body).toMatchObject({ query: "thermal imaging", count: 1, total: 1 })
    expect(text.body.documents[0]).toMatchObject({ id: "bis-case:E0001", score: expect.any(Number) })
    expect(text.body.documents[0].match_snippet).toMatch(/exported \*\*thermal\*\* \*\*imaging\*\* cameras/)

    const prefix = await get("/api/enforcement/docs?q=infrared%20len")
    expect(prefix.body.documents.map((d: { id: string }) => d.id)).toEqual(["bis-media:1001"])

    const party = await get("/api/enforcement/docs?q=optics")
    expect(party.body.documents[0].id).toBe("bis-media:1001")

    const title = await get("/api/enforcement/docs?q=synthetic%20defendant")
    expect(title.body.documents[0]).toMatchObject({
      id: "doj:0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b",
      match_snippet: expect.stringContaining("**Synthetic** **Defendant** Sentenced")
    })

    const accents = await get("/api/enforcement/docs?q=SETTLEMENT%20agr%C3%A9ement")
    expect(accents.body.documents.map((d: { id: string }) => d.id)).toContain("bis-case:E0001")

    const elsewhere = await get("/api/enforcement/docs?q=thermal&agency=DDTC")
    expect(elsewhere.body).toMatchObject({ count: 0, total: 0, documents: [] })

    const nothing = await get("/api/enforcement/docs?q=zzqqxxnothing")
    expect(nothing.body).toMatchObject({ count: 0, total: 0 })
  })

  it("reports coverage with stats=1", async () => {
    const { body } = await get("/api/enforcement/docs?stats=1")
    expect(body).toEqual({
      total: 6,
      by_parse_status: { parsed: 2, no_text: 1, pending: 1, no_pdf: 1, failed: 1 },
      by_agency: { BIS: 4, DDTC: 1, DOJ: 1 },
      imported_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      by_source: [{
        source: "import",
        documents: 6,
        by_parse_status: { parsed: 2, no_text: 1, pending: 1, no_pdf: 1, failed: 1 },
        removed_upstream: 0,
        listed: null,
        last_success_at: null,
        last_attempt_at: null,
        last_error: null,
        last_error_at: null
      }]
    })
  })

  it("serves the parsed text as markdown", async () => {
    const { body, response } = await get("/api/enforcement/docs/bis-case%3AE0001/text")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8")
    expect(body).toMatch(/^## SETTLEMENT AGREEMENT\n\nThis synthetic test agreement/)
    expect(body).toContain("\n\n<!-- page 2 -->\n\nThe respondent shall pay a civil penalty of $123,456")
    // the two paragraphs of page one stay apart; wrapped lines of one paragraph stay together
    expect(body.split("<!-- page 2 -->")[0].trim().split("\n\n")).toHaveLength(3)
  })

  it("serves the stored PDF byte for byte, with a validator", async () => {
    const { body, response } = await get("/api/enforcement/docs/bis-case%3AE0001/file")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("application/pdf")
    expect(response.headers.get("content-disposition")).toBe("inline; filename=\"bis-case_E0001.pdf\"")
    expect(body).toEqual(pdfs.e0001)
    const etag = response.headers.get("etag")!
    expect(etag).toMatch(/^W\//)
    const again = await server.get("/api/enforcement/docs/bis-case%3AE0001/file", {
      headers: { "if-none-match": etag }
    })
    expect(again.status).toBe(304)
  })

  it.each([
    ["doj%3A0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b/file", "no_pdf"],
    ["doj%3A0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b/text", "no_pdf"],
    ["bis-case%3AE0002/file", "pending"],
    ["bis-case%3AE0003/file", "failed"],
    ["ddtc%3A0123456789abcdef0123456789abcdef/text", "no_text"]
  ])("answers 404 with the parse status when %s is not stored", async (path, status) => {
    const { body, response } = await get(`/api/enforcement/docs/${path}`)
    expect(response.status).toBe(404)
    expect(body).toMatchObject({ parse_status: status })
    expect(body.type).toMatch(/\/problems\/enforcement-content-unavailable$/)
  })

  it("still serves the file of a document without a text layer", async () => {
    const { body, response } = await get("/api/enforcement/docs/ddtc%3A0123456789abcdef0123456789abcdef/file")
    expect(response.status).toBe(200)
    expect(body).toEqual(pdfs.scan)
  })

  it("answers 404 for a well-formed id the archive does not hold", async () => {
    const { body, response } = await get("/api/enforcement/docs/bis-case%3AE9999")
    expect(response.status).toBe(404)
    expect(body).toMatchObject({ id: "bis-case:E9999" })
    expect(body.type).toMatch(/\/problems\/enforcement-document-not-found$/)
  })

  it.each([
    "bis-case%3A..%2F..%2Fetc%2Fpasswd",
    "bis-case%3A..",
    "..%2F..%2Fpackage.json",
    "bis-case%3AE0001%00",
    "ddtc%3AXYZ",
    "doj%3Anot-a-uuid",
    "DOJ%3A0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b",
    "fr%3A2099-01234",
    "bis-media%3A12a",
    `bis-case%3A${"a".repeat(65)}`
  ])("rejects the malformed id %s with a 400 naming the parameter", async (id) => {
    for (const suffix of ["", "/text", "/file"]) {
      const { body, response } = await get(`/api/enforcement/docs/${id}${suffix}`)
      expect(response.status).toBe(400)
      expect(body.invalidParams[0]).toMatchObject({ name: "id", in: "path" })
    }
  })

  it.each(["?limit=101", "?limit=0", `?q=${"q".repeat(301)}`, "?stats=yes", "?agency=OFAC"])(
    "rejects %s with a 400",
    async (query) => {
      const { response } = await get(`/api/enforcement/docs${query}`)
      expect(response.status).toBe(400)
    }
  )

  it("picks up a new import while running, merging by id and keeping stored PDFs", async () => {
    const second = join(work, "second")
    mkdirSync(second)
    writeFileSync(
      join(second, "e0002.pdf"),
      await textPdf([{ paragraphs: ["Synthetic denial order text about rotary encoders."] }])
    )
    writeJson(join(second, "metadata.json"), [
      {
        id: "bis-case:E0002",
        agency: "BIS",
        party: "Placeholder Electronics Ltd.",
        title: "Order Denying Export Privileges (Synthetic Test Case E0002)",
        date: "2098-06-01",
        original_doc_url: "https://example.test/bis/cases/E0002.pdf",
        pdf: "e0002.pdf"
      },
      {
        id: "bis-case:E0001",
        agency: "BIS",
        title: "Settlement Agreement and Order (Synthetic Test Case E0001, retitled)"
      },
      { id: "bis-media:1002", agency: "BIS", title: "Press release (synthetic)", date: "2099-06-01" }
    ])
    const result = runImport(dataDir, ["import", second])
    expect(result.status).toBe(0)
    expect(JSON.parse(result.stdout.trim())).toMatchObject({ imported: 3, total: 7 })

    // the anonymous response cache may hold the previous answer until the service notices the change
    const deadline = Date.now() + 15_000
    let stats: any
    do {
      await new Promise((resolve) => setTimeout(resolve, 500))
      stats = (await get("/api/enforcement/docs?stats=1")).body
    } while (stats.total !== 7 && Date.now() < deadline)
    expect(stats).toMatchObject({ total: 7, by_parse_status: { parsed: 3, pending: 0, no_pdf: 2 } })
    const e0001 = (await get("/api/enforcement/docs/bis-case:E0001")).body
    expect(e0001).toMatchObject({
      title: "Settlement Agreement and Order (Synthetic Test Case E0001, retitled)",
      parse_status: "parsed"
    })
    const encoders = (await get("/api/enforcement/docs?q=rotary%20encoders")).body
    expect(encoders.documents.map((d: { id: string }) => d.id)).toEqual(["bis-case:E0002"])
  })

  it("never writes party names to the logs", async () => {
    await get(`/api/enforcement/docs?q=${encodeURIComponent("Placeholder Electronics")}`)
    await get(`/api/enforcement?party=${encodeURIComponent("Fictional Optics Trading Company")}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const log = logLines.join("\n")
    expect(log).toContain("\"msg\":\"request\"")
    for (const name of partyNames) expect(log).not.toContain(name)
  })
})

describe("enforcement import validation", () => {
  const work = mkdtempSync(join(tmpdir(), "enforcement-import-"))
  const runtime = ManagedRuntime.make(freshStore)
  const run = <A, E>(f: (repo: ArchiveRepo.ArchiveRepo) => Effect.Effect<A, E>) =>
    runtime.runPromise(Effect.flatMap(ArchiveRepo.make, f))
  const importInto = (dir: string, options: { readonly replace?: boolean } = {}) =>
    run((repo) => importDirectory(repo, dir, options))
  const version = () => run((repo) => repo.version)
  afterAll(async () => {
    await runtime.dispose()
    rmSync(work, { recursive: true, force: true })
  })

  const attempt = async (name: string, records: ReadonlyArray<unknown>, files: Record<string, string> = {}) => {
    const dir = join(work, name)
    mkdirSync(dir, { recursive: true })
    writeJson(join(dir, "metadata.json"), records)
    for (const [file, content] of Object.entries(files)) writeFileSync(join(dir, file), content)
    const before = await version()
    const error = await run((repo) => Effect.flip(importDirectory(repo, dir)))
    expect(await version()).toBe(before)
    expect(error).toBeInstanceOf(ImportRejected)
    const problems = (error as ImportRejected).problems
    expect(problems.join("\n")).not.toContain("Secret Party Name")
    return problems
  }

  const record = { id: "bis-case:X1", agency: "BIS", party: "Secret Party Name", title: "Synthetic" }

  it("rejects a PDF path that leaves the import directory, and writes nothing", async () => {
    writeFileSync(join(work, "outside.pdf"), "%PDF-1.4 outside")
    const problems = await attempt("escape", [{ ...record, pdf: "../outside.pdf" }])
    expect(problems).toEqual(["bis-case:X1: pdf ../outside.pdf is not a file inside the import directory"])
    expect(await attempt("absolute", [{ ...record, pdf: join(work, "outside.pdf") }])).toHaveLength(1)
  })

  it("rejects a symbolic link pointing out of the import directory", async () => {
    const dir = join(work, "link")
    mkdirSync(dir)
    symlinkSync(join(work, "outside.pdf"), join(dir, "linked.pdf"))
    expect(await attempt("link", [{ ...record, pdf: "linked.pdf" }])).toEqual([
      "bis-case:X1: pdf linked.pdf is not a file inside the import directory"
    ])
  })

  it("rejects malformed ids, agency mismatches and duplicates, naming ids and fields but not values", async () => {
    const problems = await attempt("invalid", [
      { ...record, id: "bis-case:../../x" },
      { ...record, agency: "DOJ" },
      { ...record },
      { ...record, id: "bis-case:X2", date: "2099-02-30", source_url: "http://insecure.example" },
      { ...record, id: "bis-case:X3", party: "x".repeat(501) }
    ])
    expect(problems).toEqual([
      "record 0 (bis-case:../../x): id is invalid",
      "record 1 (bis-case:X1): agency DOJ does not match the id prefix",
      "record 2 (bis-case:X1): duplicate id",
      "record 3 (bis-case:X2): date is invalid",
      "record 3 (bis-case:X2): source_url is invalid",
      "record 4 (bis-case:X3): party is invalid"
    ])
  })

  it("rejects a metadata file that is not an array of records", async () => {
    const dir = join(work, "notjson")
    mkdirSync(dir)
    writeFileSync(join(dir, "metadata.json"), "{\"documents\": 3}")
    expect(await run((repo) => Effect.flip(importDirectory(repo, dir)))).toBeInstanceOf(ImportRejected)
  })

  it("replaces the archive with --replace, and prunes files nothing refers to", async () => {
    const dir = join(work, "replace")
    mkdirSync(dir)
    writeFileSync(join(dir, "a.pdf"), await textPdf([{ paragraphs: ["Synthetic replaceable text."] }]))
    writeJson(join(dir, "metadata.json"), [{
      id: "bis-media:1",
      agency: "BIS",
      title: "One (synthetic)",
      pdf: "a.pdf"
    }])
    await importInto(dir)
    const stored = await run((repo) => repo.get("bis-media:1"))
    expect(stored?.pdfSha256).toMatch(/^[0-9a-f]{64}$/)
    writeJson(join(dir, "metadata.json"), [{ id: "bis-media:2", agency: "BIS", title: "Two (synthetic)" }])
    const merged = await importInto(dir)
    expect(merged.total).toBe(2)
    const replaced = await importInto(dir, { replace: true })
    expect(replaced.total).toBe(1)
    const rows = await run((repo) => repo.all)
    expect(rows.map((row) => row.id)).toEqual(["bis-media:2"])
    expect(await run((repo) => repo.file(stored!.pdfSha256!))).toBeUndefined()
  })
})
