// `npm run sync`: fills the eCFR snapshot store (logic in src/services/ecfr/Sync.ts).
import { FetchHttpClient } from "@effect/platform"
import { Presets, SingleBar } from "cli-progress"
import { Effect, Layer, Logger, LogLevel } from "effect"
import * as AppConfig from "../src/services/AppConfig.ts"
import * as Sync from "../src/services/ecfr/Sync.ts"

const options = Sync.parseArgs(process.argv.slice(2))
if (typeof options === "string") {
  console.error(options)
  process.exit(2)
}
const bar = new SingleBar({ format: "eCFR sync [{bar}] {value}/{total} parts | {status}" }, Presets.shades_classic)
bar.start(options.parts.length, 0, { status: options.from ? `importing from ${options.from}` : "downloading" })
const results = await Sync.sync(options, (result) => bar.increment({ status: `part ${result.part} ${result.outcome}` }))
  .pipe(
    Effect.provide(Layer.merge(AppConfig.layer, FetchHttpClient.layer)),
    Logger.withMinimumLogLevel(LogLevel.None),
    Effect.runPromise
  )
bar.stop()
for (const result of results) console.log(`part ${result.part}: ${result.outcome} (${result.detail})`)
const failed = results.filter((r) => r.outcome === "failed").length
console.log(`${results.length - failed} of ${results.length} parts stored`)
process.exit(failed === 0 ? 0 : 1)
