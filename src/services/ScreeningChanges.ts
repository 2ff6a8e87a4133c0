import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Context, Effect, Layer } from "effect"
import { InvalidRequest, StoreUnavailable } from "../domain/Problem.ts"
import {
  type ChangedEntry,
  type ChangeKind,
  type ChangesUrlParams,
  DefaultChangesLimit,
  type ListChangesResponse,
  type ListRefresh
} from "../domain/ScreeningChanges.ts"
import { decodeCursor, encodeCursor } from "../domain/workspace/Cursor.ts"
import { diff, type ListSnapshot } from "./screening/ListSnapshot.ts"

/**
 * The history of the Consolidated Screening List's refreshes in the shared SQL store: each list an
 * instance installs is compared with the last one recorded (entry id → content hash), and what it
 * added, changed and removed is kept, so every instance answers `GET /api/csl/changes` alike and
 * the screening registry can tell which recorded parties an entry change concerns. Instances that
 * load the same list record it once (a transaction-scoped advisory lock and the list's hash); a
 * list older than the last one recorded (a stored copy read at start) is not recorded backwards.
 */
export type RecordOutcome = "baseline" | "recorded" | "unchanged" | "older"

export interface ScreeningChangesShape {
  readonly record: (snapshot: ListSnapshot) => Effect.Effect<RecordOutcome, SqlError>
  readonly since: (params: ChangesUrlParams) => Effect.Effect<ListChangesResponse, InvalidRequest | StoreUnavailable>
  /** Which of these entry ids changed or were removed in refreshes recorded after `since` (ISO time). */
  readonly changedEntries: (
    ids: ReadonlyArray<string>,
    since: string
  ) => Effect.Effect<ReadonlySet<string>, StoreUnavailable>
}

export class ScreeningChanges extends Context.Tag("app/ScreeningChanges")<ScreeningChanges, ScreeningChangesShape>() {}

/** Rows written per statement: well under PostgreSQL's 65,535 bind parameters. */
const RowsPerStatement = 500

const chunks = <A>(rows: ReadonlyArray<A>): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let at = 0; at < rows.length; at += RowsPerStatement) out.push(rows.slice(at, at + RowsPerStatement))
  return out
}

const unavailable = (error: SqlError) =>
  Effect.zipRight(
    // the class of failure only: statements carry party names
    Effect.logWarning("screening changes store unavailable", { error: error.message }),
    Effect.fail(new StoreUnavailable({ detail: "The list-change history cannot be read; retry in a few seconds." }))
  )

const badCursor = new InvalidRequest({
  detail: "Invalid parameter: cursor (is not a cursor this list issued)",
  invalidParams: [{ name: "cursor", in: "query", reason: "is not a cursor this list issued" }]
})

interface RefreshRow {
  readonly id: number
  readonly recordedAt: string
  readonly publishedAt: string | null
  readonly entries: number
  readonly added: number
  readonly changed: number
  readonly removed: number
  readonly baseline: boolean
}

