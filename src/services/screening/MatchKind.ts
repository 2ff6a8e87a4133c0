import { PairKinds } from "../../domain/Screening.ts"
import { formKind } from "./Vocabulary.ts"

/**
 * How a query word came to pair with a listed word: recorded where the similarity is found (query
 * preparation, alternate forms of the index) and carried through the scorer's alignment, so an
 * explanation reports the path the score really took.
 */
export const MatchKind = {
  exact: 0,
  typo: 1,
  phonetic: 2,
  transliteration: 3,
  abbreviation: 4,
  legalForm: 5,
  number: 6,
  initial: 7,
  /** Two neighbouring words written as one, or one written as two ("hua wei" / "huawei"). */
  joined: 8
} as const
export type MatchKind = typeof MatchKind[keyof typeof MatchKind]

/** Names of the kinds as the API reports them (index = code). */
export const matchKindNames = PairKinds
export type MatchKindName = typeof matchKindNames[number]

/**
 * The kind of a pair from the kind on the query side (how the slot found the dictionary entry) and
 * on the listed side (what the entry stands for in the name). The less plain one tells more: an
 * exact lookup of an acronym is an abbreviation, a misspelt word of a joined pair is a typo.
 */
export const combine = (query: MatchKind, listed: MatchKind): MatchKind =>
  query === MatchKind.exact || (query === MatchKind.joined && listed !== MatchKind.exact) ? listed : query

/** The kind of a match through a canonical form (see `Vocabulary.formKind`). */
export const formMatchKind = (canonical: string): MatchKind => {
  const kind = formKind(canonical)
  return kind === "number" ? MatchKind.number : kind === "abbreviation" ? MatchKind.abbreviation : MatchKind.legalForm
}
