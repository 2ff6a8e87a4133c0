import { Console, Effect, Layer, Logger, LogLevel } from "effect"
import { AppConfig } from "../services/AppConfig.ts"
import { arg, CommandFailed, flag, group, leaf, load } from "./Command.ts"
import * as Progress from "./Progress.ts"
import { loadConfig } from "./Startup.ts"

const shownProblems = 50

const importCommand = leaf({
  name: "import",
  summary: "import enforcement documents (metadata.json and PDFs) into the archive",
  details: "Records merge by id into the archive in the store (DATABASE_URL, else the embedded database,\n" +
    "which a running service holds: stop it first). Every record is validated first: any problem aborts\n" +
    "with nothing written.",
  args: [{ name: "dir", description: "a directory holding metadata.json and the PDFs it names" }],
  options: { replace: { type: "flag", description: "start the archive afresh instead of merging" } },
  run: (input) =>
    Effect.gen(function*() {
      const config = yield* loadConfig
      const [Store, ArchiveRepo, { importDirectory, ImportRejected }] = yield* load(() =>
        Promise.all([
          import("../layers/Store.ts"),
          import("../services/enforcement/ArchiveRepo.ts"),
          import("../services/enforcement/Import.ts")
        ])
      )
      const progress = Progress.start("enforcement import", "records")
      const report = yield* Effect.flatMap(ArchiveRepo.make, (repo) =>
        importDirectory(repo, arg(input, "dir"), {
          replace: flag(input, "replace"),
          onRecord: (done, total) => progress.update(done, total)
        })).pipe(
          Effect.provide(Store.fromConfig.pipe(Layer.provide(Layer.succeed(AppConfig, config)))),
          // stdout carries the JSON report alone
          Logger.withMinimumLogLevel(LogLevel.None),
          Effect.mapError((error) =>
            new CommandFailed({
              message: error instanceof ImportRejected
                ? [
                  ...error.problems.slice(0, shownProblems).map((problem) => `error: ${problem}`),
                  ...(error.problems.length > shownProblems
                    ? [`… and ${error.problems.length - shownProblems} more`]
                    : []),
                  "nothing was imported"
                ].join("\n")
                : `import failed: ${String(error)}`
            })
          ),
          Effect.ensuring(Effect.sync(progress.stop))
        )
      for (const warning of report.warnings) yield* Console.error(`warning: ${warning}`)
      yield* Console.log(JSON.stringify({
        imported: report.imported,
        total: report.total,
        by_parse_status: report.byStatus
      }))
    })
})

export const enforcement = group({
  name: "enforcement",
  summary: "the enforcement document archive",
  commands: [importCommand]
})
