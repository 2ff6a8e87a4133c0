import { Clock, Effect } from "effect"
import type { PartCacheState } from "../../domain/Cfr.ts"
import { UpstreamUnavailable } from "../../domain/Problem.ts"
import { type SupportedPartInfo, supportedParts } from "../../domain/Service.ts"
import type { DataGenerationShape } from "../DataGeneration.ts"
import type { Served } from "../EcfrSource.ts"
import { UpstreamError } from "../Upstream.ts"
import { decodeFailure, type EcfrArchive } from "./Archive.ts"
import { alone, type LocalPart, type PartFillsShape } from "./PartFills.ts"
import * as SingleFlight from "./SingleFlight.ts"
import { buildSnapshot, type Snapshot } from "./Snapshot.ts"
import type { SnapshotStore, StoredMeta } from "./SnapshotStore.ts"

export interface MirrorOptions {
  /** How long a snapshot counts as current after the upstream last confirmed it. */
  readonly freshForMillis: number
  /** After a failed upstream attempt, how long before the next request may try again. */
  readonly retryFailedAfterMillis: number
  /** How long the titles' latest issue dates are reused between checks. */
  readonly issueDatesTtlMillis: number
  /**
   * The longest a request waits for a part that is not stored (UPSTREAM_DEADLINE_SECONDS): then it
   * is answered 503 while the download goes on for the requests after it.
   */
  readonly requestDeadlineMillis: number
  /**
   * After a part that is not stored failed to download, requests answer 503 at once for this long,
   * doubling with each further failure up to `retryFailedAfterMillis`: a down upstream is not asked
   * again by every request.
   */
  readonly missingBackoffMillis: number
}

export const defaultOptions: MirrorOptions = {
  freshForMillis: 60 * 60 * 1000,
  retryFailedAfterMillis: 60 * 1000,
  issueDatesTtlMillis: 60 * 1000,
  requestDeadlineMillis: 8_000,
  missingBackoffMillis: 2_000
}

export type RefreshOutcome = "updated" | "unchanged"

/** The snapshots of the supported parts: filled on first use, revalidated, persisted. */
export interface Mirror {
  /**
   * The part's snapshot. A missing part is fetched (one upstream fetch however many callers wait);
   * an expired one is served at once and revalidated in the background; when the upstream fails,
   * the stored snapshot answers marked stale. Fails only when there is nothing to serve.
   */
  readonly get: (part: number) => Effect.Effect<Served<Snapshot>, UpstreamUnavailable>
  /** Checks the upstream now; `force` downloads the part even when its issue date is unchanged. */
  readonly refresh: (part: number, options: { readonly force: boolean }) => Effect.Effect<RefreshOutcome, UpstreamError>
  /** The snapshots of a title's parts that are stored, without contacting the upstream. */
  readonly stored: (title: number) => Effect.Effect<ReadonlyArray<Snapshot>>
  readonly report: Effect.Effect<ReadonlyArray<PartCacheState>>
}

interface Slot {
  readonly info: SupportedPartInfo
  snapshot: Snapshot | undefined
  meta: StoredMeta | undefined
  /** Last upstream confirmation (epoch ms); 0 when never. */
  verifiedAt: number
  failure: { readonly at: number; readonly detail: string } | undefined
  /** Failed downloads since the last success. */
  failures: number
}

const iso = (millis: number) => new Date(millis).toISOString()

