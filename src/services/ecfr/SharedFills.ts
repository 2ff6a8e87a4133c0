import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Clock, Effect, Either, Layer } from "effect"
import { randomBytes } from "node:crypto"
import type { SupportedPartInfo } from "../../domain/Service.ts"
import type { RefreshOutcome } from "./Mirror.ts"
import { type LocalPart, PartFills, type PartFillsShape, type RefreshRequest } from "./PartFills.ts"
import { fromStored, type Snapshot, type StoredSnapshot, toStored } from "./Snapshot.ts"

export interface SharedFillsOptions {
  /**
   * How long a download may hold its part before another instance may take it over: longer than
   * any download (three eCFR requests of at most 20 s each, in parallel), so only a dead holder's
   * lease runs out.
   */
  readonly leaseMillis: number
  /** How often a waiting instance looks whether the holder has published the part. */
  readonly pollMillis: number
  /**
   * After a failed download, how long no instance asks eCFR for the part again: the instances that
   * waited on it, and any asking meanwhile, answer with that failure (serving their last snapshot,
   * if they have one) instead of each downloading in turn.
   */
  readonly failureHoldMillis: number
}

export const defaultSharedOptions: SharedFillsOptions = {
  leaseMillis: 120_000,
  pollMillis: 500,
  failureHoldMillis: 5_000
}

/** The `holder` of a part's lease row while a failed download holds the part back from everyone. */
const failedHolder = "!failed"

interface Head {
  readonly issueDate: string
  readonly contentHash: string
  readonly fetchedAt: number
  readonly verifiedAt: number
}

const fetchedAtOf = (snapshot: Snapshot) => Date.parse(snapshot.fetchedAt) || 0

/**
 * The eCFR mirror shared through PostgreSQL (tables of migration `store/17`). A refresh first looks
 * at the part's shared row: checked recently enough, and not older than this instance's copy, it is
 * taken without asking eCFR. Otherwise the instance takes the part's lease (one conditional
 * statement), downloads, publishes the snapshot and lets go; instances finding the lease taken wait,
 * polling the row, until it is published or the lease runs out (a dead holder). A failed download
 * keeps the lease for a few seconds as a failure: the waiting instances take that failure as theirs
 * rather than each asking eCFR in turn. When a refresh fails, a shared snapshot downloaded later
 * than the instance's copy (one a sync or bundle import published, say) is taken all the same and
 * served marked stale. Each instance still keeps its own copy in its files, so regulatory reads
 * never need the database; while the database cannot be reached, a refresh downloads by itself, as
 * an instance alone does.
 */
