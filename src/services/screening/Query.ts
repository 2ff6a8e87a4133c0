import { MaxNameTokens } from "../../domain/Screening.ts"
import { formMatchKind, MatchKind } from "./MatchKind.ts"
import type { NameIndex } from "./NameIndex.ts"
import { classWeight } from "./NameIndex.ts"
import { normalize, TokenClass, TokenMark } from "./Normalize.ts"
import { wadeGilesKeys } from "./Sinitic.ts"
import {
  consonantSkeleton,
  greekKey,
  hasDigit,
  type PhoneticKeys,
  phoneticKeys,
  phoneticSimilarity,
  similarity,
  spelledSimilarity,
  spelledWithoutVowels,
  transliterationKey
} from "./TokenSimilarity.ts"

/**
 * A query prepared against one index: its tokens and their weights, its slots (each token, and
 * each alternate form: joins of two neighbouring tokens, "hua wei" → "huawei", and canonical legal
 * forms), and for every slot the dictionary entries it resembles. Similarities are computed once
 * per query; scoring a candidate name then only looks them up, by dictionary id, in `matches`.
 */
export interface QuerySlot {
  readonly text: string
  /** Bit mask of the query token positions the slot covers. */
  readonly mask: number
  /** Dictionary id → similarity (0–1] of the entries this slot resembles. */
  readonly similar: Map<number, number>
  /** Dictionary id → how the slot resembles it (`MatchKind`), for explanations. */
  readonly kinds: Map<number, MatchKind>
}

/** The entries a text resembles, each with its similarity and how it was found. */
interface Resemblance {
  readonly similar: Map<number, number>
  readonly kinds: Map<number, MatchKind>
}

/** Records a resemblance unless the entry is already known as at least as similar. */
const offer = (found: Resemblance, id: number, value: number, kind: MatchKind) => {
  if ((found.similar.get(id) ?? 0) >= value) return
  found.similar.set(id, value)
  found.kinds.set(id, kind)
}

/**
 * The slot matches of every dictionary id, as linked lists in flat arrays (an id usually matches
 * no slot or one): `head[id]` is valid when `stamp[id] === epoch`.
 */
export interface SlotMatches {
  readonly epoch: number
  readonly stamp: Int32Array
  readonly head: Int32Array
  readonly slot: Int32Array
  readonly similarity: Float64Array
  readonly kind: Uint8Array
  readonly next: Int32Array
}

export interface PreparedQuery {
  readonly key: string
  readonly tokens: ReadonlyArray<string>
  readonly classes: ReadonlyArray<TokenClass>
  readonly weights: Float64Array
  readonly totalWeight: number
  /** The query's tokens first (slot i is token i), then its alternate forms. */
  readonly slots: ReadonlyArray<QuerySlot>
  /** Tokens that are a single letter (possible initials). */
  readonly initials: ReadonlyArray<number>
  readonly matches: SlotMatches
}

/** Weight of a query token that resembles nothing on the list: as informative as the rarest token. */
const unknownTokenWeight = 1

/** Shorter tokens are within one edit of their sound-alikes anyway: the deletion index finds them. */
const minPhoneticLength = 4

/**
 * Longer "words" are looked up exactly: no listed word comes near this length, and the deletion
 * variants of a token grow with the square of its length (a 500-letter token would have 125,000).
 */
const maxFuzzyLength = 40

const weightOf = (index: NameIndex, token: string, cls: TokenClass, similar: ReadonlyMap<number, number>): number => {
  if (cls !== TokenClass.name) return classWeight[cls]
  const id = index.dictionary.get(token)
  if (id !== undefined && id < index.singleTokenCount) return index.tokenWeight[id]!
  let best = 0
  let weight = unknownTokenWeight
  for (const [candidate, score] of similar) {
    if (candidate < index.singleTokenCount && score > best) {
      best = score
      weight = index.tokenWeight[candidate]!
    }
  }
  return weight
}

const linkCapacity = 1 << 16

/**
 * Similarity of a romanised Arabic or Hebrew word to a listed word with the same consonants: high
 * for three or more consonants, lower for the short skeletons many names share ("l" for "Ali").
 */
const abjadSimilarity = (skeleton: string) => (skeleton.length >= 3 ? 0.95 : skeleton.length === 2 ? 0.92 : 0.85)
/** The same when the listed word is the abjad word with its short vowels put in (see `spelledWithoutVowels`). */
const vowelledSimilarity = (skeleton: string) => (skeleton.length >= 3 ? 0.97 : skeleton.length === 2 ? 0.95 : 0.93)
/** A Cyrillic or Greek spelling of a listed Latin word (see `transliterationKey`). */
const backTransliterationSimilarity = 0.95

/**
 * A word cut short stands for the listed words it begins ("Shen" → "Shenzhen", "Fed." → "Federal"):
 * with a full stop from two letters, without one from four (shorter bare words are whole words
 * more often than cuts). Weaker than a spelling match without the stop, and only when few listed
 * words begin so (the cut must still point somewhere).
 */
