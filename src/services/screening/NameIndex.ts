import { runNow, stepEvery, type Steps } from "../Cooperative.ts"
import { acronymsOf } from "./Acronyms.ts"
import type { SearchableName } from "./Aliases.ts"
import { csr, postings, postingWeights } from "./Csr.ts"
import * as DeletionIndex from "./DeletionIndex.ts"
import { formMatchKind, MatchKind } from "./MatchKind.ts"
import { maxMaskedTokens, normalize, type NormalizedName, TokenClass } from "./Normalize.ts"
import { readingOrders, surnameCountOf } from "./ReadingOrder.ts"
import { isPinyin, wadeGilesKeys } from "./Sinitic.ts"
import {
  consonantSkeleton,
  greekKey,
  hasDigit,
  type PhoneticKeys,
  phoneticKeys,
  transliterationKey
} from "./TokenSimilarity.ts"

/**
 * The searchable form of a list: one indexed name per name and alias, each a sequence of token ids
 * from a shared dictionary. Each name also has alternate forms, each standing for a set of its
 * word positions: joins of neighbouring words ("al qaida" → "alqaida", also in given-name-first
 * order for "SURNAME, Given" names), so split, joined and boundary-shifted spellings find each other
 * by a lookup; and canonical legal forms and abbreviations ("limited liability company" → "llc").
 * All per-name and per-token data live in flat typed arrays (CSR layout): building is linear,
 * memory compact, and a search touches only the postings of the tokens it matched.
 */
/** Anything searched by name: a list entry, an enforcement record … */
export interface Named {
  readonly names: ReadonlyArray<SearchableName>
  /** A natural person: the order of given and family names is evidence (see `nameOrdered`). */
  readonly personal?: boolean | undefined
}

export interface NameIndex {
  readonly entries: ReadonlyArray<Named>
  readonly nameCount: number
  readonly nameEntry: Int32Array
  readonly nameAlias: Int32Array
  readonly nameKey: ReadonlyArray<string>
  readonly nameTokenStart: Int32Array
  readonly nameTokens: Int32Array
  /** Weight of each token occurrence (its class decides, in context). */
  readonly nameTokenWeight: Float32Array
  readonly nameAlternateStart: Int32Array
  readonly nameAlternates: Int32Array
  /** For each alternate form, the bit mask of the token positions it stands for. */
  readonly nameAlternateMask: Int32Array
  /** For each alternate form, the similarity a match through it is worth (1; less for acronyms). */
  readonly nameAlternateStrength: Float32Array
  /** For each alternate form, what it is (`MatchKind`: joined words, legal form, acronym …). */
  readonly nameAlternateKind: Uint8Array
  /** Sum of token weights per name. */
  readonly nameWeight: Float32Array
  /**
   * 1 for a person's name whose word order identifies: not Pinyin-shaped (Chinese names are
   * written family name first or last alike). A query that pairs its words in another order than
   * the name's (as written, or given names first for "SURNAME, Given") scores lower.
   */
  readonly nameOrdered: Uint8Array
  /** 1 for a person's name: a query word between two matched words is likely a middle name. */
  readonly namePersonal: Uint8Array
  /** Words before the comma of a "SURNAME, Given" name (0 without one). */
  readonly nameSurnameCount: Int32Array
  /** Consonant skeleton of every dictionary entry → ids (how romanised abjad words are looked up). */
  readonly skeletons: ReadonlyMap<string, ReadonlyArray<number>>
  /** `transliterationKey` of every listed word → ids (how Cyrillic and Greek spellings are looked up). */
  readonly transliterations: ReadonlyMap<string, ReadonlyArray<number>>
  /** The same keys without H (`greekKey`), for Greek spellings. */
  readonly greekTransliterations: ReadonlyMap<string, ReadonlyArray<number>>
  /** Wade-Giles spelling → ids of the dictionary entries that stand for it (see `Sinitic`). */
  readonly wadeGiles: ReadonlyMap<string, ReadonlyArray<number>>
  /** Single-token ids in alphabetical order of their text (prefix lookups of truncated words). */
  readonly sortedTokens: Int32Array

