import { Console, Effect, Layer, Logger, LogLevel } from "effect"
import { AppConfig } from "../services/AppConfig.ts"
import { arg, CommandFailed, flag, group, leaf, load, text } from "./Command.ts"
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
      const [Store, ArchiveRepo, { importDirectory, ImportRejected }, ArchiveUpgrade] = yield* load(() =>
        Promise.all([
          import("../layers/Store.ts"),
          import("../services/enforcement/ArchiveRepo.ts"),
          import("../services/enforcement/Import.ts"),
          import("../services/enforcement/ArchiveUpgrade.ts")
        ])
      )
      const progress = Progress.start("enforcement import", "records")
      const report = yield* Effect.flatMap(ArchiveRepo.make, (repo) =>
        importDirectory(repo, arg(input, "dir"), {
          replace: flag(input, "replace"),
          onRecord: (done, total) => progress.update(done, total)
        })).pipe(
          // the previous version's archive first, as a start would: an import into the empty archive
          // before the first start would otherwise leave it stranded
          Effect.provide(
            Layer.provideMerge(ArchiveUpgrade.layer, Store.fromConfig).pipe(
              Layer.provide(Layer.succeed(AppConfig, config))
            )
          ),
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

/** The store, the collectors' HTTP client (proxy-aware) and the configuration, for the commands below. */
const withStore = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const config = yield* loadConfig
    const [Store, Outbound, ArchiveUpgrade] = yield* load(() =>
      Promise.all([
        import("../layers/Store.ts"),
        import("../layers/Outbound.ts"),
        import("../services/enforcement/ArchiveUpgrade.ts")
      ])
    )
    return yield* effect.pipe(
      Effect.provide(
        Layer.mergeAll(Layer.provideMerge(ArchiveUpgrade.layer, Store.fromConfig), Outbound.httpClientNode).pipe(
          Layer.provideMerge(Layer.succeed(AppConfig, config))
        )
      ),
      Logger.withMinimumLogLevel(LogLevel.None),
      Effect.mapError((error) => error instanceof CommandFailed ? error : new CommandFailed({ message: String(error) }))
    )
  })

const collectCommand = leaf({
  name: "collect",
  summary: "collect enforcement documents from their sources into the archive",
  details: "Sources: doj-press-releases, bis-export-violations, bis-charging-letters, ddtc-consent-agreements\n" +
    "(all by default). Requests name the operator (ENFORCEMENT_COLLECTOR_CONTACT) and are spaced\n" +
    "(ENFORCEMENT_REQUEST_SPACING_MS); listings are conditional, so only new and changed documents are\n" +
    "fetched. Prints one JSON report per source; exits 1 when any source failed.",
  options: { source: { type: "text", placeholder: "<list>", description: "comma-separated source ids" } },
  run: (input) =>
    Effect.gen(function*() {
      const config = yield* loadConfig
      const contact = config.enforcementCollection.contact
      if (contact._tag === "None") {
        return yield* new CommandFailed({
          message: "ENFORCEMENT_COLLECTOR_CONTACT is not set: collectors name the operator and a contact e-mail in " +
            "their User-Agent, e.g. ENFORCEMENT_COLLECTOR_CONTACT=\"Acme Corp ops@acme.example\""
        })
      }
      const [Collection] = yield* load(() => Promise.all([import("../services/EnforcementCollection.ts")]))
      const wanted = text(input, "source")?.split(",").map((id) => id.trim()).filter((id) => id !== "")
      const progress = Progress.start("enforcement collect", "files")
      const reports = yield* withStore(Effect.gen(function*() {
        const collectors = yield* Collection.liveCollectors(config, contact.value)
        const unknown = (wanted ?? []).filter((id) => !collectors.some((collector) => collector.id === id))
        if (unknown.length > 0) {
          return yield* new CommandFailed({
            message: `unknown source ${unknown.join(", ")}; one of ${collectors.map((c) => c.id).join(", ")}`
          })
        }
        const service = yield* Collection.make(collectors, config.enforcementCollection.spacingMillis)
        return yield* service.collect({
          ...(wanted === undefined ? {} : { sources: wanted }),
          onProgress: (source, done, total) => progress.update(done, total, source)
        })
      })).pipe(Effect.ensuring(Effect.sync(progress.stop)))
      for (const report of reports) yield* Console.log(JSON.stringify(report))
      const failed = reports.filter((report) => report.status === "failed")
      if (failed.length > 0) {
        return yield* new CommandFailed({
          message: `failed: ${failed.map((r) => `${r.source}: ${r.error}`).join("; ")}`
        })
      }
    })
})

const reparseCommand = leaf({
  name: "reparse",
  summary: "re-parse stored enforcement PDFs after a parser upgrade",
  details: "Re-reads every stored PDF parsed by an older parser version (or every one with --all) and\n" +
    "records the new parse status, text and fields.",
  options: { all: { type: "flag", description: "re-parse every stored PDF, whatever its parser version" } },
  run: (input) =>
    Effect.gen(function*() {
      const config = yield* loadConfig
      const [Collection] = yield* load(() => Promise.all([import("../services/EnforcementCollection.ts")]))
      const progress = Progress.start("enforcement reparse", "files")
      const result = yield* withStore(Effect.flatMap(
        Collection.make([], config.enforcementCollection.spacingMillis),
        (service) =>
          service.reparse({ all: flag(input, "all"), onProgress: (done, total) => progress.update(done, total) })
      )).pipe(Effect.ensuring(Effect.sync(progress.stop)))
      yield* Console.log(JSON.stringify(result))
    })
})

export const enforcement = group({
  name: "enforcement",
  summary: "the enforcement document archive",
  commands: [importCommand, collectCommand, reparseCommand]
})
