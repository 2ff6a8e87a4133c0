import { SqlClient } from "@effect/sql/SqlClient"
import { Clock, Context, Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import { decodeCursor, encodeCursor } from "../../domain/workspace/Cursor.ts"
import {
  type Note,
  type NoteInput,
  type NoteListParams,
  type NotePage,
  type NoteTarget,
  targetKey
} from "../../domain/workspace/Notes.ts"
import {
  type InvalidCursor,
  invalidCursor,
  RecordNotFound,
  type StoreUnavailable
} from "../../domain/workspace/Workspace.ts"
import { NoteTargets } from "./NoteTargets.ts"
import { pageOf, storeFailure } from "./Rows.ts"
import { decodeNote, writeNote } from "./Tables.ts"

/** Notes shown beside one official text at most: the newest. */
export const MaxNotesBeside = 20

export interface NotesShape {
  readonly add: (workspace: string, input: NoteInput) => Effect.Effect<Note, StoreUnavailable>
  readonly list: (
    workspace: string,
    params: NoteListParams
  ) => Effect.Effect<NotePage, InvalidCursor | StoreUnavailable>
  readonly remove: (workspace: string, id: string) => Effect.Effect<void, RecordNotFound | StoreUnavailable>
  /**
   * The newest notes pinned to each target (at most `MaxNotesBeside` each), in the order of the
   * targets, for the answers that show them beside the official text: one statement for all targets.
   */
  readonly beside: (
    workspace: string,
    targets: ReadonlyArray<NoteTarget>
  ) => Effect.Effect<ReadonlyArray<Note>, StoreUnavailable>
}

export class Notes extends Context.Tag("app/workspace/Notes")<Notes, NotesShape>() {}

const decode = decodeNote

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient
  const targets = yield* NoteTargets

  const write = (workspace: string, note: Note) => storeFailure(writeNote(sql, targets, workspace, note))

  const add = (workspace: string, input: NoteInput) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const note: Note = {
        ...input,
        id: `note_${randomBytes(8).toString("hex")}`,
        created_at: new Date(now).toISOString()
      }
      yield* write(workspace, note)
      return note
    })

  const list = (workspace: string, params: NoteListParams) =>
    Effect.gen(function*() {
      const limit = params.limit ?? 50
      const after = params.cursor === undefined ? undefined : decodeCursor(params.cursor, 2)
      if (params.cursor !== undefined && after === undefined) return yield* invalidCursor
      const target = params.target === undefined ? undefined : targetKey(params.target)
      const conditions = [
        sql`workspace = ${workspace}`,
        ...(target === undefined ? [] : [sql`kind = ${target.kind}`, sql`key = ${target.key}`]),
        ...(after === undefined ? [] : [
          sql`(created_at, id) < (${after[0]!}, ${after[1]!})`
        ])
      ]
      const rows = yield* storeFailure(sql<{ record: unknown }>`SELECT record FROM workspace_notes
        WHERE ${sql.and(conditions)} ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}`)
      const page = pageOf(rows.map((row) => decode(row.record)), limit)
      const last = page.rows.at(-1)
      return {
        notes: page.rows,
        count: page.rows.length,
        next_cursor: page.more && last !== undefined ? encodeCursor([last.created_at, last.id]) : null
      }
    })

  const remove = (workspace: string, id: string) =>
    Effect.flatMap(
      storeFailure(sql<{ id: string }>`DELETE FROM workspace_notes WHERE workspace = ${workspace} AND id = ${id}
        RETURNING id`),
      (rows) =>
        rows.length === 0
          ? Effect.fail(new RecordNotFound({ message: `No note ${id} in this workspace` }))
          : Effect.void
    )

  // one round trip whatever the number of targets (an answer names one or two): on the embedded
  // engine each statement costs far more than the index lookups it runs, and none at all when the
  // store's index of note targets says none of them holds a note
  const beside = (workspace: string, wanted: ReadonlyArray<NoteTarget>) => {
    const keys = wanted.map(targetKey)
    if (keys.length === 0 || !targets.mayHold(workspace, keys)) return Effect.succeed([])
    const newest = keys.map(({ key, kind }, index) =>
      sql`(SELECT ${sql.literal(String(index))} AS target, created_at, id, record FROM workspace_notes
        WHERE workspace = ${workspace} AND kind = ${kind} AND key = ${key}
        ORDER BY created_at DESC, id DESC LIMIT ${MaxNotesBeside})`
    )
    return Effect.map(
      storeFailure(sql<{ record: unknown }>`SELECT record FROM (${sql.join(" UNION ALL ", false)(newest)}) AS beside
        ORDER BY target, created_at DESC, id DESC`),
      (rows) => rows.map((row) => decode(row.record))
    )
  }

  return { add, list, remove, beside } satisfies NotesShape
})

export const layer = Layer.effect(Notes, make)
