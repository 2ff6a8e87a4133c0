import { afterEach, describe, expect, it } from "@effect/vitest"
import type { Context } from "effect"
import { Effect, Layer } from "effect"
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as AppConfig from "../../src/services/AppConfig.ts"
import * as ArchiveRepo from "../../src/services/enforcement/ArchiveRepo.ts"
import * as ArchiveUpgrade from "../../src/services/enforcement/ArchiveUpgrade.ts"
import { noFields } from "../../src/services/enforcement/Fields.ts"
import { parserVersion } from "../../src/services/enforcement/ParsePipeline.ts"
import { captureLogs } from "../support/LogCapture.ts"
import { textPdf } from "../support/Pdf.ts"
import { type PreviousRecord, snapshotFiles, writePreviousArchive } from "../support/PreviousArchiveWriter.ts"
import { forEachEngine, SqlClient } from "../support/SqlEngines.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

const party = "Zephyrine Avionics Trading"

const records = (pdf: Uint8Array, other: Uint8Array): ReadonlyArray<PreviousRecord> => [
  {
    id: "bis-case:E2001",
    agency: "BIS",
    title: "Order denying export privileges",
    party,
    date: "2024-03-05",
    source_url: "https://www.bis.gov/case/E2001",
    original_doc_url: "https://www.bis.gov/case/E2001.pdf",
    pdf
  },
  {
    id: "bis-case:E2002",
    agency: "BIS",
    title: "Temporary denial order",
    date: "2024-02-01",
    original_doc_url: "https://www.bis.gov/case/E2002.pdf",
    pdf: other
  },
  {
    id: "bis-media:42",
    agency: "BIS",
    title: "Settlement agreement",
    date: "2023-07-01",
    original_doc_url: "https://www.bis.gov/media/42.pdf"
  },
  { id: "doj:0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b", agency: "DOJ", title: "Exporter sentenced", date: "2022-01-10" },
  { id: "ddtc:0123456789abcdef0123456789abcdef", agency: "DDTC", title: "Consent agreement", pdf: new Uint8Array(8) }
]

/** A DATA_DIR holding the previous version's archive of `records`, removed with the test's scope. */
const previousVersionData = Effect.acquireRelease(
  Effect.promise(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "ecds-archive-upgrade-"))
    const pdf = await textPdf([{
      heading: "Order Denying Export Privileges",
      paragraphs: [`${party} arranged the transshipment of aircraft parts through a third country.`]
    }])
    const other = await textPdf([{ paragraphs: ["Temporary denial order renewed for 180 days."] }])
    return { dataDir, pdf, written: await writePreviousArchive(dataDir, records(pdf, other)) }
  }),
  ({ dataDir }) => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true }))
)

/** A start of the service's import over `store`, logging into `logger`. */
const start = <R>(dataDir: string, store: Context.Context<R>, logger: Layer.Layer<never>) =>
  Effect.scoped(Layer.build(
    ArchiveUpgrade.layer.pipe(
      Layer.provide(AppConfig.layerWith({ dataDir })),
      Layer.provide(Layer.succeedContext(store)),
      Layer.provide(logger)
    )
  ))

/** The suite's store as a new deployment's: no archive, no import recorded. */
const emptyArchive = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`DELETE FROM store_imports WHERE import_name = ${ArchiveUpgrade.importName}`
  yield* sql`DELETE FROM enforcement_documents`
  yield* sql`DELETE FROM enforcement_files`
  return yield* Effect.context<SqlClient>()
})

