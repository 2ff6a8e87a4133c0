import type { HttpClient } from "@effect/platform"
import type { Duration } from "effect"
import { Clock, Context, Effect, Layer, Option, Ref } from "effect"
import type {
  EnforcementAction,
  EnforcementFeed as Feed,
  EnforcementFeedParams,
  EnforcementSourceStatus
} from "../domain/Enforcement.ts"
import { AppConfig } from "./AppConfig.ts"
import { bisChargingLettersFeed, ddtcConsentAgreementsFeed } from "./enforcement/ArchiveFeedSources.ts"
import { userAgent } from "./enforcement/collectors/Collector.ts"
import { dojPressReleases } from "./enforcement/DojSource.ts"
import { containsWords } from "./enforcement/Extract.ts"
import { bisNotices, ddtcNotices } from "./enforcement/FederalRegisterSources.ts"
import type { FeedSource, SourceBatch } from "./enforcement/FeedSource.ts"
import { EnforcementLake } from "./EnforcementLake.ts"
import { cachedLookup, describeFailure } from "./research/FailSoft.ts"
import * as Upstream from "./Upstream.ts"

/**
 * The live enforcement feed: actions from each source, normalized to one record shape, filtered
 * in memory and sorted newest first. Sources are cached about six hours and fail independently: a
 * failing source serves its last good answer (marked `stale`) or contributes nothing (`error`),
 * and `sources` says which happened. Party filters are applied here and never logged.
 */
export interface EnforcementFeedShape {
  readonly actions: (params: EnforcementFeedParams) => Effect.Effect<Feed>
  /** Every source's latest actions, unfiltered, with its status, in source order. */
  readonly bySource: Effect.Effect<ReadonlyArray<SourceLook>>
}

/**
 * What one source answered: its actions as fetched (the same array until the source is fetched
 * again, so callers may key derived data on it) and its status.
 */
export interface SourceLook {
  readonly actions: ReadonlyArray<EnforcementAction>
  readonly status: EnforcementSourceStatus
}

export class EnforcementFeed extends Context.Tag("app/EnforcementFeed")<EnforcementFeed, EnforcementFeedShape>() {}

/** SPEC: the Federal Register and DOJ sources are cached about six hours. */
export const cacheTtl: Duration.DurationInput = "6 hours"

export const defaultLimit = 50

interface Good {
  readonly batch: SourceBatch
  readonly fetchedAt: string
}

const matches = (params: EnforcementFeedParams) => (action: EnforcementAction) =>
  (params.action_type === undefined || action.action_type === params.action_type) &&
  (params.since === undefined || action.date >= params.since) &&
  (params.party === undefined ||
    (action.party !== null && containsWords(action.party, params.party)) ||
    containsWords(action.title, params.party)) &&
  (params.statute === undefined || action.statutes.some((statute) => containsWords(statute, params.statute!)))

const newestFirst = (a: EnforcementAction, b: EnforcementAction) =>
  a.date === b.date ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.date < b.date ? 1 : -1

