import { combine, MatchKind, type MatchKindName, matchKindNames } from "./MatchKind.ts"
import type { NameIndex } from "./NameIndex.ts"
import { maxMaskedTokens } from "./Normalize.ts"
import type { PreparedQuery } from "./Query.ts"
import { TokenClass } from "./Vocabulary.ts"

/**
 * The score of one indexed name against a prepared query, 0–1.
 *
 * Tokens are aligned order-free: every query token (or join of two neighbours) may pair with one
 * name token (or join), pairs are taken greedily from the most similar down, each token used once.
 * The score is the weighted share of the name that was found:
 *
 *   Σ sim·w(pair) / (Σ w(pair) + 1.0·w(query tokens left over) + 0.2·w(name tokens left over))
 *
 * where w(pair) is the mean weight of both sides. A query word the name lacks costs its full
 * weight (it is evidence of a different party); a name word the query lacks costs a fifth (people
 * drop middle names and legal forms); rare words weigh more than common ones, legal forms,
 * honorifics and fillers very little.
 */

export const unmatchedQueryCost = 1
export const unmatchedNameCost = 0.2
/**
 * A query word between two words that matched a person's name is most likely a middle, clan or
 * father's name the list leaves out ("Sergey Kuzhugetovich Shoigu"): it costs this share.
 */
export const insertedPartCost = 0.3
/**
 * Factor on a person's name matched in another word order than the list writes it ("Friedrich
 * Hans" for "Hans Friedrich", "Mahmud bin Rashid" for "Rashid bin Mahmud"): below the default
 * threshold even when every word matched, unless one of the entry's names has that order.
 */
export const reorderedPersonFactor = 0.8
/** Similarity of an initial to a word it could abbreviate ("J" ~ "JOHN"). */
export const initialSimilarity = 0.8

const isLetter = (code: number) => code >= 97 && code <= 122

/** An initial (one letter) against a longer word starting with it. */
const initialOf = (initial: string, word: string): number =>
  word.length > 1 && isLetter(initial.charCodeAt(0)) && word.charCodeAt(0) === initial.charCodeAt(0)
    ? initialSimilarity
    : 0

// Scratch space for the pairs of one name; scoring is synchronous, so one set serves every call.
const capacity = 4096
const pairQuery = new Int32Array(capacity)
const pairName = new Int32Array(capacity)
const pairSimilarity = new Float64Array(capacity)
const pairWeight = new Float64Array(capacity)
const pairKind = new Uint8Array(capacity)
const pairTaken = new Uint8Array(capacity)
let pairCount = 0
const chosen = new Int32Array(64)
let chosenCount = 0

const addPair = (query: number, name: number, similarity: number, kind: MatchKind) => {
  if (pairCount === capacity) return
  pairQuery[pairCount] = query
  pairName[pairCount] = name
  pairKind[pairCount] = kind
  pairSimilarity[pairCount++] = similarity
}

/** Pairs every slot that matched dictionary entry `id` with the name positions `nameMask`. */
const pairMatches = (
  query: PreparedQuery,
  id: number,
  nameMask: number,
  strength: number,
  listedKind: MatchKind
) => {
  const matches = query.matches
  if (matches.stamp[id] !== matches.epoch) return
  for (let link = matches.head[id]!; link !== -1; link = matches.next[link]!) {
    addPair(
      query.slots[matches.slot[link]!]!.mask,
      nameMask,
      matches.similarity[link]! * strength,
      combine(matches.kind[link] as MatchKind, listedKind)
    )
  }
}

const queryWeight = (query: PreparedQuery, mask: number) => {
  let sum = 0
  for (let i = 0; i < query.tokens.length; i++) if (mask & (1 << i)) sum += query.weights[i]!
  return sum
}

const nameWeight = (index: NameIndex, tokenStart: number, aligned: number, mask: number) => {
  let sum = 0
  for (let j = 0; j < aligned; j++) if (mask & (1 << j)) sum += index.nameTokenWeight[tokenStart + j]!
  return sum
}

export const score = (index: NameIndex, query: PreparedQuery, name: number): number =>
  index.nameKey[name] === query.key ? 1 : align(index, query, name)

let lastReordered = false

/**
 * The alignment itself: fills the pair scratch arrays and `chosen` (the pairs taken, in the order
 * taken) and returns the score. `explain` reads what it leaves behind.
 */
