import { Either } from "effect"
import type { ScreenedList } from "../../domain/Screening.ts"
import { runNow, stepEvery, type Steps } from "../Cooperative.ts"
import { type BulkFileError, type BulkSourceInfo, parseSteps } from "./BulkFile.ts"
import * as IdIndex from "./IdIndex.ts"
import { type ListEntry, toEntry } from "./ListEntry.ts"
import * as Matcher from "./Matcher.ts"
import * as NameIndex from "./NameIndex.ts"
import { sourceCode } from "./Sources.ts"

/** A list ready to search: its entries, index and per-list facts. Immutable once built. */
export interface LoadedList {
  readonly entries: ReadonlyArray<ListEntry>
  readonly matcher: Matcher.Matcher
  /** The entries' ID numbers (passport, IMO, registration …). */
  readonly ids: IdIndex.IdIndex
  readonly lists: ReadonlyArray<typeof ScreenedList.Type>
  readonly publishedAt: string | null
  readonly loadedAt: string
  /** Records of the file that were skipped as malformed. */
  readonly rejected: number
  readonly buildMillis: number
}

const listsOf = (entries: ReadonlyArray<ListEntry>, sources: ReadonlyArray<BulkSourceInfo>) => {
  const byCode = new Map<string, { name: string; entries: number; updated: string | null; imported: string | null }>()
  for (const info of sources) {
    byCode.set(sourceCode(info.source), {
      name: info.source,
      entries: 0,
      updated: info.source_last_updated ?? null,
      imported: info.last_imported ?? null
    })
  }
  for (const entry of entries) {
    const list = byCode.get(entry.code)
    if (list) list.entries++
    else byCode.set(entry.code, { name: entry.record.source, entries: 1, updated: null, imported: null })
  }
  return [...byCode].sort(([a], [b]) => a.localeCompare(b)).map(([code, list]) => ({
    code,
    name: list.name,
    entries: list.entries,
    source_last_updated: list.updated,
    last_imported: list.imported
  }))
}

/** Parses a bulk file and builds its index; a malformed file is refused whole. */
export function* loadSteps(text: string, loadedAt: string): Steps<Either.Either<LoadedList, BulkFileError>> {
  const parsed = yield* parseSteps(text)
  if (Either.isLeft(parsed)) return Either.left(parsed.left)
  const list = parsed.right
  const started = performance.now()
  const entries: Array<ListEntry> = []
  for (const [at, record] of list.records.entries()) {
    if (at % stepEvery === 0) yield
    entries.push(toEntry(record))
  }
  const matcher = Matcher.make(yield* NameIndex.buildSteps(entries))
  return Either.right({
    entries,
    matcher,
    ids: IdIndex.build(entries),
    lists: listsOf(entries, list.sources),
    publishedAt: list.publishedAt,
    loadedAt,
    rejected: list.rejected,
    buildMillis: Math.round(performance.now() - started)
  })
}

export const load = (text: string, loadedAt: string): Either.Either<LoadedList, BulkFileError> =>
  runNow(loadSteps(text, loadedAt))
