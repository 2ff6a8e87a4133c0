import { familyNames } from "./Family.ts"
import type { NameIndex } from "./NameIndex.ts"
import { makePreparer, type PreparedQuery } from "./Query.ts"
import { type Alignment, explain, score, unmatchedNameCost } from "./Scorer.ts"
import { TokenClass } from "./Vocabulary.ts"

/** One list entry found for a query, with its best-scoring indexed name. */
export interface Hit {
  readonly entry: number
  /** Index of the name in the entry's searchable names. */
  readonly alias: number
  /** The indexed name (what `explain` aligns again). */
  readonly name: number
  /** 0–1 */
  readonly score: number
}

export interface SearchOptions {
  /** false: only names whose normalized form equals the query's. */
  readonly fuzzy: boolean
  /** Names to score in full (at least `minCandidates`); callers paging deep ask for more. */
  readonly candidates?: number | undefined
  /** Keeps only entries for which this holds (list, type and country filters). */
  readonly allow?: ((entry: number) => boolean) | undefined
}

/** The entries whose names contain every identifying word of a query (see `Family`). */
export interface Family {
  /** The query words each family name contains. */
  readonly words: ReadonlyArray<string>
  /** Family entries, best first by their score against the query; empty when `tooBroad`. */
  readonly hits: ReadonlyArray<Hit>
  /** How many entries contain the words (also when too broad to rank). */
  readonly total: number
  readonly tooBroad: boolean
}

export interface Matcher {
  readonly index: NameIndex
  /** Hits sorted by score (best first), one per entry; `undefined` when the query has no words. */
  readonly search: (text: string, options: SearchOptions) => ReadonlyArray<Hit> | undefined
  /** How the query aligned with each hit's name, as its score was computed. */
  readonly explain: (text: string, hits: ReadonlyArray<Hit>) => ReadonlyArray<Alignment>
  /** The query's corporate family; `undefined` when the query has no identifying word. */
  readonly family: (text: string, allow?: SearchOptions["allow"], limit?: number) => Family | undefined
}

/**
 * Names scored in full per query at least, chosen by a cheap estimate from the postings. On the
 * labelled evaluation, the best ten entries by full score are always among the best 40 estimates.
 */
export const minCandidates = 40
const maxCandidates = 1000

/**
 * Search over one index. Candidates come only from the postings of dictionary entries a query slot
 * resembles (exact, misspelt, sound-alike, joined or split), never from a scan of the list; each
 * candidate name gets an estimate (its matched weight against the query's), the best few (see
 * `minCandidates`) are scored in full, and entries keep their best name. Scratch arrays are sized
 * once per index and reused: a search runs synchronously, start to end.
 */