interface ChangeRow {
  readonly refreshId: number
  readonly entryId: string
  readonly change: ChangeKind
  readonly name: string
  readonly sourceCode: string
  readonly source: string
}

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient

  const record = (snapshot: ListSnapshot): Effect.Effect<RecordOutcome, SqlError> =>
    sql.withTransaction(Effect.gen(function*() {
      yield* sql`SELECT pg_advisory_xact_lock(hashtext('ecds:csl-changes'))`
      const [last] = yield* sql<{ listHash: string; publishedAt: string | null }>`
        SELECT list_hash, published_at FROM csl_refreshes ORDER BY id DESC LIMIT 1`
      if (last !== undefined && last.listHash === snapshot.listHash) return "unchanged" as const
      if (
        last?.publishedAt != null && snapshot.publishedAt !== null &&
        Date.parse(snapshot.publishedAt) < Date.parse(last.publishedAt)
      ) return "older" as const
      const current = yield* sql<
        { entryId: string; contentHash: string; name: string; sourceCode: string; source: string }
      >`
        SELECT entry_id, content_hash, name, source_code, source FROM csl_entries`
      const changes = diff(current, snapshot.entries)
      const baseline = last === undefined
      const [refresh] = yield* sql<{ id: number }>`INSERT INTO csl_refreshes ${
        sql.insert({
          recordedAt: snapshot.recordedAt,
          publishedAt: snapshot.publishedAt,
          listHash: snapshot.listHash,
          entries: snapshot.entries.length,
          // the first list is the starting point: its entries are not news
          added: baseline ? 0 : changes.added.length,
          changed: baseline ? 0 : changes.changed.length,
          removed: baseline ? 0 : changes.removed.length,
          baseline
        })
      } RETURNING id::integer AS id`
      if (!baseline) {
        const rows = (["added", "changed", "removed"] as const).flatMap((change) =>
          changes[change].map((entry) => ({
            refreshId: refresh!.id,
            entryId: entry.id,
            change,
            name: entry.name,
            sourceCode: entry.sourceCode,
            source: entry.source
          }))
        )
        for (const part of chunks(rows)) yield* sql`INSERT INTO csl_changes ${sql.insert(part)}`
      }
      for (const part of chunks(changes.removed)) {
        yield* sql`DELETE FROM csl_entries WHERE entry_id IN ${sql.in(part.map((entry) => entry.id))}`
      }
      const upserts = [...changes.added, ...changes.changed].map((entry) => ({
        entryId: entry.id,
        contentHash: entry.hash,
        name: entry.name,
        sourceCode: entry.sourceCode,
        source: entry.source
      }))
      for (const part of chunks(upserts)) {
        yield* sql`INSERT INTO csl_entries ${sql.insert(part)} ON CONFLICT (entry_id) DO UPDATE SET
          content_hash = EXCLUDED.content_hash, name = EXCLUDED.name,
          source_code = EXCLUDED.source_code, source = EXCLUDED.source`
      }
      return baseline ? "baseline" as const : "recorded" as const
    }))

  const since = (params: ChangesUrlParams) =>
    Effect.gen(function*() {
      const after = new Date(Date.parse(params.since)).toISOString()
      const limit = params.limit ?? DefaultChangesLimit
      const position = params.cursor === undefined ? undefined : decodeCursor(params.cursor, 2)
      if (params.cursor !== undefined && (position === undefined || !/^\d+$/.test(position[0]!))) {
        return yield* badCursor
      }
      const refreshes = yield* sql<RefreshRow>`
        SELECT id::integer AS id, recorded_at, published_at, entries, added, changed, removed, baseline
        FROM csl_refreshes WHERE recorded_at > ${after} ORDER BY recorded_at, id`
      const ids = refreshes.map((refresh) => refresh.id)
      const fromRefresh = position === undefined ? -1 : Number(position[0])
      const fromEntry = position === undefined ? "" : position[1]!
      const rows = ids.length === 0 ? [] : yield* sql<ChangeRow>`
        SELECT refresh_id::integer AS refresh_id, entry_id, change, name, source_code, source FROM csl_changes
        WHERE refresh_id IN ${sql.in(ids)} AND (refresh_id, entry_id) > (${fromRefresh}, ${fromEntry})
        ORDER BY refresh_id, entry_id LIMIT ${limit + 1}`
      const page = rows.slice(0, limit)
      const recordedAt = new Map(refreshes.map((refresh) => [refresh.id, refresh.recordedAt]))
      const entriesOf = (change: ChangeKind): Array<ChangedEntry> =>
        page.filter((row) => row.change === change).map((row) => ({
          id: row.entryId,
          name: row.name,
          source_code: row.sourceCode,
          source: row.source,
          recorded_at: recordedAt.get(row.refreshId)!
        }))
      const lastShown = page[page.length - 1]
      return {
        since: after,
        refreshes: refreshes.map(({ id: _id, ...refresh }): ListRefresh => ({
          recorded_at: refresh.recordedAt,
          published_at: refresh.publishedAt,
          entries: refresh.entries,
          added: refresh.added,
          changed: refresh.changed,
          removed: refresh.removed,
          baseline: refresh.baseline
        })),
        added: entriesOf("added"),
        changed: entriesOf("changed"),
        removed: entriesOf("removed"),
        next_cursor: rows.length > limit && lastShown !== undefined
          ? encodeCursor([String(lastShown.refreshId), lastShown.entryId])
          : null
      }
    }).pipe(Effect.catchTag("SqlError", unavailable))

  const changedEntries = (ids: ReadonlyArray<string>, after: string) =>
    ids.length === 0 ? Effect.succeed(new Set<string>()) : sql<{ entryId: string }>`
      SELECT DISTINCT c.entry_id FROM csl_changes c JOIN csl_refreshes r ON r.id = c.refresh_id
      WHERE r.recorded_at > ${after} AND c.change <> 'added' AND c.entry_id IN ${sql.in([...ids])}`.pipe(
      Effect.map((rows): ReadonlySet<string> => new Set(rows.map((row) => row.entryId))),
      Effect.catchTag("SqlError", unavailable)
    )

  return { record, since, changedEntries } satisfies ScreeningChangesShape
})

/** The history in the deployment's SQL store. */
export const layer: Layer.Layer<ScreeningChanges, never, SqlClient> = Layer.effect(ScreeningChanges, make)
