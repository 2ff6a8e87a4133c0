import type { SqlClient } from "@effect/sql/SqlClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { BundleFormat, type BundleManifest } from "../src/domain/Bundle.ts"
import { ServiceVersion } from "../src/domain/Service.ts"
import * as AppConfig from "../src/services/AppConfig.ts"
import { readArchive, sha256Hex, writeArchive } from "../src/services/bundle/Archive.ts"
import * as Bundle from "../src/services/bundle/Bundle.ts"
import * as Enforcement from "../src/services/bundle/Enforcement.ts"
import type { PartFills } from "../src/services/ecfr/PartFills.ts"
import * as ArchiveRepo from "../src/services/enforcement/ArchiveRepo.ts"
import { importDirectory } from "../src/services/enforcement/Import.ts"
import { removedId, seedSmallArchive, smallArchiveDir } from "./support/EnforcementBundle.ts"
import { callTool, productionApp } from "./support/mcp/McpTestApp.ts"
import { forEachEngine } from "./support/SqlEngines.ts"
import { startServer } from "./support/TestServer.ts"
import { testStore } from "./support/TestStore.ts"

type Entry = readonly [string, Uint8Array]

/** Runs against the in-memory store of `dataDir` (the one a test server on that DATA_DIR uses). */
const inStore = <A, E>(
  dataDir: string,
  effect: Effect.Effect<A, E, SqlClient | AppConfig.AppConfig | PartFills>
) =>
  Effect.runPromise(
    Effect.either(effect).pipe(
      Effect.provide(testStore.pipe(Layer.provideMerge(AppConfig.layerWith({ dataDir }))))
    )
  )

const withRepo = <A, E>(f: (repo: ArchiveRepo.ArchiveRepo) => Effect.Effect<A, E>) =>
  Effect.flatMap(ArchiveRepo.make, f)

/** A bundle of the enforcement archive alone (no eCFR parts, no list): what `verified` checks is the same. */
const writeBundle = (path: string, section: BundleManifest["enforcement"], entries: ReadonlyArray<Entry>) => {
  const manifest: BundleManifest = {
    format: BundleFormat,
    created_at: new Date().toISOString(),
    service_version: ServiceVersion,
    ecfr: { parts: [] },
    screening_list: null,
    enforcement: section,
    files: Object.fromEntries(
      entries.map(([name, bytes]) => [name, { sha256: sha256Hex(bytes), bytes: bytes.byteLength }])
    )
  }
  return writeArchive(path, [["manifest.json", new TextEncoder().encode(JSON.stringify(manifest))], ...entries])
}

const importInto = (dataDir: string, file: string) =>
  inStore(dataDir, Effect.flatMap(Bundle.readBundle(file), (bundle) => Bundle.storeBundle(bundle, () => {})))

/** What a copy must keep of each row (everything but the bookkeeping times), with its PDF's hash. */
const stateOf = (repo: ArchiveRepo.ArchiveRepo) =>
  Effect.gen(function*() {
    const rows = yield* repo.all
    const full = yield* repo.full(rows.map((row) => row.id))
    const files = yield* Effect.forEach(
      rows.flatMap((row) => (row.pdfSha256 === null ? [] : [row.pdfSha256])),
      (digest) => Effect.map(repo.file(digest), (bytes) => [digest, bytes === undefined ? null : sha256Hex(bytes)])
    )
    return { rows, bodies: full.map((write) => [write.id, write.body]), files }
  })

const archiveState = (dataDir: string) => inStore(dataDir, withRepo(stateOf)).then(Either.getOrThrow)

// the statements the bundle adds (file sizes, restored removal times, the upsert transaction) on both engines
forEachEngine("a bundle's enforcement archive", (it) => {
  it.effect("exports, empties and re-imports the same rows, texts, PDFs and removal marks", () =>
    Effect.gen(function*() {
      const repo = yield* ArchiveRepo.make
      yield* importDirectory(repo, yield* Effect.promise(smallArchiveDir))
      yield* repo.markRemoved([removedId])
      const before = yield* stateOf(repo)
      const exported = yield* Enforcement.exportEnforcement(repo)
      yield* repo.clear
      yield* repo.pruneFiles
      expect((yield* stateOf(repo)).rows).toEqual([])
      const entries = new Map(exported.entries)
      const archive = yield* Enforcement.readEnforcement(
        exported.section,
        [...entries.keys()],
        (path) => entries.get(path)!
      )
      yield* Enforcement.storeEnforcement(repo, archive)
      const after = yield* stateOf(repo)
      expect(after).toEqual(before)
      expect(after.files.map(([, stored]) => stored)).toEqual(after.files.map(([digest]) => digest))
    }))
})

