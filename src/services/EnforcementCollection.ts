import type { HttpClient } from "@effect/platform"
import type { SqlClient } from "@effect/sql/SqlClient"
import { Context, Duration, Effect, Layer, Option, Schedule } from "effect"
import { AppConfig, type AppConfigShape } from "./AppConfig.ts"
import * as ArchiveRepo from "./enforcement/ArchiveRepo.ts"
import { type CollectionReport, collectSource, emptyReport, type Progress, reparse } from "./enforcement/Collect.ts"
import { bisCases, bisChargingLetters } from "./enforcement/collectors/BisPages.ts"
import { type Collector, userAgent } from "./enforcement/collectors/Collector.ts"
import { ddtcAgreements } from "./enforcement/collectors/DdtcAgreements.ts"
import { dojReleases } from "./enforcement/collectors/DojReleases.ts"
import * as Upstream from "./Upstream.ts"

/**
 * The collectors that fill the enforcement archive (DOJ releases, the BIS case catalog and
 * charging letters, DDTC consent agreements), run on their own schedules by the service and on
 * demand by `ecds enforcement collect`. Collection names the operator in its User-Agent
 * (`ENFORCEMENT_COLLECTOR_CONTACT`); without one the service collects nothing on its own.
 */
export interface EnforcementCollectionShape {
  readonly sources: ReadonlyArray<{ readonly id: string; readonly agency: string; readonly description: string }>
  /** Collects the named sources (all by default), one after another. */
  readonly collect: (options?: {
    readonly sources?: ReadonlyArray<string>
    readonly onProgress?: Progress
  }) => Effect.Effect<ReadonlyArray<CollectionReport>>
  readonly reparse: (options?: {
    readonly all?: boolean
    readonly onProgress?: (done: number, total: number) => void
  }) => Effect.Effect<{ readonly reparsed: number; readonly by_parse_status: Record<string, number> }>
}

export class EnforcementCollection
  extends Context.Tag("app/EnforcementCollection")<EnforcementCollection, EnforcementCollectionShape>()
{}

export { userAgent }

/** The live collectors over the configured upstreams, with the given per-request policy (tests shorten it). */
export const liveCollectors = (
  config: AppConfigShape,
  contact: string,
  policy: Pick<Upstream.UpstreamPolicy, "timeout" | "retries" | "breaker"> = {}
) =>
  Effect.gen(function*() {
    const client = (name: string, baseUrl: string) =>
      Upstream.make({ name, baseUrl, timeout: "60 seconds", retries: 2, userAgent: userAgent(contact), ...policy })
    const collection = config.enforcementCollection
    const bis = yield* client("bis.gov", collection.bisBaseUrl)
    return [
      dojReleases(yield* client("justice.gov", config.dojBaseUrl)),
      bisCases(bis),
      bisChargingLetters(bis),
      ddtcAgreements(yield* client("pmddtc.state.gov", collection.ddtcBaseUrl))
    ]
  })

export const make = (collectors: ReadonlyArray<Collector>, spacingMillis: number) =>
  Effect.gen(function*() {
    const repo = yield* ArchiveRepo.make
    const collect: EnforcementCollectionShape["collect"] = (options = {}) =>
      Effect.forEach(
        collectors.filter((collector) => options.sources === undefined || options.sources.includes(collector.id)),
        (collector) => collectSource(repo, collector, { spacingMillis, onProgress: options.onProgress })
      )
    return {
      sources: collectors.map(({ agency, description, id }) => ({ id, agency, description })),
      collect,
      reparse: (options = {}) =>
        reparse(repo, options).pipe(
          Effect.tapError((error) => Effect.logError("enforcement reparse failed", { cause: String(error) })),
          Effect.orDie
        )
    } satisfies EnforcementCollectionShape
  })

/** Runs each collector on its own schedule for as long as the layer lives (first run a minute after start). */
const scheduled = (collectors: ReadonlyArray<Collector>, service: EnforcementCollectionShape) =>
  Effect.forEach(collectors, (collector) =>
    service.collect({ sources: [collector.id] }).pipe(
      Effect.delay(Duration.minutes(1)),
      Effect.repeat(Schedule.spaced(collector.every)),
      Effect.forkScoped
    ), { discard: true })

/**
 * The service with the live collectors, scheduled when an operator contact is configured; without
 * one, `collect` answers every source as failed with the reason.
 */
export const layer: Layer.Layer<EnforcementCollection, never, AppConfig | SqlClient | HttpClient.HttpClient> = Layer
  .scoped(
    EnforcementCollection,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const spacing = config.enforcementCollection.spacingMillis
      return yield* Option.match(config.enforcementCollection.contact, {
        onNone: () => make([], spacing).pipe(Effect.map((service) => withoutContact(service))),
        onSome: (contact) =>
          Effect.gen(function*() {
            const collectors = yield* liveCollectors(config, contact)
            const service = yield* make(collectors, spacing)
            yield* scheduled(collectors, service)
            return service
          })
      })
    })
  )

const withoutContact = (service: EnforcementCollectionShape): EnforcementCollectionShape => ({
  ...service,
  collect: () =>
    Effect.succeed([{
      ...emptyReport("all"),
      status: "failed",
      error: "ENFORCEMENT_COLLECTOR_CONTACT is not set: collectors name the operator in their User-Agent"
    }])
})

/** The collectors given (tests, benchmarks), unscheduled. */
export const layerWith = (
  collectors: Effect.Effect<ReadonlyArray<Collector>, never, AppConfig | HttpClient.HttpClient>
): Layer.Layer<EnforcementCollection, never, AppConfig | SqlClient | HttpClient.HttpClient> =>
  Layer.effect(
    EnforcementCollection,
    Effect.gen(function*() {
      const config = yield* AppConfig
      return yield* make(yield* collectors, config.enforcementCollection.spacingMillis)
    })
  )