export const make = (index: NameIndex): Matcher => {
  const prepareNew = makePreparer(index)
  // A REST answer searches, explains its page and finds the family for one text: prepared once.
  // A prepared query stays valid until the next is prepared, so the last one is safe to reuse.
  let lastText: string | undefined
  let lastQuery: PreparedQuery | undefined
  const prepare = (text: string): PreparedQuery => {
    if (text !== lastText || lastQuery === undefined) {
      lastQuery = prepareNew(text)
      lastText = text
    }
    return lastQuery
  }
  const n = index.nameCount
  const accumulated = new Float32Array(n)
  const lastSlot = new Int32Array(n)
  const lastValue = new Float32Array(n)
  const accumulatedCover = new Float32Array(n)
  const lastCover = new Float32Array(n)
  const credited = new Int32Array(n)
  const lastShare = new Float32Array(n)
  const seenIn = new Int32Array(n)
  const excluded = new Uint8Array(n)
  const touched = new Int32Array(n)
  const shortlist = new Shortlist(maxCandidates)
  let epoch = 0
  let touchedCount = 0

  let current: PreparedQuery | undefined

  /**
   * Records that `slot` found `name`: `value` is the query-side evidence, `covered` the weight of
   * the name's words it stands for (an acronym covers several). A slot counts once per name, with
   * its best match, and each query word once: a slot standing for words an earlier slot already
   * found for this name (a join of two words both found alone) adds only the share of the others.
   */
  const bump = (
    name: number,
    slot: number,
    mask: number,
    value: number,
    covered: number,
    allow: SearchOptions["allow"]
  ) => {
    if (seenIn[name] !== epoch) {
      seenIn[name] = epoch
      excluded[name] = allow === undefined || allow(index.nameEntry[name]!) ? 0 : 1
      accumulated[name] = 0
      accumulatedCover[name] = 0
      credited[name] = 0
      lastSlot[name] = -1
      touched[touchedCount++] = name
    }
    if (excluded[name] === 1) return
    if (lastSlot[name] !== slot) {
      const fresh = mask & ~credited[name]!
      const share = fresh === mask ? 1 : fresh === 0 ? 0 : weightOf(current!, fresh) / weightOf(current!, mask)
      credited[name] = credited[name]! | mask
      lastSlot[name] = slot
      lastShare[name] = share
      lastValue[name] = value * share
      lastCover[name] = covered * share
      accumulated[name] = accumulated[name]! + value * share
      accumulatedCover[name] = accumulatedCover[name]! + covered * share
      return
    }
    value *= lastShare[name]!
    covered *= lastShare[name]!
    if (value > lastValue[name]!) {
      accumulated[name] = accumulated[name]! + value - lastValue[name]!
      accumulatedCover[name] = accumulatedCover[name]! + covered - lastCover[name]!
      lastValue[name] = value
      lastCover[name] = covered
    }
  }

  /**
   * `queryWeight` is the weight of the query words the slot stands for: a slot is evidence for at
   * most those words, whatever the rarity of the listed word it resembles (a rare misspelling of a
   * common query word, or a rare abbreviation of it, must not outweigh the word spelled right).
   */
  const gather = (
    similar: Map<number, number>,
    slot: number,
    mask: number,
    informative: boolean,
    allow: SearchOptions["allow"]
  ) => {
    const queryWeight = weightOf(current!, mask)
    for (const [id, similarity] of similar) {
      if (informative && index.tokenClass[id] !== TokenClass.name) continue
      const value = similarity * Math.min(index.tokenWeight[id]!, queryWeight)
      if (id < index.singleTokenCount) {
        const end = index.tokenPostingStart[id + 1]!
        for (let k = index.tokenPostingStart[id]!; k < end; k++) {
          bump(index.tokenPostings[k]!, slot, mask, value, value, allow)
        }
      }
      const end = index.alternatePostingStart[id + 1]!
      for (let k = index.alternatePostingStart[id]!; k < end; k++) {
        bump(index.alternatePostings[k]!, slot, mask, value, similarity * index.alternatePostingWeight[k]!, allow)
      }
    }
  }

  /**
   * Entries by their best name's score. Equal scores go to the entry more of whose listed names
   * match the query (the sum of each listed string's best score: an acronym that is also another
   * listed alias of the same party is more evidence than a lone alias; the parts of one packed
   * "X a.k.a. Y" string count once), then to list order.
   */
  const rank = (names: ReadonlyArray<number>, scores: ReadonlyArray<number>): Array<Hit> => {
    const best = new Map<number, Hit>()
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!
      const score = scores[i]!
      if (score <= 0) continue
      const entry = index.nameEntry[name]!
      const alias = index.nameAlias[name]!
      const current = best.get(entry)
      if (current === undefined || score > current.score || (score === current.score && alias < current.alias)) {
        best.set(entry, { entry, alias, name, score })
      }
    }
    const hits = [...best.values()].sort((a, b) => b.score - a.score || a.entry - b.entry)
    let tied = false
    for (let i = 1; i < hits.length && !tied; i++) tied = hits[i]!.score === hits[i - 1]!.score
    if (!tied) return hits
    // Only ties need the support of each entry's other names (most answers have none).
    const byListed = new Map<number, Map<string, number>>()
    for (let i = 0; i < names.length; i++) {
      if (scores[i]! <= 0) continue
      const entry = index.nameEntry[names[i]!]!
      const listed = index.entries[entry]!.names[index.nameAlias[names[i]!]!]!.listed
      const scored = byListed.get(entry) ?? new Map<string, number>()
      scored.set(listed, Math.max(scored.get(listed) ?? 0, scores[i]!))
      byListed.set(entry, scored)
    }
    const support = new Map<number, number>()
    for (const [entry, scored] of byListed) {
      let sum = 0
      for (const score of scored.values()) sum += score
      support.set(entry, sum)
    }
    return hits.sort((a, b) => b.score - a.score || support.get(b.entry)! - support.get(a.entry)! || a.entry - b.entry)
  }

  const search = (text: string, options: SearchOptions): ReadonlyArray<Hit> | undefined => {
    const query = prepare(text)
    if (query.tokens.length === 0) return undefined
    const allow = options.allow
    if (!options.fuzzy) {
      const names = (index.exact.get(query.key) ?? []).filter((name) =>
        allow === undefined || allow(index.nameEntry[name]!)
      )
      return rank(names, names.map(() => 1))
    }

    if (++epoch === 0x7fffffff) {
      epoch = 1
      seenIn.fill(0)
    }
    touchedCount = 0
    current = query
    const informative = query.classes.includes(TokenClass.name)
    // Slots standing for the same query words (a word and its abbreviation: "trading", "trdg") are
    // one piece of evidence: gathered one after the other under one key, a name keeps the best.
    for (const [key, group] of slotsByMask(query).entries()) {
      for (const s of group) {
        const slot = query.slots[s]!
        // A slot made only of legal-form, title or filler words ("obshchestvo s") finds no candidates
        // when the query has a name word: it would fill the shortlist with every "OOO …".
        if (informative && !coversName(query.classes, slot.mask)) continue
        gather(slot.similar, key, slot.mask, informative, allow)
      }
    }

    shortlist.clear(Math.min(maxCandidates, Math.max(minCandidates, options.candidates ?? 0)))
    for (let t = 0; t < touchedCount; t++) {
      const name = touched[t]!
      if (excluded[name] === 1) continue
      const found = accumulated[name]!
      const left = Math.max(0, index.nameWeight[name]! - accumulatedCover[name]!)
      shortlist.offer(name, found / (query.totalWeight + unmatchedNameCost * left))
    }
    const names = shortlist.names()
    return rank(names, names.map((name) => score(index, query, name)))
  }

  const explainHits = (text: string, hits: ReadonlyArray<Hit>): ReadonlyArray<Alignment> => {
    if (hits.length === 0) return []
    const query = prepare(text)
    return hits.map((hit) => explain(index, query, hit.name))
  }

  const family = (text: string, allow: SearchOptions["allow"], limit?: number): Family | undefined => {
    const query = prepare(text)
    const found = familyNames(index, query, limit)
    if (found === undefined) return undefined
    const names = found.names.filter((name) => allow === undefined || allow(index.nameEntry[name]!))
    if (found.tooBroad) {
      return {
        words: found.words,
        hits: [],
        total: new Set(names.map((name) => index.nameEntry[name]!)).size,
        tooBroad: true
      }
    }
    const hits = rank(names, names.map((name) => score(index, query, name)))
    return { words: found.words, hits, total: hits.length, tooBroad: false }
  }

  return { index, search, explain: explainHits, family }
}

