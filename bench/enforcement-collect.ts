import { FetchHttpClient } from "@effect/platform"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { migrated } from "../src/layers/Store.ts"
import * as AppConfig from "../src/services/AppConfig.ts"
import * as EnforcementCollection from "../src/services/EnforcementCollection.ts"
import * as Pglite from "../src/services/store/Pglite.ts"
import { casesPath, sourcesRoute, type SourcesState } from "../test/support/EnforcementSources.ts"
import { startFakeUpstream } from "../test/support/FakeUpstream.ts"
import { textPdf } from "../test/support/Pdf.ts"

/** The size SPEC gives for the BIS export-violations catalog. */
const cases = 1100
const contact = "Benchmark Operator bench@example.test"

const peakMemory = () => {
  let rss = 0
  let heap = 0
  const sample = () => {
    const usage = process.memoryUsage()
    rss = Math.max(rss, usage.rss)
    heap = Math.max(heap, usage.heapUsed)
  }
  const timer = setInterval(sample, 50)
  return () => {
    clearInterval(timer)
    sample()
    return { rss_mb: Math.round(rss / 1048576), heap_mb: Math.round(heap / 1048576) }
  }
}

/**
 * Collection of the 1,100-case catalog from a local fake (50 cases a page, one two-paragraph PDF
 * each) into the embedded store: listing, storing, fetching and parsing every PDF. In the same
 * run: a second, incremental collection (the listing answers 304) and a bare download of the same
 * pages and files with `fetch`, as the floor the network alone costs.
 */
export const run = async () => {
  const files = new Map<number, Uint8Array>()
  const list = []
  for (let n = 1; n <= cases; n++) {
    files.set(
      10_000 + n,
      await textPdf([{
        heading: "ORDER RELATING TO A SYNTHETIC RESPONDENT",
        paragraphs: [
          `In the Matter of:\nSynthetic Benchmark Respondent ${n} Ltd.`,
          `The respondent exported items classified under ECCN 3A001 without a license on March 4, 2098, in ` +
          `violation of the Export Control Reform Act, and shall pay a civil penalty of $${n},000.`
        ]
      }])
    )
    list.push({
      caseNumber: `B${String(n).padStart(5, "0")}`,
      respondent: `Synthetic Benchmark Respondent ${n} Ltd.`,
      date: `2098-${String((n % 12) + 1).padStart(2, "0")}-${String((n % 28) + 1).padStart(2, "0")}`,
      media: 10_000 + n
    })
  }
  const state: SourcesState = {
    cases: list,
    letters: [],
    agreements: [],
    releases: [],
    files,
    perPage: 50,
    pageOverride: undefined,
    delay: 0
  }
  const upstream = await startFakeUpstream([sourcesRoute(state)])
  const config = AppConfig.layerWith({
    logLevel: "none",
    enforcementCollection: {
      contact: Option.some(contact),
      bisBaseUrl: upstream.url,
      ddtcBaseUrl: upstream.url,
      spacingMillis: 0
    }
  })
  const runtime = ManagedRuntime.make(
    EnforcementCollection.layerWith(
      Effect.flatMap(
        AppConfig.AppConfig,
        (c) =>
          Effect.map(
            EnforcementCollection.liveCollectors(c, contact),
            (all) => all.filter((collector) => collector.id === "bis-export-violations")
          )
      )
    ).pipe(
      Layer.provideMerge(Layer.mergeAll(migrated(Pglite.layer({}), "embedded"), FetchHttpClient.layer)),
      Layer.provideMerge(config),
      Layer.orDie
    )
  )
  try {
    const collect = () =>
      runtime.runPromise(Effect.flatMap(EnforcementCollection.EnforcementCollection, (service) => service.collect()))
    await runtime.runPromise(Effect.void)

    const stopMemory = peakMemory()
    const started = performance.now()
    const [first] = await collect()
    const firstMillis = performance.now() - started
    const memory = stopMemory()

    const againStarted = performance.now()
    const [again] = await collect()
    const againMillis = performance.now() - againStarted

    const bareStarted = performance.now()
    for (let page = 0; page * state.perPage < cases; page++) {
      await (await fetch(`${upstream.url}${casesPath}?page=${page}`)).text()
    }
    for (const media of files.keys()) await (await fetch(`${upstream.url}/media/${media}/download`)).arrayBuffer()
    const bareMillis = performance.now() - bareStarted

    return {
      description: `collection of the ${cases}-case BIS catalog from a local fake (50 a page, one PDF each) into ` +
        "the embedded store, with every PDF parsed; an incremental run (304) and a bare download of the same " +
        "bytes in the same run",
      goal: "first collection >= 20 items/s; incremental < 1 s",
      first: {
        status: first?.status,
        listed: first?.listed,
        files: first?.filesFetched,
        outcomes: first?.byOutcome,
        seconds: Math.round(firstMillis / 100) / 10,
        items_per_second: Math.round((cases / firstMillis) * 1000 * 10) / 10,
        peak: memory
      },
      incremental: { not_modified: again?.notModified, seconds: Math.round(againMillis / 10) / 100 },
      bare_download_seconds: Math.round(bareMillis / 100) / 10,
      ratio_first_over_bare: Math.round((firstMillis / bareMillis) * 10) / 10
    }
  } finally {
    await runtime.dispose()
    await upstream.close()
  }
}
