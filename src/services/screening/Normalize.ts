import anyAscii from "any-ascii"
import { classOf, phrasesByFirstWord, TokenClass } from "./Vocabulary.ts"

/**
 * A name reduced to comparable tokens: lowercase ASCII words with their class, plus the canonical
 * forms of legal forms and abbreviations it contains ("limited liability company" → "llc"), each
 * with the bit mask of the word positions it stands for.
 */
export interface NormalizedName {
  readonly tokens: ReadonlyArray<string>
  readonly classes: ReadonlyArray<TokenClass>
  readonly forms: ReadonlyArray<CanonicalForm>
  /** The canonical words in order: what exact (non-fuzzy) screening compares. */
  readonly key: string
  /** Per token, `TokenMark` bits: how it was written (script, abbreviation point). */
  readonly marks: ReadonlyArray<number>
}

/**
 * How a token was written. `abjad`: romanised from Arabic or Hebrew script, which leave short
 * vowels unwritten ("محمد" → "mhmd"), so it is compared by consonants. `dotted`: followed by a
 * full stop, as an abbreviation is ("Fed.", "Kor."). `cyrillic`, `greek`: romanised from those
 * scripts, which spell Latin names by sound ("Хуавей" → "khuavei"), compared through
 * `transliterationKey`.
 */
export const TokenMark = { abjad: 1, dotted: 2, cyrillic: 4, greek: 8 } as const

export interface CanonicalForm {
  readonly text: string
  readonly mask: number
}

/** Word positions that can carry a canonical form (bit masks are 32-bit). */
export const maxMaskedTokens = 31

const nonAscii = /[^\u0000-\u007f]+/g
const lowerUpper = /([a-z])([A-Z])/g
const unspacedScripts = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u

/**
 * Transliterates every non-ASCII run with any-ascii (diacritics dropped, Cyrillic, Greek, Arabic,
 * CJK … romanised). Scripts written without word spaces come back CamelCased per syllable
 * ("JinZhengEn"); there those boundaries become spaces so syllables compare as tokens.
 */
const toAscii = (text: string): string =>
  text.normalize("NFC").replace(nonAscii, (run) => {
    const ascii = anyAscii(run)
    return unspacedScripts.test(run) ? ascii.replace(lowerUpper, "$1 $2") : ascii
  })

/**
 * Greek digraphs written for Latin sounds Greek lacks (ΜΠ for B, ΝΤ for D, ΓΚ for G, ΟΥ for U, ΤΖ for J):
 * folded before romanisation, which would spell them letter by letter ("MPORIS" for "Boris").
 */
const greekDigraphs: ReadonlyArray<readonly [RegExp, string]> = [
  [/μπ/giu, "b"],
  [/ντ/giu, "d"],
  [/γκ/giu, "g"],
  [/ου/giu, "u"],
  [/τζ/giu, "j"]
]
const greek = /\p{Script=Greek}/u
const abjadScript = /[\p{Script=Arabic}\p{Script=Hebrew}]/u
const cyrillic = /\p{Script=Cyrillic}/u

/**
 * Cyrillic, Greek, Armenian and Cherokee letters drawn like Latin ones. A word that mixes them with
 * Latin letters was not written in those scripts (no real spelling does that): it is a Latin name
 * typed with look-alikes, by accident or to slip past screening ("Rоstоv" with Cyrillic "о"), and is
 * read as the Latin name it shows. Words written wholly in one script are romanised as before.
 */
const lookAlikeLetters = "авеорсухѕіјһԁԛԝӏүкмнтАВЕКМНОРСТХЅІЈҮԚԜҺӀΑΒΕΖΗΙΚΜΝΟΡΤΥΧαικνορυχօսհոցզռքՕՍՏԼᎪᏴᏟᎠᎬᏀᎻᎥᎫᏦᏞᎷᏢᎡᏚᎢᏙᏔᏃ"
const latinLetters = "abeopcyxsijhdqwlykmhtABEKMHOPCTXSIJYQWHIABEZHIKMNOPTYXaikvopuxouhngqnpOUSLABCDEGHiJKLMPRSTVWZ"
const lookAlikes = new Map(Array.from(lookAlikeLetters, (letter, i) => [letter, latinLetters[i]!] as const))
const letterRun = /[\p{L}\p{M}]+/gu
const latin = /\p{Script=Latin}/u
/** Invisible characters (zero-width joiners, tag characters, variation selectors …): never part of a name. */
const invisible = /\p{Default_Ignorable_Code_Point}/gu

