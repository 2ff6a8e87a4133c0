import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import { type ArchiveRepo, type ArchiveRow, type ArchiveWrite, sha256 } from "./ArchiveRepo.ts"
import {
  CollectFailed,
  type Collector,
  type ListedItem,
  type Listing,
  notModified,
  pathOn,
  politeFetch
} from "./collectors/Collector.ts"
import { fromText, maxPdfBytes, parseFile, type ParseOutcome, parserVersion, withoutFile } from "./ParsePipeline.ts"

/**
 * One collection of one source: list, compare with what the archive holds, store new and changed
 * documents, mark those the source no longer lists, then fetch and parse every file still
 * `pending`. A failed fetch is retried on later runs up to `maxAttempts`, then `failed` with the
 * reason; a file that is not a readable PDF is `failed` at once. A source's lease keeps two
 * instances from collecting it together.
 */

export interface CollectionReport {
  readonly source: string
  readonly status: "ok" | "failed" | "busy"
  readonly listed: number
  readonly notModified: boolean
  readonly added: number
  readonly changed: number
  readonly unchanged: number
  readonly removed: number
  readonly skippedRows: number
  readonly filesFetched: number
  readonly byOutcome: Readonly<Record<string, number>>
  readonly error?: string
}

export const maxAttempts = 3
/** Longest one source's collection may hold its lease (and run). */
export const leaseMillis = 60 * 60 * 1000

/** A source listing much less than it did is more likely broken than emptied: nothing is marked removed. */
const shrinkFloor = 0.5

export type Progress = (source: string, done: number, total: number) => void

const fingerprint = (item: ListedItem) =>
  sha256(new TextEncoder().encode(JSON.stringify([
    item.title,
    item.party,
    item.date,
    item.sourceUrl,
    item.fileUrl,
    item.text === null ? null : sha256(new TextEncoder().encode(item.text))
  ])))

/** A report of a run that changed nothing yet: each run starts from it. */
export const emptyReport = (source: string) => ({
  source,
  listed: 0,
  notModified: false,
  added: 0,
  changed: 0,
  unchanged: 0,
  removed: 0,
  skippedRows: 0,
  filesFetched: 0,
  byOutcome: {} as Record<string, number>
})

const writeOf = (
  collector: Collector,
  item: Pick<ListedItem, "id" | "title" | "party" | "date" | "sourceUrl" | "fileUrl">,
  outcome: ParseOutcome,
  extra: { readonly pdfSha256: string | null; readonly attempts: number; readonly fingerprint: string | null }
): ArchiveWrite => ({
  id: item.id,
  agency: collector.agency,
  source: collector.id,
  party: item.party,
  title: item.title,
  date: item.date,
  originalDocUrl: item.fileUrl,
  sourceUrl: item.sourceUrl,
  parserVersion,
  ...outcome,
  pdfSha256: extra.pdfSha256,
  parseAttempts: extra.attempts,
  fingerprint: extra.fingerprint
})

/** The archive form of a listed item before its file is fetched. */
const listedWrite = (collector: Collector, item: ListedItem) => {
  const meta = { party: item.party, title: item.title }
  const outcome = item.fileUrl !== null
    ? withoutFile("pending", "listed; the file is not fetched yet", meta)
    : item.text !== null
    ? fromText(item.text, meta)
    : withoutFile("no_pdf", null, meta)
  return writeOf(collector, item, outcome, { pdfSha256: null, attempts: 0, fingerprint: fingerprint(item) })
}

const rowItem = (row: ArchiveRow) => ({
  id: row.id,
  title: row.title,
  party: row.party,
  date: row.date,
  sourceUrl: row.sourceUrl,
  fileUrl: row.originalDocUrl
})

/** Fetches and parses one pending document's file. */
const fetchFile = (
  repo: ArchiveRepo,
  collector: Collector,
  fetch: Effect.Effect.Success<ReturnType<typeof politeFetch>>,
  row: ArchiveRow
): Effect.Effect<ArchiveWrite, SqlError> =>
  Effect.gen(function*() {
    const meta = { party: row.party, title: row.title }
    const attempts = row.parseAttempts + 1
    const keep = { pdfSha256: null, attempts, fingerprint: row.fingerprint }
    const path = row.originalDocUrl === null ? undefined : pathOn(collector.client, row.originalDocUrl)
    if (path === undefined) {
      return writeOf(
        collector,
        rowItem(row),
        withoutFile("pending", "the file is hosted elsewhere; not fetched", meta),
        {
          ...keep,
          attempts: row.parseAttempts
        }
      )
    }
    const bytes = yield* Effect.either(fetch.file(path, maxPdfBytes))
    if (bytes._tag === "Left") {
      const reason = `fetching the file failed (attempt ${attempts} of ${maxAttempts}): ${bytes.left.reason}`
      return writeOf(
        collector,
        rowItem(row),
        attempts >= maxAttempts
          ? { ...withoutFile("pending", reason, meta), parseStatus: "failed" }
          : withoutFile("pending", reason, meta),
        keep
      )
    }
    const outcome = yield* parseFile(bytes.right, meta)
    const digest = outcome.parseStatus === "failed" ? null : yield* repo.putFile(bytes.right)
    return writeOf(collector, rowItem(row), outcome, { ...keep, pdfSha256: digest })
  })