const truncationSimilarity = { dotted: 0.93, bare: 0.86 }
const maxCompletions = { dotted: 256, bare: 64 }
/** A Chinese name in Wade-Giles against its Pinyin, or the reverse: the same syllables. */
const romanizationSimilarity = 0.93
/** Longer bare words are whole words: looking up their completions only costs time. */
const maxBareCut = 6
/** The listed word must be this many letters longer than the cut. */
const minCutLetters = 2

/**
 * Digits people and OCR put for letters that look alike ("Ig0r Sech1n"): folded back in words that
 * are mostly letters. Series numbers ("S7", "3K") are short or mostly digits and stay as they are.
 */
const lookalikeLetters: Record<string, string> = {
  "0": "o",
  "1": "i",
  "3": "e",
  "4": "a",
  "5": "s",
  "8": "b",
  "9": "g"
}
/** The word with lookalike digits read as letters ("1" as "i" and, separately, as "l"). */
const lookalikeFolded = (token: string): Array<string> => {
  const digits = token.replace(/[^0-9]/g, "").length
  if (digits === 0 || digits * 2 > token.length || !/[a-z]/.test(token)) return []
  const folded = token.replace(/[0-9]/g, (digit) => lookalikeLetters[digit] ?? digit)
  if (hasDigit(folded)) return []
  return token.includes("1")
    ? [folded, token.replace(/[0-9]/g, (digit) => digit === "1" ? "l" : lookalikeLetters[digit]!)]
    : [folded]
}
/** A lookalike-folded word is a little less certain than one typed in letters. */
const lookalikeDiscount = 0.97
/** A word repeated in the query ("Sergey Sergey Shoigu") is a slip: its repeat weighs this share. */
const repeatWeightShare = 0.1

/**
 * Prepares queries for one index. A token is compared with its deletion neighbours and
 * sound-alikes; an alternate form is looked up exactly (joins exist to catch split and joined
 * words and boundary shifts such as "LAUREN TNKUNDA", not to stack a second fuzziness on top).
 * The scratch arrays are reused: a prepared query is valid until the next one is prepared.
 */