const align = (index: NameIndex, query: PreparedQuery, name: number): number => {
  lastReordered = false
  chosenCount = 0
  const tokenStart = index.nameTokenStart[name]!
  const aligned = Math.min(index.nameTokenStart[name + 1]! - tokenStart, maxMaskedTokens)
  const alternateStart = index.nameAlternateStart[name]!
  const alternateEnd = index.nameAlternateStart[name + 1]!
  pairCount = 0
  for (let j = 0; j < aligned; j++) pairMatches(query, index.nameTokens[tokenStart + j]!, 1 << j, 1, MatchKind.exact)
  for (let k = alternateStart; k < alternateEnd; k++) {
    pairMatches(
      query,
      index.nameAlternates[k]!,
      index.nameAlternateMask[k]!,
      index.nameAlternateStrength[k]!,
      index.nameAlternateKind[k] as MatchKind
    )
  }
  for (const i of query.initials) {
    for (let j = 0; j < aligned; j++) {
      const similarity = initialOf(query.tokens[i]!, index.tokens[index.nameTokens[tokenStart + j]!]!)
      if (similarity > 0) addPair(1 << i, 1 << j, similarity, MatchKind.initial)
    }
  }
  if (pairCount === 0) return 0
  pairTaken.fill(0, 0, pairCount)

  for (let p = 0; p < pairCount; p++) {
    pairWeight[p] = (queryWeight(query, pairQuery[p]!) + nameWeight(index, tokenStart, aligned, pairName[p]!)) / 2
  }

  // Greedy: the most similar remaining pair (on ties the weightier, then the one in order) whose
  // tokens are all free.
  let usedQuery = 0
  let usedName = 0
  let found = 0
  let paired = 0
  for (;;) {
    let best = -1
    for (let p = 0; p < pairCount; p++) {
      if (pairTaken[p] === 1) continue
      if ((pairQuery[p]! & usedQuery) !== 0 || (pairName[p]! & usedName) !== 0) {
        pairTaken[p] = 1
        continue
      }
      if (
        best === -1 || pairSimilarity[p]! > pairSimilarity[best]! ||
        (pairSimilarity[p] === pairSimilarity[best] &&
          (pairWeight[p]! > pairWeight[best]! ||
            (pairWeight[p] === pairWeight[best] && offDiagonal(p) < offDiagonal(best))))
      ) best = p
    }
    if (best === -1) break
    pairTaken[best] = 1
    if (chosenCount < chosen.length) chosen[chosenCount++] = best
    usedQuery |= pairQuery[best]!
    usedName |= pairName[best]!
    found += pairSimilarity[best]! * pairWeight[best]!
    paired += pairWeight[best]!
  }
  const ordered = index.nameOrdered[name] === 1
  const leftInQuery = index.namePersonal[name] === 1
    ? unmatchedQueryWeight(query, usedQuery)
    : query.totalWeight - queryWeight(query, usedQuery)
  const leftInName = index.nameWeight[name]! - nameWeight(index, tokenStart, aligned, usedName)
  const value = found / (paired + unmatchedQueryCost * leftInQuery + unmatchedNameCost * leftInName)
  lastReordered = ordered && !inListedOrder(query, chosenCount, aligned, index.nameSurnameCount[name]!)
  return lastReordered ? value * reorderedPersonFactor : value
}

const lowestBit = (mask: number) => 31 - Math.clz32(mask & -mask)

/**
 * How far a pair strays from pairing the i-th query word with the i-th name word: on a tie, the
 * pair in order wins ("mhmdy mhmd" against MOHAMMADI MOHAMMAD, both skeleton "mhmd").
 */
const offDiagonal = (pair: number) => Math.abs(lowestBit(pairQuery[pair]!) - lowestBit(pairName[pair]!))

/** Weight of the query words left unpaired, those between paired words at `insertedPartCost`. */
const unmatchedQueryWeight = (query: PreparedQuery, used: number) => {
  if (used === 0) return query.totalWeight
  const first = lowestBit(used)
  const last = 31 - Math.clz32(used)
  let sum = 0
  for (let i = 0; i < query.tokens.length; i++) {
    if (used & (1 << i)) continue
    sum += query.weights[i]! * (i > first && i < last ? insertedPartCost : 1)
  }
  return sum
}

/**
 * Whether the paired name words (of the query's name-class words) come in the name's order as
 * written or, for "SURNAME, Given" names, given names first. Joined pairs count by their first word.
 */
const inListedOrder = (query: PreparedQuery, count: number, aligned: number, surnameCount: number) => {
  let previousQuery = -1
  let lastWritten = -1
  let lastReading = -1
  let written = true
  let reading = surnameCount > 0
  for (let step = 0; step < count; step++) {
    // the next pair in query order
    let next = -1
    let nextQuery = 32
    for (let c = 0; c < count; c++) {
      const q = lowestBit(pairQuery[chosen[c]!]!)
      if (q > previousQuery && q < nextQuery) {
        nextQuery = q
        next = chosen[c]!
      }
    }
    if (next === -1) break
    previousQuery = nextQuery
    if (query.classes[nextQuery] !== TokenClass.name) continue
    const position = lowestBit(pairName[next]!)
    const readingPosition = position >= surnameCount ? position - surnameCount : position + aligned - surnameCount
    if (position < lastWritten) written = false
    if (readingPosition < lastReading) reading = false
    lastWritten = position
    lastReading = readingPosition
    if (!written && !reading) return false
  }
  return true
}