const anyNonAscii = /[^\x00-\x7f]/

/**
 * Drops invisible characters, then reads every word mixing Latin letters with look-alikes as Latin.
 * ASCII text, most names and queries, has neither and is returned as it is (this runs for every name
 * of the list at start and every query word).
 */
const unmasked = (text: string): string =>
  !anyNonAscii.test(text) ? text : text.replace(invisible, "").replace(
    letterRun,
    (run) =>
      latin.test(run) && Array.from(run).some((letter) => lookAlikes.has(letter))
        ? Array.from(run, (letter) => lookAlikes.get(letter) ?? letter).join("")
        : run
  )

const joiners = /['`\u00b4]/g
const acronym = /\b(?:[a-z0-9]\.){2,}/g
const separators = /[^a-z0-9]+/

const wordsOf = (text: string): Array<string> =>
  toAscii(text)
    .toLowerCase()
    .replace(joiners, "")
    .replace(/&/g, " and ")
    .replace(acronym, (match) => match.replace(/\./g, ""))
    .split(separators)
    .filter((word) => word.length > 0)

/** Lowercase ASCII words: apostrophes join ("Xi'an" → "xian"), dotted acronyms close up ("U.S.A." → "usa"). */
export const words = (text: string): Array<string> => wordsOf(unmasked(text))

/** The words of a text with their `TokenMark` bits, read one space-separated piece at a time. */
const markedWords = (text: string): { tokens: Array<string>; marks: Array<number> } => {
  const tokens: Array<string> = []
  const marks: Array<number> = []
  for (const written of text.split(/\s+/)) {
    const piece = unmasked(written)
    if (piece === "") continue
    let source = piece
    if (greek.test(source)) { for (const [digraph, latin] of greekDigraphs) source = source.replace(digraph, latin) }
    const found = wordsOf(source)
    const mark = abjadScript.test(piece)
      ? TokenMark.abjad
      : cyrillic.test(piece)
      ? TokenMark.cyrillic
      : greek.test(piece)
      ? TokenMark.greek
      : 0
    found.forEach((word, i) => {
      tokens.push(word)
      const dotted = i === found.length - 1 && /[A-Za-z]\.$/.test(piece) && !/^(?:[A-Za-z]\.){2,}$/.test(piece)
      marks.push(mark | (dotted ? TokenMark.dotted : 0))
    })
  }
  return { tokens, marks }
}

/** "07" is "7" (series and hull numbers are printed with and without leading zeros). */
const leadingZeros = /^0+[0-9]+$/

const span = (from: number, count: number) => {
  let mask = 0
  for (let i = from; i < from + count; i++) mask |= 1 << i
  return mask
}

export const normalize = (text: string, maxTokens = Number.POSITIVE_INFINITY): NormalizedName => {
  const marked = markedWords(text)
  const tokens = marked.tokens.slice(0, maxTokens)
  const marks = marked.marks.slice(0, maxTokens)
  const classes = tokens.map(classOf)
  const forms: Array<CanonicalForm> = []
  const key: Array<string> = []
  let keyNext = 0
  for (let i = 0; i < tokens.length; i++) {
    for (const phrase of phrasesByFirstWord.get(tokens[i]!) ?? []) {
      if (!phrase.words.every((word, k) => tokens[i + k] === word)) continue
      if (phrase.legalForm) { for (let k = 0; k < phrase.words.length; k++) classes[i + k] = TokenClass.legalForm }
      if (i + phrase.words.length <= maxMaskedTokens) {
        const mask = span(i, phrase.words.length)
        forms.push({ text: phrase.canonical, mask })
        // One more step along a chain of equivalents: "obshchestvo s ogranichennoi …" → "ooo" → "llc".
        for (const next of phrasesByFirstWord.get(phrase.canonical) ?? []) {
          if (next.words.length === 1 && next.canonical !== phrase.canonical) forms.push({ text: next.canonical, mask })
        }
      }
      if (i >= keyNext) {
        key.push(phrase.canonical)
        keyNext = i + phrase.words.length
      }
    }
    if (leadingZeros.test(tokens[i]!) && i < maxMaskedTokens) {
      forms.push({ text: String(Number(tokens[i]!)), mask: 1 << i })
    }
    if (i >= keyNext) {
      key.push(tokens[i]!)
      keyNext = i + 1
    }
  }
  return { tokens, classes, forms, key: key.join(" "), marks }
}

export { TokenClass }
