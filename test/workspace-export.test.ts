import { SqlClient } from "@effect/sql/SqlClient"
import { expect } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as WorkspaceExport from "../src/services/workspace/Export.ts"
import { NoteTargets } from "../src/services/workspace/NoteTargets.ts"
import * as Tables from "../src/services/workspace/Tables.ts"
import { forEachEngine } from "./support/SqlEngines.ts"
import { note, product, screening, transaction } from "./support/WorkspaceRecords.ts"

const records = (lines: ReadonlyArray<string>) => lines.slice(1)

forEachEngine("workspace export and import", (it) => {
  it.effect("round-trips every record kind through JSON Lines into another workspace", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      const exporter = yield* WorkspaceExport.WorkspaceExport
      yield* Tables.writeTransaction(sql, "key:source", transaction)
      yield* Tables.writeProduct(sql, "key:source", product)
      yield* Tables.writeNote(sql, yield* NoteTargets, "key:source", note)
      yield* Tables.writeScreening(sql, "key:source", screening)
      yield* Tables.writeTransaction(sql, "key:bystander", { ...transaction, reference: "PO-other" })

      const lines = yield* exporter.export("key:source")
      const header = JSON.parse(lines[0]!)
      expect(header).toMatchObject({
        kind: "workspace",
        format: "ecds-workspace/1",
        workspace: "key:source",
        counts: { transactions: 1, products: 1, notes: 1, screenings: 1 }
      })
      expect(records(lines).map((line) => JSON.parse(line))).toEqual([
        { kind: "transaction", record: transaction },
        { kind: "product", record: product },
        { kind: "note", record: note },
        { kind: "screening", record: screening }
      ])

      const summary = yield* exporter.import("user:restored", lines)
      expect(summary).toEqual({ transactions: 1, products: 1, notes: 1, screenings: 1 })
      const restored = yield* exporter.export("user:restored")
      expect(records(restored)).toEqual(records(lines))
      // importing twice replaces by key instead of duplicating
      yield* exporter.import("user:restored", lines)
      expect(records(yield* exporter.export("user:restored"))).toEqual(records(lines))
    }))

  it.effect("rejects a file with an invalid line and writes none of it", () =>
    Effect.gen(function*() {
      const exporter = yield* WorkspaceExport.WorkspaceExport
      const good = JSON.stringify({ kind: "product", record: product })
      const bad = JSON.stringify({ kind: "product", record: { ...product, jurisdiction: "OTHER" } })
      const failure = yield* Effect.flip(exporter.import("key:rejected", [good, bad]))
      expect(failure._tag).toBe("InvalidExportLine")
      expect(failure._tag === "InvalidExportLine" && failure.line).toBe(2)
      expect(failure.message).toMatch(/^line 2 is not a workspace record: .*jurisdiction/)
      expect(records(yield* exporter.export("key:rejected"))).toEqual([])

      const notJson = WorkspaceExport.parseLines(["{", good])
      expect(Either.isLeft(notJson) && notJson.left.line).toBe(1)
      const misplacedHeader = WorkspaceExport.parseLines([
        good,
        JSON.stringify({
          kind: "workspace",
          format: "ecds-workspace/1",
          workspace: "x",
          exported_at: "2026-01-01T00:00:00.000Z",
          counts: { transactions: 0, products: 0, notes: 0, screenings: 0 }
        })
      ])
      expect(Either.isLeft(misplacedHeader) && misplacedHeader.left.message).toMatch(/header belongs on the first/)
    }))
}, WorkspaceExport.layer)
