import { Console, Effect } from "effect"
import { arg, CommandFailed, flag, group, leaf, load } from "./Command.ts"
import * as Progress from "./Progress.ts"
import { loadConfig } from "./Startup.ts"

const shownProblems = 50

const importCommand = leaf({
  name: "import",
  summary: "import enforcement documents (metadata.json and PDFs) into the archive",
  details: "Records merge by id into the current archive; a running service picks the new archive up\n" +
    "within seconds. Every record is validated first: any problem aborts with nothing written.",
  args: [{ name: "dir", description: "a directory holding metadata.json and the PDFs it names" }],
  options: { replace: { type: "flag", description: "start the archive afresh instead of merging" } },
  run: (input) =>
    Effect.gen(function*() {
      const config = yield* loadConfig
      const [ArchiveStore, { importDirectory, ImportRejected }, { archiveRoot }] = yield* load(() =>
        Promise.all([
          import("../services/enforcement/ArchiveStore.ts"),
          import("../services/enforcement/Import.ts"),
          import("../services/EnforcementLake.ts")
        ])
      )
      const store = ArchiveStore.make(archiveRoot(config.dataDir))
      const progress = Progress.start("enforcement import", "records")
      const report = yield* Effect.tryPromise({
        try: () =>
          importDirectory(store, arg(input, "dir"), {
            replace: flag(input, "replace"),
            onRecord: (done, total) => progress.update(done, total)
          }),
        catch: (error) =>
          new CommandFailed({
            message: error instanceof ImportRejected
              ? [
                ...error.problems.slice(0, shownProblems).map((problem) => `error: ${problem}`),
                ...(error.problems.length > shownProblems
                  ? [`… and ${error.problems.length - shownProblems} more`]
                  : []),
                "nothing was imported"
              ].join("\n")
              : `import failed: ${error instanceof Error ? error.message : String(error)}`
          })
      }).pipe(Effect.ensuring(Effect.sync(progress.stop)))
      for (const warning of report.warnings) yield* Console.error(`warning: ${warning}`)
      yield* Console.log(JSON.stringify({
        generation: report.generation,
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
