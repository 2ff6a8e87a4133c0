import { Console, Effect, Layer, Logger, LogLevel } from "effect"
import { isSupportedPart, supportedPartNumbers } from "../domain/Service.ts"
import { AppConfig } from "../services/AppConfig.ts"
import { savedParts } from "../services/ecfr/DirectoryArchive.ts"
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

export const sync = leaf({
  name: "sync",
  summary: "fill the eCFR snapshot store under DATA_DIR now",
  details: "Downloads the supported parts from ECFR_BASE_URL (even unchanged ones), or imports them from a\n" +
    "directory of saved eCFR API responses (layout in docs/operations.md). A running service picks\n" +
    "the parts up when restarted. Exits 1 when a part could not be stored.",
  options: {
    parts: {
      type: "text",
      placeholder: "<list>",
      description: "comma-separated parts, e.g. 740,774 (default: all 12)"
    },
    from: { type: "text", placeholder: "<dir>", description: "import saved eCFR API responses from this directory" }
  },
  run: (input) =>
    Effect.gen(function*() {
      const config = yield* loadConfig
      const from = text(input, "from")
      const parts = yield* partsToSync(input, from)
      const [Sync, Outbound] = yield* load(() =>
        Promise.all([import("../services/ecfr/Sync.ts"), import("../layers/Outbound.ts")])
      )
      const progress = Progress.start("eCFR sync", "parts")
      let done = 0
      const results = yield* Sync.sync({ from, parts }, (result) => {
        done++
        progress.update(done, parts.length, `part ${result.part} ${result.outcome}`)
      }).pipe(
        Effect.provide(Layer.merge(Layer.succeed(AppConfig, config), Outbound.httpClientNode)),
        Logger.withMinimumLogLevel(LogLevel.None),
        Effect.ensuring(Effect.sync(progress.stop))
      )
      for (const result of results) yield* Console.log(`part ${result.part}: ${result.outcome} (${result.detail})`)
      const failed = results.filter((result) => result.outcome === "failed").length
      yield* Console.log(`${results.length - failed} of ${results.length} parts stored in ${config.dataDir}`)
      if (failed > 0) return yield* new CommandFailed({ message: `${failed} part(s) could not be stored` })
    })
})
