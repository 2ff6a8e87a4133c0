import { Clock, Effect } from "effect"
import { access, constants, mkdir } from "node:fs/promises"
import { AppConfig } from "../AppConfig.ts"
import { EcfrReachability } from "../EcfrReachability.ts"
import { EcfrSource } from "../EcfrSource.ts"
import { EnforcementLake } from "../EnforcementLake.ts"
import { contribution } from "../Readiness.ts"
import { Screening } from "../Screening.ts"
import { SkillsMirror } from "../SkillsMirror.ts"
import { StoreHealth } from "../store/StoreHealth.ts"

/** Whole seconds since an ISO time, or null when there is none. */
const ageOf = (now: number, iso: string | null) =>
  iso === null ? null : Math.max(0, Math.round((now - Date.parse(iso)) / 1000))

/**
 * The eCFR mirror: each part's snapshot (state, issue, age) and eCFR's reachability. Without a
 * stored part and without eCFR, no regulatory endpoint can answer: the service is unavailable.
 */
export const ecfr = contribution(
  "ecfr",
  true,
  Effect.gen(function*() {
    const report = yield* (yield* EcfrSource).cacheReport
    const upstream = yield* (yield* EcfrReachability).check
    const now = yield* Clock.currentTimeMillis
    const parts = report.parts.map((part) => ({
      part: part.part,
      state: part.state,
      issue_date: part.issueDate,
      age_seconds: ageOf(now, part.fetchedAt),
      last_failure: part.lastFailure?.detail ?? null
    }))
    const stored = parts.filter((part) => part.state !== "empty")
    const stale = parts.filter((part) => part.state === "stale")
    const reachable = upstream === "ok"
    const newest = stored.map((part) => part.issue_date ?? "").sort().at(-1)
    const details = { upstream, stored_parts: stored.length, parts }
    if (!reachable && stored.length === 0) {
      return {
        status: "unavailable" as const,
        summary:
          "eCFR cannot be reached and no part is stored: run `ecds sync`, or `ecds sync --import <bundle>` offline",
        details
      }
    }
    if (!reachable && stored.length < parts.length) {
      return {
        status: "degraded" as const,
        summary: `eCFR cannot be reached; ${stored.length} of ${parts.length} parts stored, the others answer 503`,
        details
      }
    }
    if (stale.length > 0) {
      return {
        status: "degraded" as const,
        summary: `${stale.length} part(s) served from a stored copy because eCFR failed (marked X-Data-Stale)`,
        details
      }
    }
    return {
      status: "ok" as const,
      summary: stored.length === parts.length
        ? `${stored.length} of ${parts.length} parts stored; newest issue ${newest}`
        : `${stored.length} of ${parts.length} parts stored; the others are fetched from eCFR on first use`,
      details
    }
  })
)

/** The screening list: without one, `/api/csl` and `search_csl` answer 503. */
export const screening = contribution(
  "screening_list",
  false,
  Effect.gen(function*() {
    const status = yield* (yield* Screening).status
    const config = yield* AppConfig
    const now = yield* Clock.currentTimeMillis
    const details = {
      source: config.cslFile._tag === "Some" ? "CSL_FILE" : "CSL_BULK_URL",
      entries: status.entries,
      published_at: status.publishedAt,
      loaded_at: status.loadedAt,
      age_seconds: ageOf(now, status.loadedAt),
      stale: status.stale
    }
    if (!status.loaded) {
      return {
        status: "unavailable" as const,
        summary: "no screening list loaded yet: screening answers 503 until its source can be read",
        details
      }
    }
    return status.stale
      ? { status: "degraded" as const, summary: "the latest list refresh failed; the last good list answers", details }
      : { status: "ok" as const, summary: `${status.entries} entries loaded`, details }
  })
)

/** The skills source: bundled, or a GitHub repository mirrored in memory. */
export const skills = contribution(
  "skills",
  false,
  Effect.gen(function*() {
    const config = yield* AppConfig
    const source = config.skillsSource._tag === "GitHub"
      ? `github:${config.skillsSource.owner}/${config.skillsSource.repo}@${config.skillsSource.ref}`
      : "bundled"
    return yield* (yield* SkillsMirror).snapshot.pipe(
      Effect.match({
        onFailure: () => ({
          status: "unavailable" as const,
          summary: "no copy of the skills is held: the skills endpoints answer 503",
          details: { source, skills: 0 }
        }),
        onSuccess: (snapshot) => ({
          status: snapshot.collection.skills.size === 20 ? "ok" as const : "degraded" as const,
          summary: `${snapshot.collection.skills.size} of 20 skills published`,
          details: { source, skills: snapshot.collection.skills.size }
        })
      })
    )
  })
)

/**
 * The enforcement document archive: its coverage per source. A source whose latest collection
 * failed (a page that changed, an upstream down) is an alert: the archive still answers from what
 * it holds, so the service is only degraded.
 */
export const enforcementArchive = contribution(
  "enforcement_archive",
  false,
  Effect.gen(function*() {
    const stats = yield* (yield* EnforcementLake).stats
    const sources = stats.by_source ?? []
    const failing = sources.filter((source) => source.last_error !== null)
    const details = {
      documents: stats.total,
      imported_at: stats.imported_at,
      by_parse_status: stats.by_parse_status,
      by_source: sources
    }
    if (failing.length > 0) {
      return {
        status: "degraded" as const,
        summary: `enforcement collection failing for ${failing.map((source) => source.source).join(", ")}: ` +
          failing.map((source) => source.last_error).join("; ").slice(0, 500),
        details
      }
    }
    return stats.total === 0
      ? {
        status: "degraded" as const,
        summary: "the archive is empty: set ENFORCEMENT_COLLECTOR_CONTACT to collect it, import documents " +
          "with `ecds enforcement import <dir>`, or import a data bundle (`ecds sync --import <file>`)",
        details
      }
      : {
        status: "ok" as const,
        summary: `${stats.total} documents (${stats.by_parse_status.failed} failed to parse, ` +
          `${stats.by_parse_status.pending} pending)`,
        details
      }
  })
)

/**
 * The SQL store (a real `SELECT 1` through `StoreHealth`) and `DATA_DIR`, where snapshots and the
 * screening list are kept. Not critical: without the database, regulatory reads are still answered
 * from the snapshots and only writes (renders, keys, sign-ins) answer 503, so a load balancer should
 * keep sending reads.
 */
export const store = contribution(
  "store",
  false,
  Effect.gen(function*() {
    const config = yield* AppConfig
    const health = yield* (yield* StoreHealth).check
    const writable = yield* Effect.promise(() =>
      mkdir(config.dataDir, { recursive: true }).then(() => access(config.dataDir, constants.W_OK)).then(
        () => true,
        () => false
      )
    )
    const details = {
      engine: health.engine,
      latency_millis: health.latencyMillis,
      ...(health.error === undefined ? {} : { error: health.error }),
      data_dir_writable: writable
    }
    const database = health.engine === "embedded" ? "the embedded database" : "PostgreSQL"
    if (!health.ok) {
      return {
        status: "unavailable" as const,
        summary: `${database} does not answer: writes (renders, keys, sign-ins) answer 503, reads are still served`,
        details
      }
    }
    return writable
      ? { status: "ok" as const, summary: `${database} answers; DATA_DIR is writable`, details }
      : {
        status: "degraded" as const,
        summary: "DATA_DIR is not writable: eCFR snapshots and the screening list cannot be refreshed",
        details
      }
  })
)

/** Every check the shared services contribute; deployments add their own (the store). */
export const shared = [ecfr, screening, skills, enforcementArchive] as const
