import { maxMaskedTokens, type NormalizedName, TokenClass } from "./Normalize.ts"
import { hasDigit } from "./TokenSimilarity.ts"

/**
 * The initials an organization is known by ("PLA" for "People's Liberation Army"). The initials of
 * its identifying words always belong to the acronym; a legal form or connecting word may or may
 * not give its letter, and real acronyms go both ways ("HSBC": Hongkong and Shanghai Banking
 * Corporation keeps the legal form and drops "and"; "BOA" keeps "of"). So a name stands for every
 * acronym made of its identifying initials with any choice of those optional letters, in order.
 */
export interface Acronym {
  readonly text: string
  /**
   * The word positions it stands for: every word that may give a letter, also the optional words
   * this spelling leaves out (they are part of what the acronym abbreviates).
   */
  readonly mask: number
  /** Whether it leaves out every optional word (the usual form, and a little stronger evidence). */
  readonly plain: boolean
}

export const minAcronymLetters = 3
export const maxAcronymLetters = 8
/** At least this many identifying words: two letters of a legal form and one word are no acronym. */
const minIdentifyingWords = 2
/**
 * The optional words taken into account (the first ones): 2^4 spellings at most per name. Names
 * with more legal-form and connecting words ("obshchestvo s ogranichennoi otvetstvennostyu …")
 * are long enough that nobody writes all of them as letters.
 */
const maxOptionalWords = 4

const optionalClasses: ReadonlySet<TokenClass> = new Set([TokenClass.legalForm, TokenClass.filler])

/**
 * Every acronym of an organization's name, plain first. Single letters (conjunctions "y", "i",
 * "e", or initials) and words with digits never give a letter.
 */
export const acronymsOf = (name: NormalizedName): ReadonlyArray<Acronym> => {
  const letters: Array<{ readonly position: number; readonly optional: boolean }> = []
  let identifying = 0
  let optional = 0
  for (let i = 0; i < name.tokens.length && i < maxMaskedTokens; i++) {
    const token = name.tokens[i]!
    if (hasDigit(token) || token.length === 1) continue
    const cls = name.classes[i]!
    if (cls === TokenClass.name) {
      letters.push({ position: i, optional: false })
      identifying++
    } else if (optionalClasses.has(cls) && optional < maxOptionalWords) {
      letters.push({ position: i, optional: true })
      optional++
    }
  }
  if (identifying < minIdentifyingWords || identifying > maxAcronymLetters) return []
  let mask = 0
  for (const letter of letters) mask |= 1 << letter.position
  const found: Array<Acronym> = []
  for (let choice = 0; choice < 1 << optional; choice++) {
    let text = ""
    let nth = 0
    for (const letter of letters) {
      if (letter.optional && (choice & (1 << nth++)) === 0) continue
      text += name.tokens[letter.position]![0]
    }
    if (text.length >= minAcronymLetters && text.length <= maxAcronymLetters) {
      found.push({ text, mask, plain: choice === 0 })
    }
  }
  return found
}
