import { doubleMetaphone } from "double-metaphone"
import { distance } from "fastest-levenshtein"

/**
 * How alike two normalized tokens are, 0–1. Spelling differences are priced by edit distance
 * (Levenshtein, an adjacent swap counting once, a different first letter a little more) within a
 * budget that grows with length, so a short token tolerates one slip and a long one three; one
 * edit past the budget, a sound-alike rescue (equal Double Metaphone keys of romanisation-folded
 * tokens, similar lengths) keeps two tokens comparable, which is what carries transliteration
 * variants such as HUSSEIN / HUSAYN or DZHAMSHID / JAMSHID. Tokens with digits (hull numbers, plant
 * numbers) match only exactly.
 */

export interface PhoneticKeys {
  readonly primary: string
  readonly secondary: string
}

/**
 * Romanisation variants folded before the phonetic code: Russian "DZH" and French "DJ" for English
 * "J", "KH" and "GH" for Arabic and Persian consonants that English writes "H" and "G", "OU" for "U",
 * "V" for "W" and "KS" for "X" (names spelled through Cyrillic).
 * Double Metaphone alone codes "DZHAMSHID" and "JAMSHID" differently.
 */
const romanisations: ReadonlyArray<readonly [RegExp, string]> = [
  [/dzh|dj/g, "j"],
  [/tch/g, "ch"],
  [/kh/g, "h"],
  [/gh/g, "g"],
  [/ou/g, "u"],
  // Cyrillic has no W or X: "Хуавей" romanises as "khuavei", "Вукси" as "vuksi".
  [/w/g, "v"],
  [/ks/g, "x"]
]

export const phoneticKeys = (token: string): PhoneticKeys => {
  let folded = token
  for (const [variant, plain] of romanisations) folded = folded.replace(variant, plain)
  const [primary, secondary] = doubleMetaphone(folded)
  return { primary, secondary }
}

const digit = /[0-9]/

export const hasDigit = (token: string): boolean => digit.test(token)

/** Edits a token of this length may differ by and still count as the same word. */
export const editBudget = (length: number): number => length <= 2 ? 0 : length <= 5 ? 1 : length <= 8 ? 2 : 3

/** Levenshtein distance, with one adjacent transposition counted as a single edit. */
export const editDistance = (a: string, b: string): number => {
  const d = distance(a, b)
  if (d !== 2 || a.length !== b.length) return d
  let first = -1
  for (let i = 0; i < a.length; i++) {
    if (a.charCodeAt(i) === b.charCodeAt(i)) continue
    if (first === -1) first = i
    else return i === first + 1 && a[first] === b[i] && a[i] === b[first] && a.slice(i + 1) === b.slice(i + 1) ? 1 : 2
  }
  return d
}

/**
 * Spelling slips rarely hit the first letter, so a different first letter costs a little extra
 * (never a hard filter: "AFIZ" still finds "FAIZ").
 */
const differentOnsetCost = 0.06

/** Similarity granted to sound-alike tokens whose spelling is further apart than the edit budget. */
export const phoneticSimilarity = 0.86

const soundAlike = (a: PhoneticKeys, b: PhoneticKeys) =>
  a.primary.length >= 2 && b.primary.length >= 2 &&
  (a.primary === b.primary || a.primary === b.secondary || a.secondary === b.primary)

/** Similarity of two distinct tokens without digits (tokens with digits only ever match exactly). */
export const similarity = (a: string, b: string, keysA: PhoneticKeys, keysB: PhoneticKeys): number => {
  const longer = Math.max(a.length, b.length)
  const shorter = Math.min(a.length, b.length)
  const budget = editBudget(longer)
  if (longer - shorter > budget + 1) return 0
  const edits = editDistance(a, b)
  const spelled = spelledSimilarity(a, b, edits)
  if (spelled >= phoneticSimilarity || edits > budget + 1 || shorter < 0.6 * longer) return spelled
  return soundAlike(keysA, keysB) ? phoneticSimilarity : spelled
}