forEachEngine("one-time import of the previous enforcement archive", (it) => {
  it.scoped(
    "imports documents, files and text once, searchable, without party names in the log; the files stay",
    () =>
      Effect.gen(function*() {
        const { dataDir, pdf, written } = yield* previousVersionData
        const before = yield* Effect.promise(() => snapshotFiles(written.root))
        const store = yield* emptyArchive
        const repo = yield* Effect.provide(ArchiveRepo.make, store)
        const { lines, logger } = captureLogs()

        yield* start(dataDir, store, logger)
        const rows = yield* repo.all
        expect(rows.map((row) => [row.id, row.parseStatus, row.source])).toEqual([
          ["bis-case:E2001", "parsed", "import"],
          ["bis-case:E2002", "parsed", "import"],
          ["bis-media:42", "pending", "import"],
          ["doj:0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b", "no_pdf", "import"],
          ["ddtc:0123456789abcdef0123456789abcdef", "failed", "import"]
        ])
        const [parsed] = yield* repo.full(["bis-case:E2001"])
        const previous = written.documents.find((document) => document.id === "bis-case:E2001")!
        expect(parsed).toMatchObject({
          party,
          date: "2024-03-05",
          sourceUrl: "https://www.bis.gov/case/E2001",
          originalDocUrl: "https://www.bis.gov/case/E2001.pdf",
          pdfSha256: previous.pdf_sha256,
          pages: previous.pages,
          textChars: previous.text_chars,
          parserVersion: ArchiveUpgrade.previousParserVersion,
          parseAttempts: 1
        })
        expect(parsed!.body).toContain("transshipment")
        expect(parsed!.fields.parties).toContain(party)
        expect(yield* repo.file(previous.pdf_sha256!)).toEqual(pdf)
        // search vectors were built as for any write: the text and the party both find it
        const byText = yield* repo.search("transshipment", undefined, 10)
        expect(byText.hits.map((hit) => hit.row.id)).toEqual(["bis-case:E2001"])
        const byParty = yield* repo.search("zephyrine", undefined, 10)
        expect(byParty.hits.map((hit) => hit.row.id)).toEqual(["bis-case:E2001"])

        expect(lines.filter((line) => line.startsWith("imported 5 documents (2 PDFs, 0 texts read again)")))
          .toHaveLength(1)
        expect(lines.join("\n")).not.toContain("Zephyrine")

        // a second start imports nothing, even into an archive emptied since
        yield* repo.clear
        yield* start(dataDir, store, logger)
        expect(yield* repo.all).toEqual([])
        expect(lines.filter((line) => line.startsWith("imported"))).toHaveLength(1)
        expect(yield* Effect.promise(() => snapshotFiles(written.root))).toEqual(before)
      }),
    60_000
  )

  it.scoped("two instances starting together import once", () =>
    Effect.gen(function*() {
      const { dataDir } = yield* previousVersionData
      const store = yield* emptyArchive
      const repo = yield* Effect.provide(ArchiveRepo.make, store)
      const outcomes = yield* Effect.all(
        [0, 1].map(() => Effect.provide(ArchiveUpgrade.importPreviousArchive(dataDir), store)),
        { concurrency: "unbounded" }
      )
      expect(outcomes.map((outcome) => outcome?._tag ?? "nothing").sort()).toEqual(["Imported", "nothing"])
      expect(yield* repo.all).toHaveLength(5)
    }), 60_000)

  it.scoped(
    "a damaged catalog is reported, blocks no start, and is imported once repaired",
    () =>
      Effect.gen(function*() {
        const { dataDir, written } = yield* previousVersionData
        const catalog = join(written.root, "generations", written.generation, "catalog.json")
        const whole = readFileSync(catalog)
        truncateSync(catalog, Math.floor(whole.length / 2))
        const store = yield* emptyArchive
        const repo = yield* Effect.provide(ArchiveRepo.make, store)
        const { lines, logger } = captureLogs()

        yield* start(dataDir, store, logger)
        expect(yield* repo.all).toEqual([])
        expect(lines).toEqual([
          `the previous version's enforcement archive was not imported: the catalog of generation ` +
          `${written.generation} is missing, damaged or not what the previous version wrote; a later start retries`
        ])

        writeFileSync(catalog, whole)
        yield* start(dataDir, store, logger)
        expect(yield* repo.all).toHaveLength(5)
      }),
    60_000
  )

  it.scoped(
    "missing or damaged files and records are reported and skipped; the rest is imported",
    () =>
      Effect.gen(function*() {
        const { dataDir, written } = yield* previousVersionData
        const [first, second] = ["bis-case:E2001", "bis-case:E2002"].map((id) =>
          written.documents.find((document) => document.id === id)!
        )
        // the first one's text is gone (its PDF is read again), the second one's PDF is cut short, and
        // a record of the catalog no longer decodes
        rmSync(join(written.root, "blobs", `${first!.text_sha256}.md`))
        truncateSync(join(written.root, "blobs", `${second!.pdf_sha256}.pdf`), 100)
        const catalog = join(written.root, "generations", written.generation, "catalog.json")
        const document = JSON.parse(readFileSync(catalog, "utf8"))
        document.documents[2].parse_status = "lost"
        writeFileSync(catalog, JSON.stringify(document))
        const store = yield* emptyArchive
        const repo = yield* Effect.provide(ArchiveRepo.make, store)
        const { lines, logger } = captureLogs()

        yield* start(dataDir, store, logger)
        const [reread, withoutFile] = yield* repo.full(["bis-case:E2001", "bis-case:E2002"])
        expect(reread).toMatchObject({ parseStatus: "parsed", parserVersion, pdfSha256: first!.pdf_sha256 })
        expect(reread!.body).toContain("transshipment")
        expect(withoutFile).toMatchObject({ parseStatus: "pending", pdfSha256: null, body: null })
        expect(yield* repo.all).toHaveLength(4)
        expect(lines).toEqual([
          "imported 4 documents (1 PDFs, 1 texts read again) from the previous version's enforcement archive " +
          `(generation ${written.generation}); its files under DATA_DIR/enforcement stay`,
          "previous enforcement archive: 3 problem(s): record 2 does not decode; bis-case:E2001: its stored text " +
          "is missing or damaged; read again from its PDF; bis-case:E2002: its stored PDF is missing or damaged; " +
          "imported without it"
        ])
      }),
    60_000
  )

  it.scoped(
    "an archive that already holds documents is left alone, and said so once",
    () =>
      Effect.gen(function*() {
        const { dataDir } = yield* previousVersionData
        const store = yield* emptyArchive
        const repo = yield* Effect.provide(ArchiveRepo.make, store)
        yield* repo.upsert([{
          id: "bis-case:E9999",
          agency: "BIS",
          source: "bis-cases",
          party: null,
          title: "Collected before the upgrade",
          date: null,
          parseStatus: "no_pdf",
          parseReason: null,
          parseAttempts: 0,
          parserVersion,
          originalDocUrl: null,
          sourceUrl: null,
          pdfSha256: null,
          pages: null,
          textChars: null,
          body: null,
          fields: noFields,
          fingerprint: null
        }])
        const { lines, logger } = captureLogs()
        yield* start(dataDir, store, logger)
        yield* start(dataDir, store, logger)
        expect((yield* repo.all).map((row) => row.id)).toEqual(["bis-case:E9999"])
        expect(lines).toEqual([
          "the enforcement archive already holds documents; the previous version's archive files were not imported"
        ])
      }),
    60_000
  )
})

describe("a service started over the previous version's DATA_DIR", () => {
  let server: RunningServer | undefined
  afterEach(() => server?.close())

  it.scopedLive("answers archive searches from the imported documents", () =>
    Effect.gen(function*() {
      const { dataDir } = yield* previousVersionData
      server = yield* Effect.promise(() => startServer({ config: { dataDir } }))
      const response = yield* Effect.promise(() => server!.get("/api/enforcement/docs?q=transshipment"))
      expect(response.status).toBe(200)
      const list = (yield* Effect.promise(() => response.json())) as { documents: Array<{ id: string }> }
      expect(list.documents.map((document) => document.id)).toEqual(["bis-case:E2001"])
    }), 60_000)
})
