import { Chunk, Effect, Either, Layer, Stream } from "effect"
import { existsSync, readFileSync } from "node:fs"
import * as DataGeneration from "../src/services/DataGeneration.ts"
import * as RegulatoryStatus from "../src/services/RegulatoryStatus.ts"
import * as Screening from "../src/services/Screening.ts"
import { load } from "../src/services/screening/LoadedList.ts"

/**
 * `POST /api/csl/batch`'s work in process on the real list (`../shared/data/csl/consolidated.json`,
 * or `CSL_FILE`): 1,000 names taken from the list (every 20th entry, one letter dropped from every
 * other name, so half are misspelt), screened as one batch, five times; wall and CPU time per run.
 */
const listPath = process.env.CSL_FILE ?? "../shared/data/csl/consolidated.json"

const misspelt = (name: string, at: number) => {
  if (at % 2 === 0 || name.length < 8) return name
  const cut = Math.floor(name.length / 2)
  return name.slice(0, cut) + name.slice(cut + 1)
}

export const run = async () => {
  if (!existsSync(listPath)) return { skipped: `no list at ${listPath} (set CSL_FILE)` }
  const text = readFileSync(listPath, "utf8")
  const loaded = load(text, new Date().toISOString())
  if (Either.isLeft(loaded)) return { skipped: "the list did not load" }
  const entries = loaded.right.entries
  const names = Array.from({ length: 1000 }, (_, i) => misspelt(entries[(i * 20) % entries.length]!.record.name, i))
  const lines = names.map((name, i) => ({ line: i + 1, name: name.slice(0, 512) }))

  const program = Effect.gen(function*() {
    const screening = yield* Screening.Screening
    const runs: Array<{ wallMillis: number; cpuMillis: number; potentialMatches: number }> = []
    for (let round = 0; round < 5; round++) {
      const cpu = process.cpuUsage()
      const started = performance.now()
      const batch = yield* screening.batch(lines, {})
      const outcomes = Chunk.toReadonlyArray(yield* Stream.runCollect(batch.results))
      const used = process.cpuUsage(cpu)
      runs.push({
        wallMillis: Math.round(performance.now() - started),
        cpuMillis: Math.round((used.user + used.system) / 1000),
        potentialMatches: outcomes.filter((o) => o._tag === "Screened" && o.response.result === "potential_match")
          .length
      })
    }
    return runs
  })
  const runs = await Effect.runPromise(
    program.pipe(
      Effect.provide(
        Screening.layerFromText(text).pipe(
          Layer.provide(Layer.mergeAll(DataGeneration.layer, RegulatoryStatus.layer))
        )
      )
    )
  )
  const sorted = [...runs].sort((a, b) => a.wallMillis - b.wallMillis)
  return {
    names: 1000,
    entries: entries.length,
    runs,
    medianWallMillis: sorted[2]!.wallMillis,
    medianCpuMillis: [...runs].sort((a, b) => a.cpuMillis - b.cpuMillis)[2]!.cpuMillis,
    goal: "under 1,000 ms in process"
  }
}