export const makePreparer = (index: NameIndex) => {
  const seenIn = new Int32Array(index.singleTokenCount)
  const neighbours: Array<number> = []
  let seenEpoch = 0
  const matches = {
    epoch: 0,
    stamp: new Int32Array(index.tokens.length),
    head: new Int32Array(index.tokens.length),
    slot: new Int32Array(linkCapacity),
    similarity: new Float64Array(linkCapacity),
    kind: new Uint8Array(linkCapacity),
    next: new Int32Array(linkCapacity)
  }
  let links = 0

  const consider = (text: string, keys: PhoneticKeys, id: number, found: Resemblance) => {
    if (seenIn[id] === seenEpoch) return
    seenIn[id] = seenEpoch
    if (index.tokenHasDigit[id] === 1) return
    const listed = index.tokens[id]!
    const score = similarity(text, listed, keys, index.tokenKeys[id]!)
    if (score <= 0) return
    // The sound-alike rescue grants exactly `phoneticSimilarity` to words too far apart to spell alike.
    const phonetic = score === phoneticSimilarity && spelledSimilarity(text, listed) < phoneticSimilarity
    found.similar.set(id, score)
    found.kinds.set(id, phonetic ? MatchKind.phonetic : MatchKind.typo)
  }

  /** Listed words the cut `text` begins, added to `similar`. */
  const completions = (text: string, dotted: boolean, found: Resemblance) => {
    const sorted = index.sortedTokens
    let low = 0
    let high = sorted.length
    while (low < high) {
      const mid = (low + high) >> 1
      if (index.tokens[sorted[mid]!]! < text) low = mid + 1
      else high = mid
    }
    const limit = dotted ? maxCompletions.dotted : maxCompletions.bare
    let end = low
    while (end < sorted.length && end - low <= limit && index.tokens[sorted[end]!]!.startsWith(text)) end++
    if (end - low > limit) return
    const value = dotted ? truncationSimilarity.dotted : truncationSimilarity.bare
    for (let k = low; k < end; k++) {
      const id = sorted[k]!
      if (index.tokens[id]!.length < text.length + minCutLetters || index.tokenHasDigit[id] === 1) continue
      offer(found, id, value, MatchKind.abbreviation)
    }
  }

  const abjadMatches = (text: string, found: Resemblance) => {
    const skeleton = consonantSkeleton(text)
    if (skeleton === "") return
    for (const id of index.skeletons.get(skeleton) ?? []) {
      const value = spelledWithoutVowels(text, index.tokens[id]!)
        ? vowelledSimilarity(skeleton)
        : abjadSimilarity(skeleton)
      offer(found, id, value, MatchKind.transliteration)
    }
  }

  /** Listed Latin words this Cyrillic or Greek word spells (Greek X stands for both KH and CH). */
  const backTransliterations = (text: string, greek: boolean, found: Resemblance) => {
    const keys = greek
      ? [greekKey(transliterationKey(text, true)), greekKey(transliterationKey(text))]
      : [transliterationKey(text)]
    const map = greek ? index.greekTransliterations : index.transliterations
    for (const key of keys) {
      for (const id of map.get(key) ?? []) offer(found, id, backTransliterationSimilarity, MatchKind.transliteration)
    }
  }

  /** Listed words spelling the same Chinese syllables in the other romanization ("tsetung" ↔ "zedong"). */
  const wadeGilesMatches = (text: string, found: Resemblance) => {
    for (const key of wadeGilesKeys(text)) {
      for (const id of index.wadeGiles.get(key) ?? []) {
        offer(found, id, romanizationSimilarity, MatchKind.transliteration)
      }
    }
  }

  const resemblingToken = (text: string, mark: number): Resemblance => {
    const folds = lookalikeFolded(text)
    if (folds.length > 0) {
      const found = resembling(text, true)
      for (const folded of folds) {
        // A digit read as the letter it looks like is a slip of the same kind as a typo.
        for (const [id, score] of resembling(folded, true).similar) {
          offer(found, id, score * lookalikeDiscount, MatchKind.typo)
        }
      }
      return found
    }
    const found = resembling(text, true)
    if (hasDigit(text)) return found
    if ((mark & TokenMark.abjad) !== 0) abjadMatches(text, found)
    if ((mark & (TokenMark.cyrillic | TokenMark.greek)) !== 0 && text.length >= 2) {
      backTransliterations(text, (mark & TokenMark.greek) !== 0, found)
    }
    wadeGilesMatches(text, found)
    const dotted = (mark & TokenMark.dotted) !== 0
    if (dotted ? text.length >= 2 : text.length >= 4 && text.length <= maxBareCut) completions(text, dotted, found)
    return found
  }

  const resembling = (text: string, fuzzy: boolean, exactKind: MatchKind = MatchKind.exact): Resemblance => {
    const found: Resemblance = { similar: new Map(), kinds: new Map() }
    const exact = index.dictionary.get(text)
    if (exact !== undefined) {
      found.similar.set(exact, 1)
      found.kinds.set(exact, exactKind)
    }
    if (!fuzzy || hasDigit(text) || text.length > maxFuzzyLength) return found
    if (++seenEpoch === 0x7fffffff) {
      seenEpoch = 1
      seenIn.fill(0)
    }
    if (exact !== undefined && exact < index.singleTokenCount) seenIn[exact] = seenEpoch
    const keys = phoneticKeys(text)
    for (const id of index.deletions.neighbours(text, neighbours)) consider(text, keys, id, found)
    if (text.length >= minPhoneticLength && keys.primary.length >= 2) {
      for (const id of index.phonetic.get(keys.primary) ?? []) consider(text, keys, id, found)
      if (keys.secondary !== keys.primary) {
        for (const id of index.phonetic.get(keys.secondary) ?? []) consider(text, keys, id, found)
      }
    }
    return found
  }

  const link = (id: number, slot: number, score: number, kind: MatchKind) => {
    if (links === linkCapacity) return
    if (matches.stamp[id] !== matches.epoch) {
      matches.stamp[id] = matches.epoch
      matches.head[id] = -1
    }
    matches.slot[links] = slot
    matches.similarity[links] = score
    matches.kind[links] = kind
    matches.next[links] = matches.head[id]!
    matches.head[id] = links++
  }

  return (text: string): PreparedQuery => {
    const { classes, forms, key, marks, tokens } = normalize(text, MaxNameTokens)
    const slots: Array<QuerySlot> = []
    const weights = new Float64Array(tokens.length)
    let totalWeight = 0
    for (let i = 0; i < tokens.length; i++) {
      const { kinds, similar } = resemblingToken(tokens[i]!, marks[i]!)
      slots.push({ text: tokens[i]!, mask: 1 << i, similar, kinds })
      const repeated = tokens.indexOf(tokens[i]!) < i
      weights[i] = weightOf(index, tokens[i]!, classes[i]!, similar) * (repeated ? repeatWeightShare : 1)
      totalWeight += weights[i]!
    }
    for (let i = 1; i < tokens.length; i++) {
      // A repeated word joins nothing: "HAMAWANDI HAMAWANDI Kawa" must not pair as "hamawandi" + "hamawandikawa".
      if (tokens.indexOf(tokens[i - 1]!) < i - 1 || tokens.indexOf(tokens[i]!) < i) continue
      const joined = tokens[i - 1]! + tokens[i]!
      const found = resembling(joined, false, MatchKind.joined)
      wadeGilesMatches(joined, found)
      slots.push({ text: joined, mask: 3 << (i - 1), ...found })
    }
    for (const form of forms) {
      slots.push({ text: form.text, mask: form.mask, ...resembling(form.text, false, formMatchKind(form.text)) })
    }

    if (++matches.epoch === 0x7fffffff) {
      matches.epoch = 1
      matches.stamp.fill(0)
    }
    links = 0
    slots.forEach((slot, s) => {
      for (const [id, score] of slot.similar) link(id, s, score, slot.kinds.get(id) ?? MatchKind.exact)
    })
    const initials = tokens.flatMap((token, i) => (token.length === 1 ? [i] : []))
    return { key, tokens, classes, weights, totalWeight, slots, initials, matches }
  }
}
