import { Effect } from "effect"
import { Note, NoteDeleted, NoteInput, NoteListParams, NotePage, NoteRef } from "../../domain/workspace/Notes.ts"
import { Notes } from "../../services/workspace/Notes.ts"
import * as Tool from "../Tool.ts"
import { inWorkspace, json, reads, writes } from "./WorkspaceTool.ts"

/** Enterprise, MCP only: the caller's own notes pinned to a CFR citation, an ECCN or a country. */
export const addRegulatoryNote = Tool.make({
  name: "add_regulatory_note",
  title: "Add note",
  description: "Pin a note to one of cfr, eccn, country; get_eccn and get_country_chart_row return it in " +
    "`_meta[\"svc/workspace_notes\"]`.",
  version: "1.0.0",
  enterprise: true,
  annotations: { ...writes("Add note"), idempotentHint: false },
  input: NoteInput,
  output: json(Note),
  run: (input) => inWorkspace((workspace) => Effect.flatMap(Notes, (store) => store.add(workspace, input)))
})

export const listRegulatoryNotes = Tool.make({
  name: "list_regulatory_notes",
  title: "List notes",
  description: "Notes, newest first: `{ notes, count, next_cursor }`.",
  version: "1.0.0",
  enterprise: true,
  annotations: reads("List notes"),
  input: NoteListParams,
  output: json(NotePage),
  run: (params) => inWorkspace((workspace) => Effect.flatMap(Notes, (store) => store.list(workspace, params)))
})

export const deleteRegulatoryNote = Tool.make({
  name: "delete_regulatory_note",
  title: "Delete note",
  description: "Delete a note by id.",
  version: "1.0.0",
  enterprise: true,
  annotations: writes("Delete note", true),
  input: NoteRef,
  output: json(NoteDeleted),
  run: ({ id }) =>
    inWorkspace((workspace) =>
      Effect.flatMap(Notes, (store) => Effect.as(store.remove(workspace, id), { id, deleted: true }))
    )
})

export const noteTools = [addRegulatoryNote, listRegulatoryNotes, deleteRegulatoryNote] as const