/** The query's slot indices grouped by the words they stand for, in order of first appearance. */
const slotsByMask = (query: PreparedQuery): Array<Array<number>> => {
  const groups = new Map<number, Array<number>>()
  query.slots.forEach((slot, s) => {
    const group = groups.get(slot.mask)
    if (group === undefined) groups.set(slot.mask, [s])
    else group.push(s)
  })
  return [...groups.values()]
}

const weightOf = (query: PreparedQuery, mask: number) => {
  let sum = 0
  for (let i = 0; i < query.tokens.length; i++) if ((mask & (1 << i)) !== 0) sum += query.weights[i]!
  return sum
}

const coversName = (classes: ReadonlyArray<TokenClass>, mask: number) => {
  for (let i = 0; i < classes.length; i++) if ((mask & (1 << i)) !== 0 && classes[i] === TokenClass.name) return true
  return false
}

/** The `capacity` best-estimated names seen (a min-heap on the estimate). */
class Shortlist {
  private readonly ids: Int32Array
  private readonly values: Float64Array
  private size = 0
  private capacity = 0
  constructor(maxCapacity: number) {
    this.ids = new Int32Array(maxCapacity)
    this.values = new Float64Array(maxCapacity)
  }
  clear(capacity: number) {
    this.size = 0
    this.capacity = capacity
  }
  offer(id: number, value: number) {
    if (this.size < this.capacity) {
      let i = this.size++
      while (i > 0) {
        const parent = (i - 1) >> 1
        if (this.values[parent]! <= value) break
        this.ids[i] = this.ids[parent]!
        this.values[i] = this.values[parent]!
        i = parent
      }
      this.ids[i] = id
      this.values[i] = value
      return
    }
    if (value <= this.values[0]!) return
    let i = 0
    for (;;) {
      const left = 2 * i + 1
      if (left >= this.size) break
      const right = left + 1
      const child = right < this.size && this.values[right]! < this.values[left]! ? right : left
      if (this.values[child]! >= value) break
      this.ids[i] = this.ids[child]!
      this.values[i] = this.values[child]!
      i = child
    }
    this.ids[i] = id
    this.values[i] = value
  }
  names(): Array<number> {
    return Array.from(this.ids.subarray(0, this.size))
  }
}
