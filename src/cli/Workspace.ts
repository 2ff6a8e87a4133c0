import { Console, Effect, Layer } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { AppConfig } from "../services/AppConfig.ts"
import type { WorkspaceExportShape } from "../services/workspace/Export.ts"
import { arg, CommandFailed, group, leaf, load, type Parsed, text } from "./Command.ts"
import { loadConfig } from "./Startup.ts"

const workspace = {
  name: "workspace",
  description: "the workspace id: key:<key id>, user:<user id> or svc:<service workspace>"
}

/** Runs one export/import against the configured store (DATABASE_URL, else the embedded database). */
const withExporter = <A>(
  f: (
    exporter: WorkspaceExportShape
  ) => Effect.Effect<A, { readonly message: string }>
) =>
  Effect.gen(function*() {
    const config = yield* loadConfig
    const [Store, Export, Logging] = yield* load(() =>
      Promise.all([
        import("../layers/Store.ts"),
        import("../services/workspace/Export.ts"),
        import("../layers/Logging.ts")
      ])
    )
    // logs go to stderr: an export on standard output is the file itself
    const layer = Export.layer.pipe(
      Layer.provide(Store.fromConfig),
      Layer.provideMerge(Logging.layerStderr),
      Layer.provide(Layer.succeed(AppConfig, config))
    )
    return yield* Effect.flatMap(Export.WorkspaceExport, f).pipe(
      Effect.provide(layer),
      Effect.mapError((error) => new CommandFailed({ message: error.message ?? String(error) }))
    )
  })

const fileFailure = (what: string) => (cause: unknown) =>
  new CommandFailed({ message: `${what}: ${cause instanceof Error ? cause.message : String(cause)}` })

export const workspaceCommand = group({
  name: "workspace",
  summary: "export or import a workspace's records (JSON Lines)",
  details: "Transactions, products, regulatory notes and screenings of one workspace, for auditors and for " +
    "leaving the service. An import replaces records with the same key and writes nothing when a line is invalid.",
  commands: [
    leaf({
      name: "export",
      summary: "write every record of a workspace as JSON Lines (standard output, or --out)",
      args: [workspace],
      options: { out: { type: "text", placeholder: "<file>", description: "write to this file instead" } },
      run: (input: Parsed) =>
        Effect.gen(function*() {
          const lines = yield* withExporter((exporter) => exporter.export(arg(input, "workspace")))
          const out = text(input, "out")
          if (out === undefined) return yield* Console.log(lines.join("\n"))
          yield* Effect.try({ try: () => writeFileSync(out, `${lines.join("\n")}\n`), catch: fileFailure(out) })
          yield* Console.error(`wrote ${lines.length - 1} records to ${out}`)
        })
    }),
    leaf({
      name: "import",
      summary: "restore a JSON Lines export into a workspace",
      args: [workspace, { name: "file", description: "a file written by `ecds workspace export`" }],
      run: (input: Parsed) =>
        Effect.gen(function*() {
          const file = arg(input, "file")
          const content = yield* Effect.try({ try: () => readFileSync(file, "utf8"), catch: fileFailure(file) })
          const summary = yield* withExporter((exporter) =>
            exporter.import(arg(input, "workspace"), content.split(/\r?\n/))
          )
          yield* Console.log(
            `imported ${summary.transactions} transactions, ${summary.products} products, ` +
              `${summary.notes} notes, ${summary.screenings} screenings`
          )
        })
    })
  ]
})