  readonly dictionary: ReadonlyMap<string, number>
  readonly tokens: ReadonlyArray<string>
  /** Ids below this are tokens that occur as words (the rest only as alternate forms). */
  readonly singleTokenCount: number
  /** Typical weight of a dictionary entry (its usual class, or its rarity). */
  readonly tokenWeight: Float32Array
  /** The class a dictionary entry has in most of its occurrences. */
  readonly tokenClass: Uint8Array
  /** 1 for tokens containing a digit: those match only exactly. */
  readonly tokenHasDigit: Uint8Array
  /** Phonetic keys of the single tokens. */
  readonly tokenKeys: ReadonlyArray<PhoneticKeys>
  readonly tokenPostingStart: Int32Array
  readonly tokenPostings: Int32Array
  readonly alternatePostingStart: Int32Array
  readonly alternatePostings: Int32Array
  /** Per alternate posting, the weight of the name's words the alternate form stands for. */
  readonly alternatePostingWeight: Float32Array
  readonly phonetic: ReadonlyMap<string, ReadonlyArray<number>>
  readonly deletions: DeletionIndex.DeletionIndex
  readonly exact: ReadonlyMap<string, ReadonlyArray<number>>
}

/** Fixed weights of the low-information classes; name tokens weigh 0.2–1 by rarity. */
export const classWeight: Record<TokenClass, number> = {
  [TokenClass.name]: 1,
  [TokenClass.legalForm]: 0.1,
  [TokenClass.honorific]: 0.06,
  [TokenClass.filler]: 0.08,
  [TokenClass.patronymic]: 0.3
}

const classCount = Object.keys(TokenClass).length
const minNameWeight = 0.2
/** A single letter is mostly an initial: weak evidence however rare. */
const initialWeight = 0.25

/**
 * Inverse document frequency scaled to 0–1 (a token on one name weighs 1); rare tokens identify a
 * party, common ones ("al", "trading", "bank") much less.
 */
export const rarityWeight = (namesWithToken: number, names: number): number =>
  Math.max(minNameWeight, Math.min(1, Math.log((names + 1) / namesWithToken) / Math.log(names + 1)))

/**
 * A match through an organization's initials ("PLA" for "People's Liberation Army") is worth this
 * much: above the default threshold but below a spelled-out match, since many names share
 * initials; a little less when the acronym spells a legal form or connecting word too.
 */
const acronymStrength = { plain: 0.9, withOptional: 0.88 }

interface PendingName {
  readonly entry: number
  readonly personal: boolean
  readonly alias: number
  readonly listed: string
  readonly name: NormalizedName
}

/**
 * Key → ids of the first `count` dictionary entries that `take` accepts, under each of their keys
 * (empty keys left out): how skeletons, transliteration keys and Wade-Giles spellings are looked up.
 */
function* keyIndexSteps(
  tokens: ReadonlyArray<string>,
  count: number,
  take: (token: string, id: number) => boolean,
  keysOf: (token: string) => Iterable<string>
): Steps<Map<string, Array<number>>> {
  const index = new Map<string, Array<number>>()
  for (let id = 0; id < count; id++) {
    if (id % stepEvery === 0) yield
    if (!take(tokens[id]!, id)) continue
    for (const key of keysOf(tokens[id]!)) {
      if (key === "") continue
      const list = index.get(key)
      if (list) list.push(id)
      else index.set(key, [id])
    }
  }
  return index
}