const compare = (
  collector: Collector,
  items: ReadonlyArray<ListedItem>,
  existing: ReadonlyMap<string, ArchiveRow>
) =>
  Effect.gen(function*() {
    const ids = new Set<string>()
    for (const item of items) {
      if (ids.has(item.id)) return yield* new CollectFailed({ reason: `the listing names ${item.id} twice` })
      ids.add(item.id)
    }
    const present = [...existing.values()].filter((row) => row.removedAt === null)
    if (collector.complete && present.length >= 10 && items.length < present.length * shrinkFloor) {
      return yield* new CollectFailed({
        reason: `the listing shrank from ${present.length} to ${items.length} items; refused as a probable page ` +
          "change (nothing was marked removed)"
      })
    }
    const writes: Array<ArchiveWrite> = []
    let added = 0
    let changed = 0
    let unchanged = 0
    for (const item of items) {
      const before = existing.get(item.id)
      const write = listedWrite(collector, item)
      if (before === undefined) {
        added++
        writes.push(write)
      } else if (before.fingerprint !== write.fingerprint || before.removedAt !== null) {
        changed++
        writes.push(write)
      } else unchanged++
    }
    const removed = collector.complete
      ? present.filter((row) => !ids.has(row.id)).map((row) => row.id)
      : []
    return { writes, added, changed, unchanged, removed }
  })

export const collectSource = (
  repo: ArchiveRepo,
  collector: Collector,
  options: { readonly spacingMillis: number; readonly onProgress?: Progress | undefined }
): Effect.Effect<CollectionReport> => {
  const base = emptyReport(collector.id)
  const run = Effect.gen(function*() {
    const state = yield* repo.sourceState(collector.id)
    const fetch = yield* politeFetch(collector.client, state?.validators ?? {}, options.spacingMillis)
    const listing: Listing = yield* collector.list(fetch)
    let report = { ...base, skippedRows: listing.skipped }
    const existing = new Map((yield* repo.bySource(collector.id)).map((row) => [row.id, row]))
    if (listing.items === notModified) {
      report = { ...report, notModified: true, listed: state?.listed ?? existing.size }
    } else {
      const diff = yield* compare(collector, listing.items, existing)
      yield* repo.upsert(diff.writes)
      yield* repo.markRemoved(diff.removed)
      report = {
        ...report,
        listed: listing.items.length,
        added: diff.added,
        changed: diff.changed,
        unchanged: diff.unchanged,
        removed: diff.removed.length
      }
    }
    const pending = (yield* repo.bySource(collector.id)).filter((row) =>
      row.parseStatus === "pending" && row.removedAt === null && row.parseAttempts < maxAttempts &&
      row.originalDocUrl !== null
    )
    const outcomes: Record<string, number> = {}
    for (const [done, row] of pending.entries()) {
      const write = yield* fetchFile(repo, collector, fetch, row)
      yield* repo.upsert([write])
      outcomes[write.parseStatus] = (outcomes[write.parseStatus] ?? 0) + 1
      options.onProgress?.(collector.id, done + 1, pending.length)
    }
    yield* repo.succeeded(collector.id, report.listed, yield* fetch.validators)
    return { ...report, filesFetched: pending.length, byOutcome: outcomes, status: "ok" as const }
  })
  return Effect.gen(function*() {
    if (!(yield* repo.lease(collector.id, leaseMillis))) return { ...base, status: "busy" as const }
    return yield* run.pipe(
      Effect.timeoutFail({
        duration: leaseMillis,
        onTimeout: () => new CollectFailed({ reason: "the collection ran out of time" })
      }),
      Effect.catchAll((error) => {
        const reason = error._tag === "CollectFailed" ? error.reason : `the store failed: ${String(error)}`
        return Effect.as(
          Effect.zipRight(
            Effect.logWarning("enforcement collection failed", { source: collector.id, reason }),
            repo.failed(collector.id, reason).pipe(Effect.ignore)
          ),
          { ...base, status: "failed" as const, error: reason }
        )
      })
    )
  }).pipe(Effect.catchAll((error) => Effect.succeed({ ...base, status: "failed" as const, error: String(error) })))
}

/**
 * Re-parses stored files: those parsed by an older parser version, or all with `all`. Documents
 * without a stored file are left alone (a `failed` fetch is retried by collection).
 */
export const reparse = (
  repo: ArchiveRepo,
  options: { readonly all?: boolean; readonly onProgress?: ((done: number, total: number) => void) | undefined } = {}
) =>
  Effect.gen(function*() {
    const rows = (yield* repo.all).filter((row) =>
      row.pdfSha256 !== null && (options.all === true || row.parserVersion < parserVersion)
    )
    const outcomes: Record<string, number> = {}
    for (const [done, row] of rows.entries()) {
      const bytes = yield* repo.file(row.pdfSha256!)
      if (bytes === undefined) continue
      const [stored] = yield* repo.full([row.id])
      if (stored === undefined) continue
      const outcome = yield* parseFile(bytes, { party: row.party, title: row.title })
      yield* repo.upsert([{
        ...stored,
        ...outcome,
        parserVersion,
        // a file that read before but not now keeps being served; the reason says what happened
        pdfSha256: row.pdfSha256,
        parseAttempts: stored.parseAttempts + 1
      }])
      outcomes[outcome.parseStatus] = (outcomes[outcome.parseStatus] ?? 0) + 1
      options.onProgress?.(done + 1, rows.length)
    }
    return { reparsed: rows.length, by_parse_status: outcomes, parser_version: parserVersion }
  })