/** The spelling part of `similarity`: what `a` and `b` score without the sound-alike rescue. */
export const spelledSimilarity = (a: string, b: string, edits = editDistance(a, b)): number => {
  const longer = Math.max(a.length, b.length)
  const onset = a.charCodeAt(0) === b.charCodeAt(0) ? 0 : differentOnsetCost
  return edits <= editBudget(longer) ? 1 - 0.6 * edits / longer - onset : 0
}

/**
 * The consonants of a word as Arabic and Hebrew script write them: vowels and the letters that
 * also write long vowels (w, y, v) dropped, digraphs and sound-alikes merged, doubles collapsed.
 * "Muhammad" and the romanised "محمد" ("mhmd") share "mhmd"; "Yusuf" and "ywsf" share "sf".
 */
export const consonantSkeleton = (token: string): string =>
  // Vowels go first: in a romanised abjad word the consonants stand side by side ("fth" for
  // FATTAH), so a digraph is only a digraph once the vowels between letters are gone on both sides.
  // Arabic writes the English CH as T+SH ("تش"): "tsh" is "ch".
  token.replace(/[aeiouwyv]/g, "").replace(/(.)\1+/g, "$1").replace(/tsh/g, "ch").replace(/sh/g, "s").replace(
    /[ck]h|q|c/g,
    "k"
  )
    .replace(/ph/g, "f").replace(/th/g, "t").replace(/dh/g, "d").replace(/gh/g, "g").replace(/(.)\1+/g, "$1")

/**
 * Whether a romanised abjad word spells the listed word with its short vowels left out, and its
 * W and Y as the listed long vowels ("mwhmdy" → MOHAMMADI, "ly" → ALI, not "mhmd" → MOHAMMADI):
 * the listed word's other letters may only be vowels or doubled consonants. Stronger evidence than
 * an equal consonant skeleton, which drops the long vowels too.
 */
export const spelledWithoutVowels = (abjad: string, listed: string): boolean => {
  let i = 0
  for (let j = 0; j < listed.length; j++) {
    const l = listed[j]!
    const q = abjad[i]
    if (
      q !== undefined &&
      (q === l || (q === "w" && (l === "u" || l === "o" || l === "v")) || (q === "y" && (l === "i" || l === "e")))
    ) {
      i++
      continue
    }
    if ("aeiou".includes(l) || (j > 0 && listed[j - 1] === l)) continue
    return false
  }
  return i === abjad.length
}

/**
 * A coarse spelling that a Latin name keeps when it is written in Cyrillic or Greek letters and
 * romanised back: "Хуавей" comes back as "khuavei" for HUAWEI, "Ко., Лтд." as "ko ltd" for CO.,
 * LTD., "ΣΑΚΙΡΙ" as "sakiri" for SHAQIRI. Both sides are folded alike (KH/H, C/K/Q, W/V, Y/I, X/KS,
 * DZH/J, PH/F, SH/S, doubled letters), so equal keys are the same name spelled through the other
 * script. Greek writes its X (a KH) as "ch", so for Greek words CH is KH first.
 */
export const transliterationKey = (token: string, greek = false): string =>
  (greek ? token.replace(/ch/g, "kh") : token)
    .replace(/dzh|dj/g, "j").replace(/tch/g, "ch").replace(/ch/g, "\u0001").replace(/sh/g, "s").replace(/kh/g, "h")
    .replace(/gh/g, "g").replace(/ph/g, "f").replace(/[cq]/g, "k").replace(/ks/g, "x").replace(/\u0001/g, "ch")
    .replace(/w/g, "v").replace(/y/g, "i").replace(/ou/g, "u").replace(/(.)\1+/g, "$1")

/** Greek has no H: a Latin H written in Greek letters is gone ("ΙΟΚ" for HYOK), so its key drops them. */
export const greekKey = (key: string): string => key.replace(/h/g, "")
