import { Effect, Layer, Logger, LogLevel } from "effect"
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { StoreLayer } from "../../src/layers/Store.ts"
import * as AppConfig from "../../src/services/AppConfig.ts"
import * as ArchiveRepo from "../../src/services/enforcement/ArchiveRepo.ts"
import { importDirectory } from "../../src/services/enforcement/Import.ts"
import { textPdf } from "./Pdf.ts"

/** The id of the small archive's document that is marked removed before a bundle is made. */
export const removedId = "doj:0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b"

/**
 * A small operator import (three synthetic documents: two with text PDFs, one DOJ release without
 * a file), as `ecds enforcement import` reads it.
 */
export const smallArchiveDir = async (): Promise<string> => {
  const dir = mkdtempSync(join(tmpdir(), "ecds-bundle-archive-"))
  mkdirSync(join(dir, "pdfs"))
  writeFileSync(
    join(dir, "pdfs/e0001.pdf"),
    await textPdf([{
      heading: "SETTLEMENT AGREEMENT",
      paragraphs: [
        "This synthetic agreement concerns Synthetic Widget Exporters GmbH, which exported thermal imaging " +
        "cameras without the required license. It describes no real case."
      ]
    }])
  )
  writeFileSync(
    join(dir, "pdfs/m1001.pdf"),
    await textPdf([{
      heading: "CHARGING LETTER",
      paragraphs: ["Fictional Optics Trading Company is alleged, in this synthetic letter, to have shipped lenses."]
    }])
  )
  writeFileSync(
    join(dir, "metadata.json"),
    JSON.stringify([
      {
        id: "bis-case:E0001",
        agency: "BIS",
        party: "Synthetic Widget Exporters GmbH",
        title: "Settlement Agreement (Synthetic Test Case E0001)",
        date: "2099-02-10",
        pdf: "pdfs/e0001.pdf"
      },
      {
        id: "bis-media:1001",
        agency: "BIS",
        party: "Fictional Optics Trading Company",
        title: "Charging Letter (Synthetic Test Case 1001)",
        date: "2099-03-05",
        pdf: "pdfs/m1001.pdf"
      },
      {
        id: removedId,
        agency: "DOJ",
        party: null,
        title: "Synthetic Defendant Sentenced (Test Fixture)",
        date: "2099-05-10",
        source_url: "https://example.test/doj/synthetic-defendant"
      }
    ])
  )
  return dir
}

/** Imports the small archive into the store `layer` gives, then marks one document removed. */
export const seedSmallArchive = (store: StoreLayer, dataDir: string) =>
  Effect.gen(function*() {
    const dir = yield* Effect.promise(smallArchiveDir)
    const repo = yield* ArchiveRepo.make
    yield* importDirectory(repo, dir)
    yield* repo.markRemoved([removedId])
  }).pipe(
    Effect.provide(store.pipe(Layer.provide(AppConfig.layerWith({ dataDir })))),
    Effect.scoped,
    Logger.withMinimumLogLevel(LogLevel.Warning)
  )
