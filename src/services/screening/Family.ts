import type { NameIndex } from "./NameIndex.ts"
import type { PreparedQuery } from "./Query.ts"
import { TokenClass } from "./Vocabulary.ts"

/**
 * Corporate families: the listed names that contain every identifying word of a query ("Huawei" in
 * "Huawei Technologies (Bolivia) S.R.L.", "Chengdu Huawei Technologies Co., Ltd." …). Subsidiaries
 * listed under their own names score below the threshold against the parent's short name, since
 * their other words are missing from the query; containment finds them all, as a separate group.
 */

/**
 * Query words below this rarity are common enough ("al" as a name word) that a family need not
 * share them when the query has rarer ones; titles, legal forms and fillers never count. On the
 * real list most name words weigh 0.3–1 ("huawei" 0.51, "technology" 0.34, "al" 0.27).
 */
export const familyWordWeight = 0.3
/** More names than this sharing the words: the query is too common to list a family for. */
export const maxFamilyNames = 2000

export interface FamilyNames {
  /** The query words every family name contains. */
  readonly words: ReadonlyArray<string>
  /** Names containing them all. */
  readonly names: ReadonlyArray<number>
  /** More than `limit` (`maxFamilyNames`): too many to score and rank. */
  readonly tooBroad: boolean
}

/**
 * The names containing every identifying word of the query, exactly (after normalization), or
 * `undefined` when the query has no identifying word to look for.
 */
export const familyNames = (
  index: NameIndex,
  query: PreparedQuery,
  limit = maxFamilyNames
): FamilyNames | undefined => {
  const candidates: Array<{ readonly word: string; readonly id: number }> = []
  for (let i = 0; i < query.tokens.length; i++) {
    if (query.classes[i] !== TokenClass.name) continue
    const word = query.tokens[i]!
    const id = index.dictionary.get(word)
    if (id === undefined || id >= index.singleTokenCount) {
      // A word no listed name has: no name contains the query. A single letter may be an initial.
      if (word.length > 1) return { words: [word], names: [], tooBroad: false }
      continue
    }
    if (!candidates.some((candidate) => candidate.id === id)) candidates.push({ word, id })
  }
  if (candidates.length === 0) return undefined
  // Common words are left out when the query has rarer ones; a query of common words needs them all.
  const rare = candidates.filter((candidate) => index.tokenWeight[candidate.id]! >= familyWordWeight)
  const required = rare.length > 0 ? rare : candidates
  const words = required.map((candidate) => candidate.word)
  const ids = required.map((candidate) => candidate.id)
  const postingLength = (id: number) => index.tokenPostingStart[id + 1]! - index.tokenPostingStart[id]!
  const rarest = ids.reduce((best, id) => postingLength(id) < postingLength(best) ? id : best)
  const others = ids.filter((id) => id !== rarest)
  const names: Array<number> = []
  const end = index.tokenPostingStart[rarest + 1]!
  for (let k = index.tokenPostingStart[rarest]!; k < end; k++) {
    const name = index.tokenPostings[k]!
    if (others.every((id) => hasToken(index, name, id))) names.push(name)
  }
  return { words, names, tooBroad: names.length > limit }
}

const hasToken = (index: NameIndex, name: number, id: number) => {
  const end = index.nameTokenStart[name + 1]!
  for (let k = index.nameTokenStart[name]!; k < end; k++) if (index.nameTokens[k] === id) return true
  return false
}
