import { Either } from "effect"
import type { ScreenedList } from "../../domain/Screening.ts"
import { type BulkFileError, parse } from "./BulkFile.ts"
import { type ListEntry, toEntry } from "./ListEntry.ts"
import * as Matcher from "./Matcher.ts"
import * as NameIndex from "./NameIndex.ts"
import { sourceCode } from "./Sources.ts"

/** A list ready to search: its entries, index and per-list facts. Immutable once built. */
export interface LoadedList {
  readonly entries: ReadonlyArray<ListEntry>
  readonly matcher: Matcher.Matcher
  readonly lists: ReadonlyArray<typeof ScreenedList.Type>
  readonly publishedAt: string | null
  readonly loadedAt: string
  /** Records of the file that were skipped as malformed. */
  readonly rejected: number
  readonly buildMillis: number
}

const listsOf = (entries: ReadonlyArray<ListEntry>, parsed: ReturnType<typeof parse>) => {
  const byCode = new Map<string, { name: string; entries: number; updated: string | null; imported: string | null }>()
  if (Either.isRight(parsed)) {
    for (const info of parsed.right.sources) {
      byCode.set(sourceCode(info.source), {
        name: info.source,
        entries: 0,
        updated: info.source_last_updated ?? null,
        imported: info.last_imported ?? null
      })
    }
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
export const load = (text: string, loadedAt: string): Either.Either<LoadedList, BulkFileError> => {
  const parsed = parse(text)
  return Either.map(parsed, (list) => {
    const started = performance.now()
    const entries = list.records.map(toEntry)
    const matcher = Matcher.make(NameIndex.build(entries))
    return {
      entries,
      matcher,
      lists: listsOf(entries, parsed),
      publishedAt: list.publishedAt,
      loadedAt,
      rejected: list.rejected,
      buildMillis: Math.round(performance.now() - started)
    }
  })
}
