import { Context, Effect, Option, Schema } from "effect"
import { Note, NotesMetaKey, type NoteTarget } from "../../domain/workspace/Notes.ts"
import { workspaceOf } from "../../domain/workspace/Workspace.ts"
import { Notes } from "../../services/workspace/Notes.ts"
import * as Tool from "../Tool.ts"

const encodeNotes = Schema.encodeSync(Schema.Array(Note))

/**
 * An official answer with the caller's regulatory notes that apply to it, in the result's `_meta`
 * (`svc/workspace_notes`): beside the official text, never mixed into it, and only for callers with
 * a workspace (anonymous calls read nothing from the store). A store failure leaves the official
 * answer intact and says the notes could not be read.
 */
export const withNotesBeside = <A, E, R>(
  answer: Effect.Effect<A, E, R>,
  targets: (value: A) => ReadonlyArray<NoteTarget>
): Effect.Effect<A | Tool.Annotated<A>, E, R | Tool.Caller | Notes> =>
  // plain combinators, not a generator: every get_eccn and get_country_chart_row runs this
  Effect.flatMap(answer, (value) =>
    Effect.contextWithEffect((context: Context.Context<Tool.Caller | Notes>) => {
      const workspace = workspaceOf(Context.get(context, Tool.Caller))
      if (Option.isNone(workspace)) return Effect.succeed(value)
      return Effect.match(Context.get(context, Notes).beside(workspace.value, targets(value)), {
        onFailure: (error) => new Tool.Annotated(value, { [`${NotesMetaKey}_error`]: error.message }),
        onSuccess: (all) => all.length === 0 ? value : new Tool.Annotated(value, { [NotesMetaKey]: encodeNotes(all) })
      })
    }))