/** Builds the index of a list, pausing between slices of names when run with `runSliced`. */
export function* buildSteps(entries: ReadonlyArray<Named>): Steps<NameIndex> {
  const dictionary = new Map<string, number>()
  const tokens: Array<string> = []
  const intern = (token: string) => {
    let id = dictionary.get(token)
    if (id === undefined) {
      id = tokens.length
      dictionary.set(token, id)
      tokens.push(token)
    }
    return id
  }

  const pending: Array<PendingName> = []
  for (const [entryIndex, entry] of entries.entries()) {
    if (entryIndex % stepEvery === 0) yield
    const seen = new Set<string>()
    entry.names.forEach((searchable, alias) => {
      const name = normalize(searchable.text)
      if (name.key === "" || seen.has(name.key)) return
      seen.add(name.key)
      pending.push({ entry: entryIndex, personal: entry.personal === true, alias, listed: searchable.listed, name })
    })
  }
  const nameIds = pending.map((item) => item.name.tokens.map(intern))
  const singleTokenCount = tokens.length

  const alternates: Array<Array<number>> = []
  /** Per dictionary id: 1 when it occurs only as an acronym (never as a word, join or form). */
  const initialsOnly: Array<number> = []
  const alternateMasks: Array<Array<number>> = []
  const alternateStrengths: Array<Array<number>> = []
  const alternateKinds: Array<Array<number>> = []
  for (const [nameIndex, item] of pending.entries()) {
    if (nameIndex % stepEvery === 0) yield
    const ids: Array<number> = []
    const masks: Array<number> = []
    const strengths: Array<number> = []
    const kinds: Array<number> = []
    const add = (text: string, mask: number, kind: MatchKind, strength = 1, initials = false) => {
      const id = intern(text)
      initialsOnly[id] = id >= singleTokenCount && initials && initialsOnly[id] !== 0 ? 1 : 0
      for (let k = 0; k < ids.length; k++) if (ids[k] === id && masks[k] === mask) return
      ids.push(id)
      masks.push(mask)
      strengths.push(strength)
      kinds.push(kind)
    }
    const words = item.name.tokens
    for (const order of readingOrders(item.listed, words.length)) {
      for (let k = 0; k + 1 < order.length; k++) {
        const a = order[k]!
        const b = order[k + 1]!
        if (a < maxMaskedTokens && b < maxMaskedTokens) {
          add(words[a]! + words[b]!, (1 << a) | (1 << b), MatchKind.joined)
        }
      }
    }
    for (const form of item.name.forms) add(form.text, form.mask, formMatchKind(form.text))
    if (!item.personal) {
      for (const acronym of acronymsOf(item.name)) {
        const strength = acronym.plain ? acronymStrength.plain : acronymStrength.withOptional
        add(acronym.text, acronym.mask, MatchKind.abbreviation, strength, true)
      }
    }
    alternates.push(ids)
    alternateMasks.push(masks)
    alternateStrengths.push(strengths)
    alternateKinds.push(kinds)
  }

  const nameCount = pending.length
  const occurrences = new Int32Array(singleTokenCount)
  const lowInformation = new Int32Array(singleTokenCount)
  const classVotes = new Int32Array(singleTokenCount * classCount)
  pending.forEach((item, nameIndex) => {
    nameIds[nameIndex]!.forEach((id, k) => {
      occurrences[id]!++
      classVotes[id * classCount + item.name.classes[k]!]!++
      if (item.name.classes[k] !== TokenClass.name) lowInformation[id]!++
    })
  })
  const tokenPostingCsr = postings(nameIds, singleTokenCount)
  const alternatePostingCsr = postings(alternates, tokens.length)

  const rarity = new Float32Array(tokens.length)
  for (let id = 0; id < tokens.length; id++) {
    const df = id < singleTokenCount
      ? tokenPostingCsr.start[id + 1]! - tokenPostingCsr.start[id]!
      : alternatePostingCsr.start[id + 1]! - alternatePostingCsr.start[id]!
    const weight = rarityWeight(Math.max(1, df), nameCount)
    rarity[id] = tokens[id]!.length === 1 ? Math.min(weight, initialWeight) : weight
  }
  const tokenClass = new Uint8Array(tokens.length)
  const tokenWeight = new Float32Array(tokens.length)
  for (let id = 0; id < tokens.length; id++) {
    let cls: TokenClass = TokenClass.name
    if (id < singleTokenCount && lowInformation[id]! * 2 > occurrences[id]!) {
      for (const candidate of [TokenClass.legalForm, TokenClass.honorific, TokenClass.filler, TokenClass.patronymic]) {
        if (classVotes[id * classCount + candidate]! > classVotes[id * classCount + cls]!) cls = candidate
      }
    }
    tokenClass[id] = cls
    tokenWeight[id] = cls === TokenClass.name ? rarity[id]! : classWeight[cls]
  }

  const nameTokenWeights = pending.map((item, nameIndex) =>
    nameIds[nameIndex]!.map((id, k) => {
      const cls = item.name.classes[k]!
      return cls === TokenClass.name ? rarity[id]! : classWeight[cls]
    })
  )
  const nameWeight = Float32Array.from(nameTokenWeights, (weights) => weights.reduce((sum, w) => sum + w, 0))
  const alternatePostingWeight = postingWeights(alternates, alternatePostingCsr.start, (name, k) => {
    let sum = 0
    const weights = nameTokenWeights[name]!
    for (let j = 0; j < weights.length && j < maxMaskedTokens; j++) {
      if ((alternateMasks[name]![k]! & (1 << j)) !== 0) sum += weights[j]!
    }
    return sum
  })

  const tokenKeys: Array<PhoneticKeys> = []
  for (let id = 0; id < singleTokenCount; id++) {
    if (id % stepEvery === 0) yield
    tokenKeys.push(phoneticKeys(tokens[id]!))
  }
  const phonetic = new Map<string, Array<number>>()
  for (let id = 0; id < singleTokenCount; id++) {
    const keys = tokenKeys[id]!
    if (keys.primary.length < 2) continue
    for (const key of keys.secondary === keys.primary ? [keys.primary] : [keys.primary, keys.secondary]) {
      const list = phonetic.get(key)
      if (list) list.push(id)
      else phonetic.set(key, [id])
    }
  }

  const exact = new Map<string, Array<number>>()
  pending.forEach((item, nameIndex) => {
    const list = exact.get(item.name.key)
    if (list) list.push(nameIndex)
    else exact.set(item.name.key, [nameIndex])
  })

  // Initials are looked up as typed: a spelling key of "nai" would pair it with every N-vowel name.
  const noDigit = (token: string, id: number) => !hasDigit(token) && initialsOnly[id] !== 1
  const word = (token: string, id: number) => token.length >= 2 && noDigit(token, id)
  const skeletons = yield* keyIndexSteps(tokens, tokens.length, noDigit, (token) => [consonantSkeleton(token)])
  const transliterations = yield* keyIndexSteps(tokens, singleTokenCount, word, (token) => [transliterationKey(token)])
  const greekTransliterations = yield* keyIndexSteps(tokens, singleTokenCount, word, (token) => {
    const key = greekKey(transliterationKey(token))
    return key.length >= 2 ? [key] : []
  })
  const wade = yield* keyIndexSteps(tokens, tokens.length, word, wadeGilesKeys)
  const sortedTokens = Int32Array.from({ length: singleTokenCount }, (_, id) => id)
    .sort((a, b) => (tokens[a]! < tokens[b]! ? -1 : tokens[a]! > tokens[b]! ? 1 : 0))

  const deletions = yield* DeletionIndex.buildSteps(tokens.slice(0, singleTokenCount))
  const nameTokenCsr = csr(nameIds)
  const nameAlternateCsr = csr(alternates)
  return {
    entries,
    nameCount,
    nameEntry: Int32Array.from(pending, (item) => item.entry),
    nameAlias: Int32Array.from(pending, (item) => item.alias),
    nameKey: pending.map((item) => item.name.key),
    nameTokenStart: nameTokenCsr.start,
    nameTokens: nameTokenCsr.values,
    nameTokenWeight: Float32Array.from(nameTokenWeights.flat()),
    nameAlternateStart: nameAlternateCsr.start,
    nameAlternates: nameAlternateCsr.values,
    nameAlternateMask: csr(alternateMasks).values,
    nameAlternateStrength: Float32Array.from(alternateStrengths.flat()),
    nameAlternateKind: Uint8Array.from(alternateKinds.flat()),
    nameWeight,
    nameOrdered: Uint8Array.from(
      pending,
      (item) => item.personal && item.name.tokens.length >= 2 && !item.name.tokens.every(isPinyin) ? 1 : 0
    ),
    namePersonal: Uint8Array.from(pending, (item) => (item.personal ? 1 : 0)),
    nameSurnameCount: Int32Array.from(pending, (item) => surnameCountOf(item.listed, item.name.tokens.length)),
    skeletons,
    sortedTokens,
    wadeGiles: wade,
    transliterations,
    greekTransliterations,
    dictionary,
    tokens,
    singleTokenCount,
    tokenWeight,
    tokenClass,
    tokenKeys,
    tokenHasDigit: Uint8Array.from(tokens, (token) => (hasDigit(token) ? 1 : 0)),
    tokenPostingStart: tokenPostingCsr.start,
    tokenPostings: tokenPostingCsr.values,
    alternatePostingStart: alternatePostingCsr.start,
    alternatePostings: alternatePostingCsr.values,
    alternatePostingWeight,
    phonetic,
    deletions,
    exact
  }
}

export const build = (entries: ReadonlyArray<Named>): NameIndex => runNow(buildSteps(entries))