export const make = (sources: ReadonlyArray<FeedSource>, ttl: Duration.DurationInput = cacheTtl) =>
  Effect.gen(function*() {
    const watched = yield* Effect.forEach(sources, (source) =>
      Effect.gen(function*() {
        const lastGood = yield* Ref.make<Good | undefined>(undefined)
        const latest = yield* cachedLookup({
          capacity: 1,
          ttl: source.ttl ?? ttl,
          lookup: (_: "latest") =>
            Effect.zipWith(source.fetch, Clock.currentTimeMillis, (batch, now): Good => ({
              batch,
              fetchedAt: new Date(now).toISOString()
            }))
        })
        return { source, lastGood, latest: latest("latest") }
      }))

    const look = ({ lastGood, latest, source }: typeof watched[number]) =>
      latest.pipe(
        Effect.tap((good) => Ref.set(lastGood, good)),
        Effect.map((good) => ({ good, status: "ok" as const, error: undefined })),
        Effect.catchAll((failure) =>
          Effect.gen(function*() {
            yield* Effect.logWarning("enforcement source failed", { source: source.id, reason: failure.reason })
            const error = source.describe?.(failure) ?? describeFailure(source.upstreamLabel, failure)
            const last = yield* Ref.get(lastGood)
            return last === undefined
              ? { good: undefined, status: "error" as const, error }
              : { good: last, status: "stale" as const, error }
          })
        ),
        Effect.map(({ error, good, status }): SourceLook => ({
          actions: good?.batch.actions ?? [],
          status: {
            id: source.id,
            agency: source.agency,
            description: source.description,
            status,
            actions: good?.batch.actions.length ?? 0,
            scanned: good?.batch.scanned ?? 0,
            coverage_from: good?.batch.coverageFrom ?? null,
            fetched_at: good?.fetchedAt ?? null,
            ...(error === undefined ? {} : { error })
          }
        }))
      )

    const actions = (params: EnforcementFeedParams): Effect.Effect<Feed> =>
      Effect.gen(function*() {
        const consulted = watched.filter(({ source }) => params.agency === undefined || source.agency === params.agency)
        const looks = yield* Effect.forEach(consulted, look, { concurrency: "unbounded" })
        const seen = new Set<string>()
        const selected = looks
          .flatMap((result) => result.actions)
          .filter((action) => !seen.has(action.id) && seen.add(action.id))
          .filter(matches(params))
          .sort(newestFirst)
          .slice(0, params.limit ?? defaultLimit)
        return { actions: selected, count: selected.length, sources: looks.map((result) => result.status) }
      })

    const bySource = Effect.forEach(watched, look, { concurrency: "unbounded" })

    return { actions, bySource } satisfies EnforcementFeedShape
  })

/**
 * The live sources: BIS and DDTC notices from the Federal Register, DOJ press releases, the BIS
 * charging-letters page, and the DDTC consent agreements the archive holds.
 */
export const liveSources = (policy: Pick<Upstream.UpstreamPolicy, "timeout" | "retries" | "breaker"> = {}) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const lake = yield* EnforcementLake
    const federalRegister = yield* Upstream.make({
      name: "federal-register-enforcement",
      baseUrl: config.federalRegisterBaseUrl,
      timeout: "15 seconds",
      retries: 1,
      ...policy
    })
    const doj = yield* Upstream.make({
      name: "doj-news",
      baseUrl: config.dojBaseUrl,
      timeout: "15 seconds",
      retries: 1,
      ...policy
    })
    const bis = yield* Upstream.make({
      name: "bis.gov",
      baseUrl: config.enforcementCollection.bisBaseUrl,
      timeout: "15 seconds",
      retries: 1,
      ...Option.match(config.enforcementCollection.contact, {
        onNone: () => ({}),
        onSome: (contact) => ({ userAgent: userAgent(contact) })
      }),
      ...policy
    })
    return [
      bisNotices(federalRegister),
      ddtcNotices(federalRegister),
      dojPressReleases(doj),
      bisChargingLettersFeed(bis, config.enforcementCollection.spacingMillis),
      ddtcConsentAgreementsFeed(lake)
    ]
  })

export const layer: Layer.Layer<EnforcementFeed, never, AppConfig | HttpClient.HttpClient | EnforcementLake> = Layer
  .effect(
    EnforcementFeed,
    Effect.flatMap(liveSources(), (sources) => make(sources))
  )

/** The live sources with another client policy and cache lifetime (tests use short timeouts). */
export const layerWith = (
  policy: Pick<Upstream.UpstreamPolicy, "timeout" | "retries" | "breaker">,
  ttl: Duration.DurationInput = cacheTtl
): Layer.Layer<EnforcementFeed, never, AppConfig | HttpClient.HttpClient | EnforcementLake> =>
  Layer.effect(EnforcementFeed, Effect.flatMap(liveSources(policy), (sources) => make(sources, ttl)))
