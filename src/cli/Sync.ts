import { Console, Effect, Layer, Logger, LogLevel } from "effect"
import type { BundleManifest } from "../domain/Bundle.ts"
import { isSupportedPart, supportedPartNumbers } from "../domain/Service.ts"
import { AppConfig } from "../services/AppConfig.ts"
import { savedParts } from "../services/ecfr/DirectoryArchive.ts"
import type { PublishOutcome } from "../services/ecfr/PartFills.ts"
import { CommandFailed, leaf, load, type Parsed, text, UsageError } from "./Command.ts"
import * as Progress from "./Progress.ts"
import { loadConfig } from "./Startup.ts"

const command = "ecds sync"

const partsOption = (input: Parsed) =>
  Effect.suspend(() => {
    const value = text(input, "parts")
    if (value === undefined) return Effect.succeed(undefined)
    const parts = value.split(",").map((part) => part.trim())
    const unsupported = parts.filter((part) => !/^\d+$/.test(part) || !isSupportedPart(Number(part)))
    return unsupported.length === 0
      ? Effect.succeed(parts.map(Number))
      : Effect.fail(
        new UsageError({
          command,
          message: `${command}: --parts must list supported parts (${supportedPartNumbers.join(", ")}); ` +
            `not supported: ${unsupported.join(", ")}`
        })
      )
  })

/** The parts to fill: those named, else every part (or, from a directory, every part it holds). */
const partsToSync = (input: Parsed, from: string | undefined) =>
  Effect.gen(function*() {
    const named = yield* partsOption(input)
    if (from === undefined) return named ?? supportedPartNumbers
    const saved = yield* savedParts(from).pipe(Effect.mapError((message) => new CommandFailed({ message })))
    if (named !== undefined) return named
    if (saved.length === 0) return yield* new CommandFailed({ message: `${from}: holds no saved part XML` })
    const absent = supportedPartNumbers.filter((part) => !saved.includes(part))
    if (absent.length > 0) yield* Console.error(`${from} holds no part ${absent.join(", ")}; syncing the others`)
    return saved
  })

const enforcementSummary = (section: BundleManifest["enforcement"]) =>
  section === undefined
    ? "no enforcement archive"
    : `${section.documents} enforcement documents (${
      section.pdfs === "included"
        ? "with their PDFs"
        : `texts only: the ${section.pdf_bytes} bytes of PDFs exceed the bundle's PDF budget`
    })`

const skillsSummary = (section: BundleManifest["skills"]) =>
  section === undefined
    ? ""
    : `; ${section.files} skill files mirrored from ${section.source} (commit ${section.commit.slice(0, 12)})`

/** On PostgreSQL: which parts the other instances can now take (`PartFills.publish`). */
const sharedSummary = (outcomes: ReadonlyArray<PublishOutcome>) => {
  const published = outcomes.filter((outcome) => outcome === "published").length
  const kept = outcomes.filter((outcome) => outcome === "newer kept").length
  if (published + kept === 0) return ""
  return `\n${published} eCFR part(s) shared with the instances on PostgreSQL` +
    (kept === 0 ? "" : `; ${kept} not shared: the instances hold later downloads of them`)
}

const bundleFailure = (error: { readonly message: string }) => new CommandFailed({ message: error.message })

const exportBundle = (file: string, from: string | undefined) =>
  Effect.gen(function*() {
    const config = yield* loadConfig
    const [Bundle, Outbound, Store] = yield* load(() =>
      Promise.all([
        import("../services/bundle/Bundle.ts"),
        import("../layers/Outbound.ts"),
        import("../layers/Store.ts")
      ])
    )
    const progress = Progress.start("bundle export", "parts")
    let done = 0
    const manifest = yield* Bundle.exportBundle(file, {
      from,
      onPart: (result) => progress.update(++done, supportedPartNumbers.length, `part ${result.part} ${result.outcome}`)
    }).pipe(
      Effect.provide(
        Layer.mergeAll(Outbound.httpClientNode, Store.fromConfig).pipe(
          Layer.provideMerge(Layer.succeed(AppConfig, config))
        )
      ),
      Logger.withMinimumLogLevel(LogLevel.None),
      Effect.ensuring(Effect.sync(progress.stop)),
      Effect.mapError(bundleFailure)
    )
    const issues = [...new Set(manifest.ecfr.parts.map((part) => part.issue_date))].sort().join(", ")
    yield* Console.log(
      `wrote ${file}: ${manifest.ecfr.parts.length} eCFR parts (issues ${issues}), the screening list and ` +
        enforcementSummary(manifest.enforcement) + skillsSummary(manifest.skills)
    )
  })

const importBundle = (file: string) =>
  Effect.gen(function*() {
    const config = yield* loadConfig
    const [Bundle, Store] = yield* load(() =>
      Promise.all([import("../services/bundle/Bundle.ts"), import("../layers/Store.ts")])
    )
    const configLayer = Layer.succeed(AppConfig, config)
    // verified and decoded before the store is opened: a damaged bundle writes nothing at all
    const bundle = yield* Bundle.readBundle(file).pipe(Effect.mapError(bundleFailure))
    const progress = Progress.start("bundle import", "parts")
    const { manifest, shared } = yield* Bundle.storeBundle(
      bundle,
      (part, done, total) => progress.update(done, total, `part ${part}`)
    ).pipe(
      Effect.provide(Store.fromConfig.pipe(Layer.provideMerge(configLayer))),
      Logger.withMinimumLogLevel(LogLevel.None),
      Effect.ensuring(Effect.sync(progress.stop)),
      Effect.mapError(bundleFailure)
    )
    yield* Console.log(
      `imported ${file} (made ${manifest.created_at}) into ${config.dataDir}: ${manifest.ecfr.parts.length} eCFR parts` +
        `${manifest.screening_list === null ? "" : ", the screening list"} and ` +
        `${enforcementSummary(manifest.enforcement)}${
          skillsSummary(manifest.skills)
        }; restart a running service to use them` + sharedSummary(shared)
    )
    // the stored skills are served by the mirror of the same source only
    const [Source] = yield* load(() => Promise.all([import("../services/skills/Source.ts")]))
    if (manifest.skills !== undefined && Source.formatSkillsSource(config.skillsSource) !== manifest.skills.source) {
      yield* Console.log(`set SKILLS_SOURCE=${manifest.skills.source} to serve the bundle's skills`)
    }
  })

