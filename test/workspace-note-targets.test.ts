import { SqlClient } from "@effect/sql/SqlClient"
import { expect, it } from "@effect/vitest"
import { Context, Effect, Layer, Redacted } from "effect"
import { targetKey } from "../src/domain/workspace/Notes.ts"
import { migrated } from "../src/layers/Store.ts"
import * as Postgres from "../src/services/store/Postgres.ts"
import * as WorkspaceExport from "../src/services/workspace/Export.ts"
import * as Notes from "../src/services/workspace/Notes.ts"
import * as NoteTargets from "../src/services/workspace/NoteTargets.ts"
import * as Tables from "../src/services/workspace/Tables.ts"
import { databaseConfig, embeddedMigratedEngine, forEachEngine, scratchDatabase } from "./support/SqlEngines.ts"
import { note } from "./support/WorkspaceRecords.ts"

const eccnTarget = [{ eccn: "5A002.A.1" }] as const
const ids = (notes: ReadonlyArray<{ readonly id: string }>) => notes.map((found) => found.id)

forEachEngine("notes beside an answer", (it, engine) => {
  it.effect("finds a note added by the service and one written by the workspace import, in their workspace only", () =>
    Effect.gen(function*() {
      const notes = yield* Notes.Notes
      const exporter = yield* WorkspaceExport.WorkspaceExport
      expect(yield* notes.beside("key:reader", eccnTarget)).toEqual([])
      const added = yield* notes.add("key:reader", { target: { eccn: "5A002.a.1" }, text: "ask export control" })
      expect(ids(yield* notes.beside("key:reader", eccnTarget))).toEqual([added.id])
      // the import writes its notes without the notes service
      const [header] = yield* exporter.export("key:empty")
      yield* exporter.import("key:imported", [header!, JSON.stringify({ kind: "note", record: note })])
      expect(ids(yield* notes.beside("key:imported", [note.target]))).toEqual([note.id])
      expect(yield* notes.beside("key:stranger", eccnTarget)).toEqual([])
    }))

  it.effect(`a target without notes is ${engine === "embedded" ? "answered from the index" : "asked of the store"}`, () =>
    Effect.gen(function*() {
      const targets = yield* NoteTargets.NoteTargets
      expect(targets.mayHold("key:nobody", [{ kind: "eccn", key: "0A999" }])).toBe(engine === "postgresql")
    }))
}, Layer.mergeAll(Notes.layer, WorkspaceExport.layer))

it.effect("the embedded index counts the notes stored before the store was opened", () =>
  Effect.gen(function*() {
    // a note written by an earlier run of the service, on the same database
    const database = yield* Layer.build(embeddedMigratedEngine)
    const earlier = yield* Layer.build(NoteTargets.layerShared)
    yield* Tables.writeNote(
      Context.get(database, SqlClient),
      Context.get(earlier, NoteTargets.NoteTargets),
      "key:before-start",
      note
    )
    const opened = yield* Layer.build(
      Notes.layer.pipe(
        Layer.provideMerge(NoteTargets.layerExclusive),
        Layer.provideMerge(Layer.succeedContext(database))
      )
    )
    const targets = Context.get(opened, NoteTargets.NoteTargets)
    expect(targets.mayHold("key:before-start", [targetKey(note.target)])).toBe(true)
    expect(targets.mayHold("key:before-start", [{ kind: "eccn", key: "0A999" }])).toBe(false)
    expect(targets.mayHold("key:someone-else", [targetKey(note.target)])).toBe(false)
    expect(ids(yield* Context.get(opened, Notes.Notes).beside("key:before-start", [note.target]))).toEqual([note.id])
  }).pipe(Effect.scoped), { timeout: 60_000 })

it.effect(
  "on PostgreSQL, an instance finds the note another instance wrote after it started",
  () =>
    Effect.gen(function*() {
      const { url } = yield* scratchDatabase
      const instance = Layer.build(
        Notes.layer.pipe(
          Layer.provideMerge(migrated(Postgres.layer(Redacted.make(url), databaseConfig(url)), "postgresql"))
        )
      )
      const reader = yield* Effect.provide(Notes.Notes, yield* instance)
      const writer = yield* Effect.provide(Notes.Notes, yield* instance)
      expect(yield* reader.beside("key:shared", eccnTarget)).toEqual([])
      const added = yield* writer.add("key:shared", { target: { eccn: "5A002" }, text: "written elsewhere" })
      expect(ids(yield* reader.beside("key:shared", eccnTarget))).toEqual([added.id])
    }).pipe(Effect.scoped),
  { timeout: 60_000 }
)
