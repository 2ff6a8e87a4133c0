import { type SearchableName, searchableNames } from "./Aliases.ts"
import type { BulkRecord } from "./BulkFile.ts"
import { sourceCode } from "./Sources.ts"

/** One record of the list with what the index needs to search and filter it. */
export interface ListEntry {
  readonly record: BulkRecord
  readonly code: string
  readonly names: ReadonlyArray<SearchableName>
  /** Upper-cased country codes from addresses, the ISN `country`, nationalities and citizenships. */
  readonly countries: ReadonlyArray<string>
  readonly altNames: ReadonlyArray<string>
  readonly personal: boolean
}

const present = (values: ReadonlyArray<string | null> | null | undefined): Array<string> =>
  (values ?? []).flatMap((value) => value === null || value.trim() === "" ? [] : [value.trim()])

export const countriesOf = (record: BulkRecord): Array<string> => {
  const all = [
    ...(record.addresses ?? []).map((address) => address.country ?? null),
    record.country ?? null,
    ...(record.nationalities ?? []),
    ...(record.citizenships ?? [])
  ]
  return [...new Set(present(all).map((country) => country.toUpperCase()))]
}

export const toEntry = (record: BulkRecord): ListEntry => {
  const altNames = present(record.alt_names)
  return {
    record,
    code: sourceCode(record.source),
    names: searchableNames(record.name, altNames),
    countries: countriesOf(record),
    altNames,
    personal: record.type === "Individual"
  }
}