describe("data bundles carry the enforcement archive", () => {
  const work = mkdtempSync(join(tmpdir(), "ecds-bundle-enforcement-"))
  const source = join(work, "source")
  const bundle = join(work, "bundle.tar.gz")
  // every refused import goes here (a store per directory costs seconds): it must stay empty
  const refusedTarget = join(work, "refused")
  let section: BundleManifest["enforcement"]
  let entries: ReadonlyArray<Entry>

  beforeAll(async () => {
    await Effect.runPromise(seedSmallArchive(testStore, source))
    const exported = Either.getOrThrow(await inStore(source, withRepo(Enforcement.exportEnforcement)))
    section = exported.section
    entries = exported.entries
    await writeBundle(bundle, section, entries)
  }, 60_000)
  afterAll(() => rmSync(work, { recursive: true, force: true }))

  it("exports every row with its text and the stored PDFs by digest", async () => {
    const state = await archiveState(source)
    expect(section).toEqual({
      documents: 3,
      paths: ["enforcement/documents-0001.json"],
      pdfs: "included",
      pdf_bytes: expect.any(Number)
    })
    expect(entries.map(([path]) => path).sort()).toEqual(
      [
        "enforcement/documents-0001.json",
        ...state.files.map(([digest]) => Enforcement.pdfPath(digest!))
      ].sort()
    )
    expect(state.files).toHaveLength(2)
  })

  it("imports them into an empty store, twice with the same result, searchable over REST and MCP", async () => {
    const target = join(work, "target")
    expect(Either.isRight(await importInto(target, bundle))).toBe(true)
    const once = await archiveState(target)
    expect(Either.isRight(await importInto(target, bundle))).toBe(true)
    const twice = await archiveState(target)
    const before = await archiveState(source)
    expect(once).toEqual(before)
    expect(twice).toEqual(before)
    expect(once.rows.find((row) => row.id === removedId)?.removedAt).toEqual(expect.any(String))
    expect(once.bodies.find(([id]) => id === "bis-case:E0001")?.[1]).toMatch(/thermal\s+imaging/)
    // every PDF came across byte for byte: its stored bytes hash to the digest the row names
    for (const [digest, stored] of once.files) expect(stored).toBe(digest)

    const server = await startServer({ app: productionApp(), config: { dataDir: target } })
    try {
      const search = await server.get("/api/enforcement/docs?q=thermal%20imaging")
      expect(search.status).toBe(200)
      const body = await search.json()
      expect(body).toMatchObject({ count: 1, total: 1 })
      expect(body.documents[0].id).toBe("bis-case:E0001")
      const pdf = await server.get("/api/enforcement/docs/bis-case%3AE0001/file")
      expect(pdf.status).toBe(200)
      expect(sha256Hex(new Uint8Array(await pdf.arrayBuffer()))).toBe(
        once.rows.find((row) => row.id === "bis-case:E0001")?.pdfSha256
      )
      const { result } = await callTool(server, "search_enforcement_documents", { query: "optics" })
      expect(result.structuredContent).toMatchObject({ data_state: "ok" })
      expect(result.structuredContent.documents.map((d: { id: string }) => d.id)).toEqual(["bis-media:1001"])
    } finally {
      await server.close()
    }
  }, 60_000)

  it(
    "carries texts and metadata only when the PDFs exceed the budget; search works, the PDF is reported missing",
    async () => {
      const small = Either.getOrThrow(
        await inStore(source, withRepo((repo) => Enforcement.exportEnforcement(repo, { bytes: 1, files: 10 })))
      )
      expect(small.section).toMatchObject({ documents: 3, pdfs: "left_out", pdf_bytes: section!.pdf_bytes })
      expect(small.entries.map(([path]) => path)).toEqual(["enforcement/documents-0001.json"])
      const textsOnly = join(work, "texts-only.tar.gz")
      await writeBundle(textsOnly, small.section, small.entries)
      const target = join(work, "texts-only")
      expect(Either.isRight(await importInto(target, textsOnly))).toBe(true)
      const state = await archiveState(target)
      const before = await archiveState(source)
      expect(state.rows).toEqual(before.rows)
      expect(state.bodies).toEqual(before.bodies)
      expect(state.files.map(([, stored]) => stored)).toEqual([null, null])

      const server = await startServer({ app: productionApp(), config: { dataDir: target } })
      try {
        const search = await (await server.get("/api/enforcement/docs?q=thermal%20imaging")).json()
        expect(search.documents.map((d: { id: string }) => d.id)).toEqual(["bis-case:E0001"])
        const pdf = await server.get("/api/enforcement/docs/bis-case%3AE0001/file")
        expect(pdf.status).not.toBe(200)
        expect((await pdf.json()).detail).toContain("Document bis-case:E0001 has no stored PDF")
      } finally {
        await server.close()
      }
    },
    60_000
  )

  it("refuses a bundle whose archive rows or PDFs do not match their checksums, writing nothing", async () => {
    for (const [index, altered] of ["enforcement/documents-0001.json", entries[entries.length - 1]![0]].entries()) {
      const damaged = join(work, `damaged-${index}.tar.gz`)
      // the manifest still carries the original checksums; one bit of the file changed
      const original = new Map(await readArchive(bundle))
      const bytes = original.get(altered)!
      original.set(altered, new Uint8Array([...bytes.slice(0, -1), bytes[bytes.length - 1]! ^ 1]))
      await writeArchive(damaged, [...original])
      const refused = await importInto(refusedTarget, damaged)
      expect(Either.isLeft(refused)).toBe(true)
      if (Either.isLeft(refused)) {
        expect(refused.left.message).toContain(
          `is damaged; nothing was imported: ${altered} does not match its SHA-256`
        )
      }
      expect((await archiveState(refusedTarget)).rows).toEqual([])
    }
  })

  it("refuses a PDF listed correctly but not named by its digest, and rows the manifest does not count", async () => {
    const [documents, ...pdfs] = entries
    const renamed: Array<Entry> = [documents!, [Enforcement.pdfPath("0".repeat(64)), pdfs[0]![1]], ...pdfs.slice(1)]
    const misnamed = join(work, "misnamed.tar.gz")
    await writeBundle(misnamed, section, renamed)
    const refused = await importInto(refusedTarget, misnamed)
    expect(Either.isLeft(refused) && refused.left.message).toMatch(
      /enforcement\/files\/0{64}\.pdf is not named by its SHA-256; nothing was imported/
    )

    const miscounted = join(work, "miscounted.tar.gz")
    await writeBundle(miscounted, { ...section!, documents: 4 }, entries)
    const counted = await importInto(refusedTarget, miscounted)
    expect(Either.isLeft(counted) && counted.left.message).toMatch(
      /the manifest counts 4 enforcement documents, the bundle holds 3/
    )
    expect((await archiveState(refusedTarget)).rows).toEqual([])
  })
})