export const make = (options: SharedFillsOptions = defaultSharedOptions) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const holder = randomBytes(9).toString("base64url")
    let unreachable = false

    const head = (part: number) =>
      Effect.map(
        sql<Head>`SELECT issue_date, content_hash, fetched_at, verified_at FROM ecfr_part_snapshots
          WHERE part = ${part}`,
        (rows) => rows[0]
      )

    const load = (info: SupportedPartInfo) =>
      sql<{ readonly snapshot: string; readonly xml: string }>`SELECT snapshot, xml FROM ecfr_part_snapshots
        WHERE part = ${info.part}`.pipe(
        Effect.flatMap((rows) => {
          const row = rows[0]
          if (row === undefined) return Effect.succeed(undefined)
          return Effect.try(() => JSON.parse(row.snapshot) as StoredSnapshot).pipe(
            Effect.flatMap((stored) => fromStored(stored, row.xml, info)),
            Effect.orElseSucceed(() => undefined),
            // a row that does not decode goes: the instance downloads the part and writes it anew
            Effect.tap((snapshot) =>
              snapshot === undefined ? sql`DELETE FROM ecfr_part_snapshots WHERE part = ${info.part}` : Effect.void
            )
          )
        })
      )

    /** Records what this instance fetched or confirmed; never replaces a newer download. */
    const publish: PartFillsShape["publish"] = (snapshot, verifiedAt) =>
      Effect.gen(function*() {
        const confirmed = yield* sql`UPDATE ecfr_part_snapshots SET verified_at = GREATEST(verified_at, ${verifiedAt})
          WHERE part = ${snapshot.part} AND content_hash = ${snapshot.contentHash}
            AND issue_date = ${snapshot.issueDate} RETURNING part`
        if (confirmed.length > 0) return "published" as const
        const row = {
          part: snapshot.part,
          issueDate: snapshot.issueDate,
          contentHash: snapshot.contentHash,
          fetchedAt: fetchedAtOf(snapshot),
          verifiedAt,
          snapshot: JSON.stringify(toStored(snapshot)),
          xml: snapshot.xml
        }
        const written = yield* sql`INSERT INTO ecfr_part_snapshots ${sql.insert(row)}
          ON CONFLICT (part) DO UPDATE SET issue_date = excluded.issue_date, content_hash = excluded.content_hash,
            fetched_at = excluded.fetched_at, verified_at = excluded.verified_at, snapshot = excluded.snapshot,
            xml = excluded.xml
          WHERE ecfr_part_snapshots.fetched_at <= excluded.fetched_at
          RETURNING part`
        return written.length > 0 ? "published" as const : "newer kept" as const
      })

    const lease = (part: number) =>
      Effect.map(
        sql`INSERT INTO ecfr_part_fills (part, holder, lease_until)
          VALUES (${part}, ${holder}, now() + ${options.leaseMillis} * interval '1 millisecond')
          ON CONFLICT (part) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
          WHERE ecfr_part_fills.lease_until < now()
          RETURNING part`,
        (rows) => rows.length > 0
      )

    const release = (part: number) =>
      Effect.ignore(sql`DELETE FROM ecfr_part_fills WHERE part = ${part} AND holder = ${holder}`)

    /** Keeps the lease, no longer as this instance's, until the failure hold has passed. */
    const holdFailure = (part: number) =>
      Effect.ignore(sql`UPDATE ecfr_part_fills SET holder = ${failedHolder},
          lease_until = now() + ${options.failureHoldMillis} * interval '1 millisecond'
        WHERE part = ${part} AND holder = ${holder}`)

    const failedRecently = (part: number) =>
      Effect.map(
        sql`SELECT part FROM ecfr_part_fills WHERE part = ${part} AND holder = ${failedHolder}
          AND lease_until > now()`,
        (rows) => rows.length > 0
      )

    /** The shared snapshot when it answers the request without eCFR, taken; undefined otherwise. */
    const adoptShared = (
      local: LocalPart,
      request: RefreshRequest
    ): Effect.Effect<RefreshOutcome | undefined, SqlError> =>
      Effect.gen(function*() {
        const shared = yield* head(local.info.part)
        if (shared === undefined) return undefined
        const now = yield* Clock.currentTimeMillis
        const current = request.force
          ? shared.verifiedAt >= request.requestedAt
          : now - shared.verifiedAt < request.freshForMillis
        const held = local.snapshot()
        if (!current || (held !== undefined && fetchedAtOf(held) > shared.fetchedAt)) return undefined
        if (held?.contentHash === shared.contentHash && held.issueDate === shared.issueDate) {
          return yield* local.adopt(undefined, shared.verifiedAt)
        }
        const snapshot = yield* load(local.info)
        return snapshot === undefined ? undefined : yield* local.adopt(snapshot, shared.verifiedAt)
      })

    /**
     * After this instance could not refresh the part from eCFR: a shared snapshot downloaded later
     * than its copy (published by a sync or bundle import on another machine, or fetched by an
     * instance that could reach eCFR earlier) is better than an older copy or none. It is taken as
     * verified when it was; the refresh still fails, so the part is served marked stale.
     */
    const takeNewer = (local: LocalPart) =>
      Effect.gen(function*() {
        const shared = yield* head(local.info.part)
        if (shared === undefined) return
        const held = local.fetchedAt()
        if (held !== undefined && (Date.parse(held) || 0) >= shared.fetchedAt) return
        const snapshot = yield* load(local.info)
        if (snapshot !== undefined) yield* local.adopt(snapshot, shared.verifiedAt)
      }).pipe(
        Effect.catchAll((error) =>
          Effect.logWarning("could not read the shared eCFR snapshot", { part: local.info.part, error: error.message })
        )
      )

    /** This instance holds the lease: it downloads and publishes, unless the part arrived meanwhile. */
    const fill = <E>(local: LocalPart, request: RefreshRequest, download: Effect.Effect<RefreshOutcome, E>) =>
      Effect.gen(function*() {
        const adopted = yield* adoptShared(local, request)
        if (adopted !== undefined) return Either.right(adopted)
        const outcome = yield* Effect.either(download)
        if (Either.isLeft(outcome)) yield* holdFailure(local.info.part)
        const snapshot = local.snapshot()
        if (Either.isRight(outcome) && snapshot !== undefined) {
          yield* publish(snapshot, yield* Clock.currentTimeMillis).pipe(
            Effect.catchAll((error) =>
              Effect.logWarning("could not share the eCFR snapshot", { part: local.info.part, error: error.message })
            )
          )
        }
        return outcome
      }).pipe(Effect.ensuring(release(local.info.part)))

    /** The download's own failure comes back inside the Either: the error channel is the store's alone. */
    const coordinated = <E>(
      local: LocalPart,
      request: RefreshRequest,
      download: Effect.Effect<RefreshOutcome, E>,
      failedElsewhere: Effect.Effect<never, E>
    ): Effect.Effect<Either.Either<RefreshOutcome, E>, SqlError> =>
      Effect.gen(function*() {
        while (true) {
          const adopted = yield* adoptShared(local, request)
          if (unreachable) {
            unreachable = false
            yield* Effect.logInfo("shared eCFR mirror reachable again")
          }
          if (adopted !== undefined) return Either.right(adopted)
          if (yield* lease(local.info.part)) return yield* fill(local, request, download)
          if (yield* failedRecently(local.info.part)) return yield* Effect.either(failedElsewhere)
          yield* Effect.sleep(options.pollMillis)
        }
      })

    const refresh: PartFillsShape["refresh"] = (local, request, download, failedElsewhere) =>
      coordinated(local, request, download, failedElsewhere).pipe(
        Effect.tap((outcome) => Either.isLeft(outcome) ? takeNewer(local) : Effect.void),
        Effect.catchAll((error) =>
          Effect.gen(function*() {
            if (!unreachable) {
              unreachable = true
              yield* Effect.logWarning("shared eCFR mirror unreachable; refreshing eCFR parts alone", {
                error: error.message
              })
            }
            return yield* Effect.either(download)
          })
        ),
        Effect.flatMap((outcome) => outcome)
      )

    return { refresh, publish } satisfies PartFillsShape
  })

/** The shared mirror over the store's `SqlClient`. */
export const layer: Layer.Layer<PartFills, never, SqlClient> = Layer.effect(PartFills, make())
