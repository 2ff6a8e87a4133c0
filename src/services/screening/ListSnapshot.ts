import { createHash } from "node:crypto"
import { stepEvery, type Steps } from "../Cooperative.ts"
import type { ListEntry } from "./ListEntry.ts"

/** One entry as the change history keeps it: its id, a hash of its whole record, what to show. */
export interface ListedEntry {
  readonly id: string
  readonly hash: string
  readonly name: string
  readonly sourceCode: string
  readonly source: string
}

/** A list as the change history compares it. */
export interface ListSnapshot {
  readonly entries: ReadonlyArray<ListedEntry>
  /** A hash of every entry's id and hash: the same list loaded twice (or by two instances) is one refresh. */
  readonly listHash: string
  readonly publishedAt: string | null
  readonly recordedAt: string
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

/**
 * The entry id the history keys on: the record's `id` (OFAC entity number or trade.gov's hash),
 * else its entity number, else a hash of its list and name (no record of the real list lacks both).
 */
const idOf = (entry: ListEntry) =>
  entry.record.id?.trim() || entry.record.entity_number?.trim() ||
  `h:${sha256(`${entry.code}\u0000${entry.record.name}`).slice(0, 32)}`

/** The snapshot of a loaded list, built in steps (hashing 20,000 records takes a while). */
export function* snapshotSteps(
  entries: ReadonlyArray<ListEntry>,
  publishedAt: string | null,
  recordedAt: string
): Steps<ListSnapshot> {
  const byId = new Map<string, ListedEntry>()
  for (const [at, entry] of entries.entries()) {
    if (at % stepEvery === 0) yield
    const id = idOf(entry)
    const hash = sha256(JSON.stringify(entry.record))
    const seen = byId.get(id)
    // an id listed twice (never seen on the real list) is one entry whose content is both records
    byId.set(id, {
      id,
      hash: seen === undefined ? hash : sha256(seen.hash + hash),
      name: seen?.name ?? entry.record.name,
      sourceCode: seen?.sourceCode ?? entry.code,
      source: seen?.source ?? entry.record.source
    })
  }
  const listed = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const listHash = sha256(listed.map((entry) => `${entry.id}:${entry.hash}`).join("\n"))
  return { entries: listed, listHash, publishedAt, recordedAt }
}

export interface StoredEntry {
  readonly entryId: string
  readonly contentHash: string
  readonly name: string
  readonly sourceCode: string
  readonly source: string
}

/** What `next` added, changed and removed against the stored entries. */
export const diff = (stored: ReadonlyArray<StoredEntry>, next: ReadonlyArray<ListedEntry>) => {
  const before = new Map(stored.map((entry) => [entry.entryId, entry]))
  const added: Array<ListedEntry> = []
  const changed: Array<ListedEntry> = []
  for (const entry of next) {
    const old = before.get(entry.id)
    if (old === undefined) added.push(entry)
    else if (old.contentHash !== entry.hash) changed.push(entry)
    before.delete(entry.id)
  }
  const removed: Array<ListedEntry> = [...before.values()].map((entry) => ({
    id: entry.entryId,
    hash: entry.contentHash,
    name: entry.name,
    sourceCode: entry.sourceCode,
    source: entry.source
  }))
  return { added, changed, removed }
}
