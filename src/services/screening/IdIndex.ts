import type { BulkIdentifier } from "./BulkFile.ts"
import type { ListEntry } from "./ListEntry.ts"

/**
 * ID numbers of the list (passports, national IDs, IMO and registration numbers …) by their
 * compact form: upper case, letters and digits only, so "AB 123-456" and "ab123456" meet. An
 * "IMO 9187629" is also found as "9187629". Fields the list keeps in `ids` that are not
 * identifiers (dates, gender, sanction notes, web sites, e-mail addresses) are left out, and so
 * is any number without a digit or shorter than four characters: those would find strangers.
 */
export interface IdHit {
  readonly entry: number
  /** Index in the entry's `ids`. */
  readonly id: number
}

export interface IdIndex {
  readonly find: (text: string) => ReadonlyArray<IdHit>
}

const MinCompactLength = 4

const notIdentifiers = /date|gender|sanction|website|e-?mail|prohibited|designation|listing|note|nationality/i

/** Prefixes under which a number is also known bare (a vessel's IMO number, a call sign's MMSI). */
const barePrefixes = /^(IMO|MMSI)(\d{6,})$/

export const compact = (text: string): string => text.normalize("NFKC").toUpperCase().replace(/[^\p{L}\p{N}]/gu, "")

const keysOf = (identifier: BulkIdentifier): Array<string> => {
  const number = identifier.number
  if (number === undefined || number === null) return []
  if (identifier.type !== undefined && identifier.type !== null && notIdentifiers.test(identifier.type)) return []
  const key = compact(number)
  if (key.length < MinCompactLength || !/\d/.test(key)) return []
  const bare = barePrefixes.exec(key)
  return bare === null ? [key] : [key, bare[2]!]
}

export const build = (entries: ReadonlyArray<ListEntry>): IdIndex => {
  const byKey = new Map<string, Array<IdHit>>()
  entries.forEach((entry, at) => {
    ;(entry.record.ids ?? []).forEach((identifier, id) => {
      for (const key of keysOf(identifier)) {
        const hits = byKey.get(key)
        if (hits === undefined) byKey.set(key, [{ entry: at, id }])
        else if (!hits.some((hit) => hit.entry === at)) hits.push({ entry: at, id })
      }
    })
  })
  return {
    find: (text) => {
      // most queries are names: without a digit there is nothing to look up
      if (byKey.size === 0 || !/\p{N}/u.test(text)) return []
      const key = compact(text)
      return key.length < MinCompactLength || !/\d/.test(key) ? [] : (byKey.get(key) ?? [])
    }
  }
}