export const sync = leaf({
  name: "sync",
  summary: "fill the eCFR snapshot store under DATA_DIR now",
  details: "Downloads the supported parts from ECFR_BASE_URL (even unchanged ones), or imports them from a\n" +
    "directory of saved eCFR API responses (layout in docs/operations.md). A running service picks\n" +
    "the parts up when restarted. With DATABASE_URL set, the parts are also published to the eCFR\n" +
    "mirror the instances on that PostgreSQL share (never over a later download), for those that\n" +
    "cannot reach eCFR. Exits 1 when a part could not be stored.\n\n" +
    "For a machine without internet: --export <file> syncs all 12 parts and writes them with the\n" +
    "screening list, the enforcement archive and skills mirrored from GitHub (SKILLS_SOURCE=github:…)\n" +
    "to one bundle (manifest, issue dates, SHA-256 checksums); --import <file> on the other machine\n" +
    "verifies every checksum, then loads it.\n" +
    "Both open the store (DATABASE_URL, else the embedded database: stop a running service first).",
  options: {
    parts: {
      type: "text",
      placeholder: "<list>",
      description: "comma-separated parts, e.g. 740,774 (default: all 12)"
    },
    from: { type: "text", placeholder: "<dir>", description: "import saved eCFR API responses from this directory" },
    export: {
      type: "text",
      placeholder: "<file>",
      description: "then write a data bundle for offline use (see above)"
    },
    import: { type: "text", placeholder: "<file>", description: "load a data bundle instead (no network needed)" }
  },
  run: (input) => {
    const bundleImport = text(input, "import")
    const bundleExport = text(input, "export")
    if (bundleImport !== undefined) {
      return text(input, "from") !== undefined || bundleExport !== undefined || text(input, "parts") !== undefined
        ? Effect.fail(new UsageError({ command, message: `${command}: --import takes no other option` }))
        : importBundle(bundleImport)
    }
    if (bundleExport !== undefined) {
      return text(input, "parts") !== undefined
        ? Effect.fail(new UsageError({ command, message: `${command}: --export writes all 12 parts; drop --parts` }))
        : exportBundle(bundleExport, text(input, "from"))
    }
    return Effect.gen(function*() {
      const config = yield* loadConfig
      const from = text(input, "from")
      const parts = yield* partsToSync(input, from)
      const [Sync, Outbound, Store] = yield* load(() =>
        Promise.all([
          import("../services/ecfr/Sync.ts"),
          import("../layers/Outbound.ts"),
          import("../layers/Store.ts")
        ])
      )
      const progress = Progress.start("eCFR sync", "parts")
      let done = 0
      const results = yield* Sync.sync({ from, parts }, (result) => {
        done++
        progress.update(done, parts.length, `part ${result.part} ${result.outcome}`)
      }).pipe(
        Effect.provide(
          Layer.merge(Store.partFillsFromConfig, Outbound.httpClientNode).pipe(
            Layer.provideMerge(Layer.succeed(AppConfig, config))
          )
        ),
        Logger.withMinimumLogLevel(LogLevel.None),
        Effect.ensuring(Effect.sync(progress.stop)),
        Effect.mapError((error) => new CommandFailed({ message: `the store cannot be opened: ${error.message}` }))
      )
      for (const result of results) yield* Console.log(`part ${result.part}: ${result.outcome} (${result.detail})`)
      const failed = results.filter((result) => result.outcome === "failed").length
      yield* Console.log(`${results.length - failed} of ${results.length} parts stored in ${config.dataDir}`)
      if (failed > 0) return yield* new CommandFailed({ message: `${failed} part(s) could not be stored` })
    })
  }
})
