import { Effect, Schema } from "effect"
import { WorkspaceExport } from "../../services/workspace/Export.ts"
import * as Tool from "../Tool.ts"
import { inWorkspace, reads } from "./WorkspaceTool.ts"

/** The largest export an MCP result carries; beyond it the operator's `ecds workspace export` writes a file. */
export const MaxExportCharacters = 8_000_000

class ExportTooLarge extends Schema.TaggedError<ExportTooLarge>()("ExportTooLarge", { message: Schema.String }) {
  static readonly status = 413
}

/** Enterprise, MCP only: every record of the caller's workspace as JSON Lines. */
export const exportWorkspace = Tool.make({
  name: "export_workspace",
  title: "Export workspace",
  description: "Every workspace record as JSON Lines (`ecds workspace import` restores it).",
  version: "1.0.0",
  enterprise: true,
  annotations: reads("Export workspace"),
  input: Schema.Struct({}),
  output: Tool.text("application/jsonl", (lines: ReadonlyArray<string>) => lines.join("\n")),
  run: () =>
    inWorkspace((workspace) =>
      Effect.flatMap(WorkspaceExport, (exporter) =>
        Effect.filterOrFail(
          exporter.export(workspace),
          (lines) => lines.reduce((size, text) => size + text.length + 1, 0) <= MaxExportCharacters,
          () =>
            new ExportTooLarge({
              message: `The workspace export exceeds ${MaxExportCharacters} characters; ask the operator to run ` +
                "`ecds workspace export` for a file."
            })
        ))
    )
})

export const exportTools = [exportWorkspace] as const
