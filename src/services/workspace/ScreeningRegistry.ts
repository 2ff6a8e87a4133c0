import { SqlClient } from "@effect/sql/SqlClient"
import { Clock, Context, Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import { decodeCursor, encodeCursor } from "../../domain/workspace/Cursor.ts"
import {
  DefaultRescreenDays,
  partyKey,
  type PartyStatus,
  type PartyStatusParams,
  type Screening as ScreeningRecord,
  type ScreeningInput,
  type ScreeningListParams,
  type ScreeningPage
} from "../../domain/workspace/Screenings.ts"
import { type InvalidCursor, invalidCursor, StoreUnavailable } from "../../domain/workspace/Workspace.ts"
import { Screening } from "../Screening.ts"
import { ScreeningChanges } from "../ScreeningChanges.ts"
import { pageOf, storeFailure } from "./Rows.ts"
import { decodeScreening, writeScreening } from "./Tables.ts"

/** Screenings of one party shown in its history, newest first. */
export const MaxHistory = 50

export interface ScreeningRegistryShape {
  readonly record: (workspace: string, input: ScreeningInput) => Effect.Effect<ScreeningRecord, StoreUnavailable>
  readonly partyStatus: (workspace: string, params: PartyStatusParams) => Effect.Effect<PartyStatus, StoreUnavailable>
  readonly list: (
    workspace: string,
    params: ScreeningListParams
  ) => Effect.Effect<ScreeningPage, InvalidCursor | StoreUnavailable>
}

export class ScreeningRegistry
  extends Context.Tag("app/workspace/ScreeningRegistry")<ScreeningRegistry, ScreeningRegistryShape>()
{}

const decode = decodeScreening

const dayMillis = 86_400_000

/** Why a party's latest screening no longer stands: the list changed since, or the interval passed. */
export const rescreenReasons = (
  latest: ScreeningRecord,
  now: number,
  intervalDays: number,
  listPublishedAt: string | null
): ReadonlyArray<string> => {
  const reasons: Array<string> = []
  const screenedAt = Date.parse(latest.screened_at)
  const age = Math.floor((now - screenedAt) / dayMillis)
  if (age >= intervalDays) reasons.push(`last screened ${age} days ago (interval ${intervalDays} days)`)
  const published = listPublishedAt === null ? Number.NaN : Date.parse(listPublishedAt)
  if (!Number.isNaN(published) && published > screenedAt) {
    reasons.push(`the screening list was updated since (published ${listPublishedAt})`)
  }
  return reasons
}

/** Why the entries a party's latest screening matched call for a new one: they changed on the list since. */
export const changedEntriesReason = (changed: ReadonlySet<string>): ReadonlyArray<string> =>
  changed.size === 0
    ? []
    : [`list entries it matched changed or were removed since (ids ${[...changed].sort().join(", ")})`]

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient
  const screening = yield* Screening
  const changes = yield* ScreeningChanges

  const write = (workspace: string, entry: ScreeningRecord) => storeFailure(writeScreening(sql, workspace, entry))

  const record = (workspace: string, input: ScreeningInput) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const status = yield* screening.status
      const entry: ScreeningRecord = {
        ...input,
        id: `scr_${randomBytes(8).toString("hex")}`,
        screened_at: new Date(now).toISOString(),
        list_published_at: status.publishedAt
      }
      yield* write(workspace, entry)
      return entry
    })

  const partyStatus = (workspace: string, params: PartyStatusParams) =>
    Effect.gen(function*() {
      const rows = yield* storeFailure(sql<{ record: unknown }>`SELECT record FROM workspace_screenings
        WHERE workspace = ${workspace} AND party_key = ${partyKey(params.party)}
        ORDER BY screened_at DESC, id DESC LIMIT ${MaxHistory}`)
      const history = rows.map((row) => decode(row.record))
      const latest = history[0]
      if (latest === undefined) {
        return {
          party: params.party,
          screened: false,
          latest: null,
          history: [],
          rescreen_due: true,
          rescreen_reasons: ["never screened in this workspace"]
        }
      }
      const now = yield* Clock.currentTimeMillis
      const status = yield* screening.status
      // the list-change history (GET /api/csl/changes) names the entries that changed since
      const changed = yield* changes.changedEntries((latest.hits ?? []).map((hit) => hit.id), latest.screened_at).pipe(
        Effect.mapError(() => new StoreUnavailable({ message: "the list-change history cannot be read" }))
      )
      const reasons = [
        ...rescreenReasons(latest, now, params.rescreen_days ?? DefaultRescreenDays, status.publishedAt),
        ...changedEntriesReason(changed)
      ]
      return {
        party: params.party,
        screened: true,
        latest,
        history,
        rescreen_due: reasons.length > 0,
        rescreen_reasons: reasons
      }
    })

  const list = (workspace: string, params: ScreeningListParams) =>
    Effect.gen(function*() {
      const limit = params.limit ?? 50
      const after = params.cursor === undefined ? undefined : decodeCursor(params.cursor, 2)
      if (params.cursor !== undefined && after === undefined) return yield* invalidCursor
      const conditions = [
        sql`workspace = ${workspace}`,
        ...(params.decision === undefined ? [] : [sql`decision = ${params.decision}`]),
        ...(after === undefined ? [] : [
          sql`(screened_at, id) < (${after[0]!}, ${after[1]!})`
        ])
      ]
      const rows = yield* storeFailure(sql<{ record: unknown }>`SELECT record FROM workspace_screenings
        WHERE ${sql.and(conditions)} ORDER BY screened_at DESC, id DESC LIMIT ${limit + 1}`)
      const page = pageOf(rows.map((row) => decode(row.record)), limit)
      const last = page.rows.at(-1)
      return {
        screenings: page.rows,
        count: page.rows.length,
        next_cursor: page.more && last !== undefined ? encodeCursor([last.screened_at, last.id]) : null
      }
    })

  return { record, partyStatus, list } satisfies ScreeningRegistryShape
})

export const layer = Layer.effect(ScreeningRegistry, make)
