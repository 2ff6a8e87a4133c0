import { Effect } from "effect"
import { Note, NoteDeleted, NoteInput, NoteListParams, NotePage, NoteRef } from "../../domain/workspace/Notes.ts"
import { Notes } from "../../services/workspace/Notes.ts"
import * as Tool from "../Tool.ts"
import { inWorkspace, json, reads, writes } from "./WorkspaceTool.ts"

/** Enterprise, MCP only: the caller's own notes pinned to a CFR citation, an ECCN or a country. */
export const addRegulatoryNote = Tool.make({
  name: "add_regulatory_note",
  title: "Add a regulatory note",
  description: "Pin your team's note to a CFR citation, an ECCN or a country. get_eccn and get_country_chart_row " +
    "return the notes that apply in `_meta[\"svc/workspace_notes\"]`, beside the official text.",
  version: "1.0.0",
  enterprise: true,
  annotations: { ...writes("Add a regulatory note"), idempotentHint: false },
  input: NoteInput,
  output: json(Note),
  run: (input) => inWorkspace((workspace) => Effect.flatMap(Notes, (store) => store.add(workspace, input)))
})

export const listRegulatoryNotes = Tool.make({
  name: "list_regulatory_notes",
  title: "List regulatory notes",
  description: "Your workspace's notes, newest first, optionally for one target: `{ notes, count, next_cursor }`.",
  version: "1.0.0",
  enterprise: true,
  annotations: reads("List regulatory notes"),
  input: NoteListParams,
  output: json(NotePage),
  run: (params) => inWorkspace((workspace) => Effect.flatMap(Notes, (store) => store.list(workspace, params)))
})

export const deleteRegulatoryNote = Tool.make({
  name: "delete_regulatory_note",
  title: "Delete a regulatory note",
  description: "Delete one note of your workspace by id.",
  version: "1.0.0",
  enterprise: true,
  annotations: writes("Delete a regulatory note", true),
  input: NoteRef,
  output: json(NoteDeleted),
  run: ({ id }) =>
    inWorkspace((workspace) =>
      Effect.flatMap(Notes, (store) => Effect.as(store.remove(workspace, id), { id, deleted: true }))
    )
})

export const noteTools = [addRegulatoryNote, listRegulatoryNotes, deleteRegulatoryNote] as const