/** One step of an alignment: query words → listed words, or a word on one side only. */
export interface AlignedStep {
  /** The query's words (normalized), null for a listed word the query lacks. */
  readonly query: string | null
  /** The listed name's words (normalized), null for a query word the name lacks. */
  readonly listed: string | null
  readonly kind: MatchKindName | "added" | "dropped" | "title"
  /** 0–1: how alike the two sides are (0 for a word on one side only). */
  readonly similarity: number
  /** What the step weighs in the score: rare words much, titles, legal forms and left-out words little. */
  readonly weight: number
}

export interface Alignment {
  readonly steps: ReadonlyArray<AlignedStep>
  /** A person's names paired in another order than listed: the score was multiplied by `reorderedPersonFactor`. */
  readonly reordered: boolean
}

const bitCount = (mask: number) => {
  let count = 0
  for (let rest = mask; rest !== 0; rest &= rest - 1) count++
  return count
}

const round2 = (value: number) => Math.round(value * 100) / 100

const wordsAt = (mask: number, word: (position: number) => string) => {
  const found: Array<string> = []
  for (let i = 0; mask >>> i !== 0; i++) if (mask & (1 << i)) found.push(word(i))
  return found.join(" ")
}

/** What a word on one side only counts as: a title or legal form whatever the side, else added or dropped. */
const unpairedKind = (cls: TokenClass, otherwise: "added" | "dropped"): AlignedStep["kind"] =>
  cls === TokenClass.honorific ? "title" : cls === TokenClass.legalForm ? "legal_form" : otherwise

/**
 * The alignment `score` computed for a name, step by step: the pairs the greedy alignment took
 * (in query order), then the query words it left unpaired and the listed words the query lacks,
 * each with the weight it carried. The same code path as the score, so it is what the score rests on.
 */
export const explain = (index: NameIndex, query: PreparedQuery, name: number): Alignment => {
  align(index, query, name)
  const tokenStart = index.nameTokenStart[name]!
  const aligned = Math.min(index.nameTokenStart[name + 1]! - tokenStart, maxMaskedTokens)
  const listedWord = (j: number) => index.tokens[index.nameTokens[tokenStart + j]!]!
  const queryWord = (i: number) => query.tokens[i]!
  const steps: Array<{ readonly at: number; readonly step: AlignedStep }> = []
  let usedQuery = 0
  let usedName = 0
  for (let c = 0; c < chosenCount; c++) {
    const p = chosen[c]!
    usedQuery |= pairQuery[p]!
    usedName |= pairName[p]!
    // Two words against the same two words (a join of each side, perhaps in reading order) are exact.
    const joinedAlike = pairKind[p] === MatchKind.joined && bitCount(pairQuery[p]!) === bitCount(pairName[p]!)
    steps.push({
      at: lowestBit(pairQuery[p]!),
      step: {
        query: wordsAt(pairQuery[p]!, queryWord),
        listed: wordsAt(pairName[p]!, listedWord),
        kind: matchKindNames[joinedAlike ? MatchKind.exact : pairKind[p]!]!,
        similarity: round2(pairSimilarity[p]!),
        weight: round2(pairWeight[p]!)
      }
    })
  }
  const personal = index.namePersonal[name] === 1
  const first = usedQuery === 0 ? -1 : lowestBit(usedQuery)
  const last = usedQuery === 0 ? -1 : 31 - Math.clz32(usedQuery)
  for (let i = 0; i < query.tokens.length; i++) {
    if (usedQuery & (1 << i)) continue
    const share = personal && i > first && i < last ? insertedPartCost : unmatchedQueryCost
    steps.push({
      at: i,
      step: {
        query: queryWord(i),
        listed: null,
        kind: unpairedKind(query.classes[i]!, "added"),
        similarity: 0,
        weight: round2(query.weights[i]! * share)
      }
    })
  }
  steps.sort((a, b) => a.at - b.at)
  for (let j = 0; j < aligned; j++) {
    if (usedName & (1 << j)) continue
    steps.push({
      at: Number.MAX_SAFE_INTEGER,
      step: {
        query: null,
        listed: listedWord(j),
        kind: unpairedKind(index.tokenClass[index.nameTokens[tokenStart + j]!] as TokenClass, "dropped"),
        similarity: 0,
        weight: round2(index.nameTokenWeight[tokenStart + j]! * unmatchedNameCost)
      }
    })
  }
  return { steps: steps.map(({ step }) => step), reordered: lastReordered }
}
