import { Effect, Option, Schema } from "effect"
import { workspaceOf, type WorkspaceRequired, workspaceRequired } from "../../domain/workspace/Workspace.ts"
import * as Tool from "../Tool.ts"

/**
 * What the workspace tools share: the caller's workspace (from the principal of the call, never
 * from arguments), a lean listing (the answer as JSON text, its schema described in the tool's
 * description rather than an output schema, to keep `tools/list` small) and their annotations.
 */
export const inWorkspace = <A, E, R>(
  f: (workspace: string) => Effect.Effect<A, E, R>
): Effect.Effect<A, E | WorkspaceRequired, R | Tool.Caller> =>
  Effect.flatMap(Tool.Caller, (caller) =>
    Option.match(workspaceOf(caller), {
      onNone: (): Effect.Effect<A, E | WorkspaceRequired, R> => Effect.fail(workspaceRequired),
      onSome: f
    }))

/** The value encoded by its domain schema, as compact JSON text. */
export const json = <A, I>(schema: Schema.Schema<A, I, never>): Tool.ToolOutput<A> => {
  const encode = Schema.encodeSync(schema)
  return Tool.text("application/json", (value) => JSON.stringify(encode(value)))
}

export const reads = (title: string): Tool.ToolAnnotations => Tool.readOnly(title)

export const writes = (title: string, destructive = false): Tool.ToolAnnotations => ({
  title,
  readOnlyHint: false,
  destructiveHint: destructive,
  idempotentHint: !destructive,
  openWorldHint: false
})