export const make = (deps: {
  readonly archive: EcfrArchive
  readonly store: SnapshotStore
  readonly generation: DataGenerationShape
  readonly options?: MirrorOptions
  /** Who downloads a part: this instance alone by default, or one of the instances sharing a store. */
  readonly fills?: PartFillsShape
}) =>
  Effect.gen(function*() {
    const { archive, generation, store } = deps
    const options = deps.options ?? defaultOptions
    const fills = deps.fills ?? alone
    const scope = yield* Effect.scope
    const flights = SingleFlight.make(scope)
    const index = yield* store.index
    const slots = new Map<number, Slot>(supportedParts.map((info) => {
      const meta = index.get(info.part)
      const verifiedAt = meta === undefined ? 0 : Date.parse(meta.verifiedAt) || 0
      return [info.part, { info, snapshot: undefined, meta, verifiedAt, failure: undefined, failures: 0 }]
    }))
    const slotOf = (part: number) => {
      const slot = slots.get(part)
      if (slot === undefined) throw new Error(`part ${part} is not mirrored`)
      return slot
    }

    let issueDates: { readonly at: number; readonly dates: ReadonlyMap<number, string> } | undefined
    const latestIssueDate = (title: number) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        if (issueDates === undefined || now - issueDates.at >= options.issueDatesTtlMillis) {
          issueDates = { at: now, dates: yield* flights.run("titles", archive.issueDates) }
        }
        const date = issueDates.dates.get(title)
        if (date === undefined) return yield* decodeFailure(archive.name, `no issue date for title ${title}`)
        return date
      })

    /** The served headers change when a part turns stale or recovers: cached responses must go. */
    const setFailure = (slot: Slot, failure: Slot["failure"]) =>
      Effect.suspend(() => {
        const changed = (slot.failure === undefined) !== (failure === undefined) && slot.snapshot !== undefined
        slot.failure = failure
        slot.failures = failure === undefined ? 0 : slot.failures + 1
        return changed ? generation.bump : Effect.void
      })

    const confirm = (slot: Slot, now: number) =>
      Effect.gen(function*() {
        slot.verifiedAt = now
        yield* setFailure(slot, undefined)
        if (slot.meta === undefined) return
        slot.meta = { ...slot.meta, verifiedAt: iso(now) }
        yield* store.touch(slot.meta).pipe(
          Effect.catchAll((error) => Effect.logWarning("could not record eCFR check", { error: error.message }))
        )
      })

    /** Serves `snapshot` from now on, verified at `verifiedAt`, with its copy in the store. */
    const keep = (slot: Slot, snapshot: Snapshot, verifiedAt: number, from: "eCFR" | "shared mirror") =>
      Effect.gen(function*() {
        const { part } = slot.info
        slot.meta = yield* store.save(snapshot, iso(verifiedAt)).pipe(
          Effect.catchAll((error) =>
            Effect.as(
              Effect.logError("could not store eCFR snapshot; serving it from memory", { part, error: error.message }),
              undefined
            )
          )
        )
        slot.snapshot = snapshot
        yield* confirm(slot, verifiedAt)
        yield* generation.bump
        yield* Effect.logInfo("eCFR part mirrored", {
          part,
          issueDate: snapshot.issueDate,
          sections: snapshot.sections.length,
          from
        })
      })

    /** A snapshot another instance fetched (undefined: the one held is current), as `PartFills` hands it over. */
    const adopt = (slot: Slot, snapshot: Snapshot | undefined, verifiedAt: number) =>
      Effect.gen(function*() {
        if (snapshot === undefined) {
          yield* confirm(slot, verifiedAt)
          return "unchanged" as const
        }
        const sameContent = snapshot.contentHash === slot.snapshot?.contentHash
        yield* keep(slot, snapshot, verifiedAt, "shared mirror")
        return sameContent ? "unchanged" as const : "updated" as const
      })

    const localPart = (slot: Slot): LocalPart => ({
      info: slot.info,
      snapshot: () => slot.snapshot,
      fetchedAt: () => (slot.snapshot ?? slot.meta)?.fetchedAt,
      adopt: (snapshot, verifiedAt) => adopt(slot, snapshot, verifiedAt)
    })

    const download = (slot: Slot, force: boolean) =>
      Effect.gen(function*() {
        const { part, title } = slot.info
        const date = yield* latestIssueDate(title)
        const now = yield* Clock.currentTimeMillis
        if (!force && slot.snapshot?.issueDate === date) {
          yield* confirm(slot, now)
          return "unchanged" as const
        }
        const [structure, xml, versions] = yield* Effect.all([
          archive.structure(title, date, part),
          archive.partXml(title, date, part),
          archive.versions(title, part)
        ], { concurrency: 3 })
        const snapshot = yield* buildSnapshot({
          info: slot.info,
          issueDate: date,
          fetchedAt: iso(now),
          structure,
          xml,
          versions
        }).pipe(Effect.mapError((error) => decodeFailure(archive.name, error.message)))
        const sameContent = snapshot.contentHash === slot.snapshot?.contentHash
        if (sameContent && snapshot.issueDate === slot.snapshot?.issueDate) {
          yield* confirm(slot, now)
          return "unchanged" as const
        }
        yield* keep(slot, snapshot, now, "eCFR")
        // a new issue of the title that leaves this part as it was still replaces the snapshot: the
        // issue date it is served under must be the current one
        return sameContent ? "unchanged" as const : "updated" as const
      })

    /** Another instance's download of the part failed a moment ago: its failure counts as this one's. */
    const failedElsewhere = (slot: Slot) =>
      Effect.fail(
        new UpstreamError({
          upstream: archive.name,
          reason: "unreachable",
          detail: `another instance's download of part ${slot.info.part} failed just now`
        })
      )

    const refresh = (part: number, refreshOptions: { readonly force: boolean }) => {
      const slot = slotOf(part)
      const { force } = refreshOptions
      return flights.run(
        `refresh:${part}`,
        Effect.flatMap(Clock.currentTimeMillis, (requestedAt) =>
          fills.refresh(
            localPart(slot),
            { force, requestedAt, freshForMillis: options.freshForMillis },
            download(slot, force),
            failedElsewhere(slot)
          )).pipe(
            Effect.tapError((error) =>
              Effect.gen(function*() {
                yield* setFailure(slot, { at: yield* Clock.currentTimeMillis, detail: error.detail })
                yield* Effect.logWarning("eCFR refresh failed", { part: slot.info.part, reason: error.reason })
              })
            )
          )
      )
    }

    const loadStored = (slot: Slot) =>
      flights.run(
        `load:${slot.info.part}`,
        Effect.gen(function*() {
          if (slot.snapshot !== undefined || slot.meta === undefined) return
          const snapshot = yield* store.load(slot.info)
          if (snapshot === undefined) slot.meta = undefined
          else slot.snapshot = snapshot
        })
      )

    const needsCheck = (slot: Slot, now: number) =>
      now - slot.verifiedAt >= options.freshForMillis &&
      (slot.failure === undefined || now - slot.failure.at >= options.retryFailedAfterMillis) &&
      !flights.inFlight(`refresh:${slot.info.part}`)

    const unavailable = (part: number, why: string) =>
      new UpstreamUnavailable({ upstream: "ecfr", detail: `part ${part} is not stored yet and ${why}. Retry later.` })

    /**
     * A part with no snapshot: downloaded (shared by every waiting request, in the mirror's scope so
     * it outlives them), waited for at most the request deadline, and after a failure not asked for
     * again until the backoff has passed.
     */
    const fill = (slot: Slot) =>
      Effect.gen(function*() {
        const part = slot.info.part
        const now = yield* Clock.currentTimeMillis
        const failure = slot.failure
        if (failure !== undefined && !flights.inFlight(`refresh:${part}`)) {
          const backoff = Math.min(
            options.retryFailedAfterMillis,
            options.missingBackoffMillis * 2 ** (slot.failures - 1)
          )
          const retryAt = failure.at + backoff
          if (now < retryAt) {
            return yield* unavailable(
              part,
              `eCFR failed ${Math.round((now - failure.at) / 1000)} s ago (${failure.detail}); the next attempt ` +
                `is in ${Math.ceil((retryAt - now) / 1000)} s`
            )
          }
        }
        yield* refresh(part, { force: false }).pipe(
          // a failed refresh may still have left a snapshot (the shared mirror's): served, marked stale
          Effect.catchAll((error) =>
            slot.snapshot === undefined
              ? Effect.fail(unavailable(part, `eCFR could not be reached (${error.detail})`))
              : Effect.void
          ),
          Effect.timeoutFail({
            duration: options.requestDeadlineMillis,
            onTimeout: () =>
              unavailable(
                part,
                `eCFR has not delivered it within ${Math.round(options.requestDeadlineMillis / 1000)} s; the ` +
                  "download goes on"
              )
          })
        )
      })

    const get = (part: number) =>
      Effect.gen(function*() {
        const slot = slotOf(part)
        if (slot.snapshot === undefined) yield* loadStored(slot)
        if (slot.snapshot === undefined) yield* fill(slot)
        const now = yield* Clock.currentTimeMillis
        if (needsCheck(slot, now)) yield* Effect.forkIn(Effect.ignore(refresh(part, { force: false })), scope)
        const snapshot = slot.snapshot!
        return {
          value: snapshot,
          issueDate: snapshot.issueDate,
          fetchedAt: snapshot.fetchedAt,
          stale: slot.failure !== undefined
        }
      })

    const stored = (title: number) =>
      Effect.gen(function*() {
        const found: Array<Snapshot> = []
        for (const slot of slots.values()) {
          if (slot.info.title !== title) continue
          if (slot.snapshot === undefined) yield* loadStored(slot)
          if (slot.snapshot !== undefined) found.push(slot.snapshot)
        }
        return found
      })

    const report = Effect.map(Clock.currentTimeMillis, (now) =>
      [...slots.values()].map((slot): PartCacheState => {
        const meta = slot.snapshot ?? slot.meta
        const state = meta === undefined
          ? "empty" as const
          : slot.failure !== undefined
          ? "stale" as const
          : now - slot.verifiedAt < options.freshForMillis
          ? "fresh" as const
          : "expired" as const
        return {
          part: slot.info.part,
          title: slot.info.title,
          state,
          loaded: slot.snapshot !== undefined,
          refreshing: flights.inFlight(`refresh:${slot.info.part}`),
          issueDate: meta?.issueDate ?? null,
          fetchedAt: meta?.fetchedAt ?? null,
          verifiedAt: slot.verifiedAt > 0 ? iso(slot.verifiedAt) : null,
          lastFailure: slot.failure === undefined ? null : { at: iso(slot.failure.at), detail: slot.failure.detail }
        }
      }))

    return { get, refresh, stored, report } satisfies Mirror
  })
