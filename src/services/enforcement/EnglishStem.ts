/**
 * The English (Porter2) stemmer of the Snowball project, as PostgreSQL's `english_stem` dictionary
 * applies it, written from the algorithm's published description: the snippet highlighter must see
 * a word as the stored `tsvector` does, without a round trip per word. Its input is a folded word
 * (see `fold` in ArchiveSearch.ts): lower case, no accents.
 *
 * Two engine details are kept: a word over 1,000 bytes is returned as it is (PostgreSQL does not
 * stem such strings), and so is a word the algorithm would reduce to nothing (`''s`). Where the
 * Snowball releases differ, the one the embedded engine ships is followed: a double letter left
 * after `-ed` or `-ing` stays when only one of `a`, `e`, `o` precedes it (`added` is `add`; older
 * servers say `ad`, see `legacyUndouble`).
 */

/** Words the rules get wrong, taken whole (the algorithm's exceptional forms). */
const exceptions: ReadonlyMap<string, string> = new Map([
  ["skis", "ski"],
  ["skies", "sky"],
  ["dying", "die"],
  ["lying", "lie"],
  ["tying", "tie"],
  ["idly", "idl"],
  ["gently", "gentl"],
  ["ugly", "ugli"],
  ["early", "earli"],
  ["only", "onli"],
  ["singly", "singl"],
  ...["sky", "news", "howe", "atlas", "cosmos", "bias", "andes"].map((word) => [word, word] as const)
])

/** Left as they are once a plural `s` is gone. */
const invariantAfterPlural: ReadonlySet<string> = new Set([
  "inning",
  "outing",
  "canning",
  "herring",
  "earring",
  "proceed",
  "exceed",
  "succeed"
])

/** R1 starts after these, not after the first non-vowel following a vowel. */
const regionPrefixes = ["gener", "commun", "arsen"]

// vowels are a e i o u y; a `y` made consonant (after a vowel, or first) is written `Y` meanwhile
const isVowel = (code: number) =>
  code === 97 || code === 101 || code === 105 || code === 111 || code === 117 || code === 121

const vowelAt = (word: string, i: number) => i >= 0 && i < word.length && isVowel(word.charCodeAt(i))

const hasVowel = (word: string, from: number, to: number) => {
  for (let i = from; i < to; i++) if (isVowel(word.charCodeAt(i))) return true
  return false
}

/** The position after the first non-vowel that follows a vowel, from `from` on; else the word's end. */
const regionStart = (word: string, from: number) => {
  let i = from
  while (i < word.length && !vowelAt(word, i)) i++
  while (i < word.length && vowelAt(word, i)) i++
  return Math.min(i + 1, word.length)
}

/**
 * Whether the letters before `end` finish with a short syllable: non-vowel, vowel, non-vowel other
 * than `w`, `x` and `Y`; or, at the word's start, a vowel and a non-vowel.
 */
const shortSyllableBefore = (word: string, end: number) => {
  if (end === 2) return vowelAt(word, 0) && !vowelAt(word, 1)
  if (end < 3) return false
  const last = word[end - 1]!
  return !vowelAt(word, end - 1) && last !== "w" && last !== "x" && last !== "Y" &&
    vowelAt(word, end - 2) && !vowelAt(word, end - 3)
}

const doubles: ReadonlySet<string> = new Set(["bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt"])
const validBeforeLi = "cdeghkmnrt"

type Rule = readonly [suffix: string, replacement: string, condition?: (word: string, start: number) => boolean]

/** Rules longest suffix first: only the longest suffix the word ends with is considered. */
const longestFirst = (rules: ReadonlyArray<Rule>): ReadonlyArray<Rule> =>
  [...rules].sort((a, b) => b[0].length - a[0].length)

const precededBy = (letters: string) => (word: string, start: number) => start > 0 && letters.includes(word[start - 1]!)

const step2Rules = longestFirst([
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["abli", "able"],
  ["entli", "ent"],
  ["izer", "ize"],
  ["ization", "ize"],
  ["ational", "ate"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["aliti", "al"],
  ["alli", "al"],
  ["fulness", "ful"],
  ["ousli", "ous"],
  ["ousness", "ous"],
  ["iveness", "ive"],
  ["iviti", "ive"],
  ["biliti", "ble"],
  ["bli", "ble"],
  ["ogi", "og", precededBy("l")],
  ["fulli", "ful"],
  ["lessli", "less"],
  ["li", "", precededBy(validBeforeLi)]
])

const step3Rules = longestFirst([
  ["tional", "tion"],
  ["ational", "ate"],
  ["alize", "al"],
  ["icate", "ic"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
  ["ative", ""]
])

const step4Suffixes = [
  "al",
  "ance",
  "ence",
  "er",
  "ic",
  "able",
  "ible",
  "ant",
  "ement",
  "ment",
  "ent",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
  "ion"
].sort((a, b) => b.length - a.length)

const endingIn = <A extends { readonly 0: string }>(word: string, rules: ReadonlyArray<A>) =>
  rules.find((rule) => word.endsWith(rule[0]))

/** The word's stem by the rules; `p1` and `p2` (R1, R2) are positions in the word as marked. */
const steps = (input: string, p1: number, p2: number, legacyUndouble: boolean): string => {
  let word = input

  // step 1a: possessives, then plurals
  if (word.endsWith("'s'")) word = word.slice(0, -3)
  else if (word.endsWith("'s")) word = word.slice(0, -2)
  else if (word.endsWith("'")) word = word.slice(0, -1)
  if (word.endsWith("sses")) word = word.slice(0, -2)
  else if (word.endsWith("ied") || word.endsWith("ies")) {
    word = word.length - 3 >= 2 ? word.slice(0, -2) : word.slice(0, -1)
  } else if (word.endsWith("us") || word.endsWith("ss")) {
    // kept
  } else if (word.endsWith("s") && hasVowel(word, 0, word.length - 2)) word = word.slice(0, -1)

  if (invariantAfterPlural.has(word)) return word

  // step 1b: -eed, -ed, -ing (and their -ly forms)
  const ending = ["eedly", "ingly", "edly", "eed", "ing", "ed"].find((suffix) => word.endsWith(suffix))
  if (ending !== undefined) {
    const start = word.length - ending.length
    if (ending === "eed" || ending === "eedly") {
      if (start >= p1) word = word.slice(0, start) + "ee"
    } else if (hasVowel(word, 0, start)) {
      word = word.slice(0, start)
      const last2 = word.slice(-2)
      if (last2 === "at" || last2 === "bl" || last2 === "iz") word += "e"
      else if (doubles.has(last2)) {
        if (legacyUndouble || !(word.length === 3 && "aeo".includes(word[0]!))) word = word.slice(0, -1)
      } else if (word.length === p1 && shortSyllableBefore(word, word.length)) word += "e"
    }
  }

  // step 1c: a final y after a non-vowel that is not the first letter
  const lastLetter = word[word.length - 1]
  if ((lastLetter === "y" || lastLetter === "Y") && word.length >= 3 && !vowelAt(word, word.length - 2)) {
    word = word.slice(0, -1) + "i"
  }

  // step 2: derivational suffixes in R1
  const rule2 = endingIn(word, step2Rules)
  if (rule2 !== undefined) {
    const [suffix, replacement, condition] = rule2
    const start = word.length - suffix.length
    if (start >= p1 && (condition === undefined || condition(word, start))) {
      word = word.slice(0, start) + replacement
    }
  }

  // step 3: more derivational suffixes in R1 (`ative` in R2)
  const rule3 = endingIn(word, step3Rules)
  if (rule3 !== undefined) {
    const [suffix, replacement] = rule3
    const start = word.length - suffix.length
    if (start >= p1 && (suffix !== "ative" || start >= p2)) word = word.slice(0, start) + replacement
  }

  // step 4: suffixes in R2 (`ion` after `s` or `t`)
  const suffix4 = step4Suffixes.find((suffix) => word.endsWith(suffix))
  if (suffix4 !== undefined) {
    const start = word.length - suffix4.length
    if (start >= p2 && (suffix4 !== "ion" || precededBy("st")(word, start))) word = word.slice(0, start)
  }

  // step 5: a final e, or the second of a final ll
  const end = word.length
  if (word.endsWith("e")) {
    if (end - 1 >= p2 || (end - 1 >= p1 && !shortSyllableBefore(word, end - 1))) word = word.slice(0, -1)
  } else if (word.endsWith("ll") && end - 1 >= p2) word = word.slice(0, -1)

  return word
}

const encoder = new TextEncoder()
const astral = /[\uD800-\uDFFF]/

/**
 * The rules count letters, not UTF-16 units: each letter beyond the basic plane stands in for one
 * unit while the rules run (they never remove or inspect one but as a non-vowel), then comes back.
 */
const withAstralLetters = (word: string, stemOf: (word: string) => string) => {
  if (!astral.test(word)) return stemOf(word)
  let stand = 0xe000
  while (word.includes(String.fromCharCode(stand))) stand++
  const placeholder = String.fromCharCode(stand)
  const letters: Array<string> = []
  const narrowed = Array.from(word, (letter) => {
    if (letter.length === 1) return letter
    letters.push(letter)
    return placeholder
  }).join("")
  let next = 0
  return stemOf(narrowed).replaceAll(placeholder, () => letters[next++]!)
}

export interface StemOptions {
  /**
   * Undouble after `-ed`/`-ing` even when only `a`, `e` or `o` precedes (`added` → `ad`), as the
   * Snowball release in PostgreSQL 15 and older does.
   */
  readonly legacyUndouble?: boolean
}

/** The Porter2 stem of a folded word, as PostgreSQL's `english_stem` gives it (stopwords aside). */
export const stem = (word: string, options: StemOptions = {}): string => {
  if (word.length > 250 && encoder.encode(word).length > 1000) return word
  const exception = exceptions.get(word)
  if (exception !== undefined) return exception
  return withAstralLetters(word, (narrow) => {
    if (narrow.length < 3) return narrow
    // prelude: no leading apostrophe; a y that is first or follows a vowel is a consonant
    let marked = narrow.startsWith("'") ? narrow.slice(1) : narrow
    if (marked.includes("y")) {
      let out = ""
      for (let i = 0; i < marked.length; i++) {
        const letter = marked[i]!
        out += letter === "y" && (i === 0 || vowelAt(out, i - 1)) ? "Y" : letter
      }
      marked = out
    }
    const prefix = regionPrefixes.find((p) => marked.startsWith(p))
    const p1 = prefix === undefined ? regionStart(marked, 0) : prefix.length
    const p2 = regionStart(marked, p1)
    const stemmed = steps(marked, p1, p2, options.legacyUndouble === true).replaceAll("Y", "y")
    return stemmed.length === 0 ? narrow : stemmed
  })
}

/**
 * The words PostgreSQL's `english` configuration leaves out of a vector and a query (its
 * `english_stem` dictionary answers nothing for them), listed as observed from the engine.
 */
export const stopwords: ReadonlySet<string> = new Set(
  ("i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers " +
    "herself it its itself they them their theirs themselves what which who whom this that these those am is are " +
    "was were be been being have has had having do does did doing a an the and but if or because as until while " +
    "of at by for with about against between into through during before after above below to from up down in out " +
    "on off over under again further then once here there when where why how all any both each few more most " +
    "other some such no nor not only own same so than too very s t can will just don should now").split(" ")
)

const asciiDigit = /[0-9]/

/**
 * What the `english` configuration makes of one folded word of letters and digits: nothing for a
 * stopword; a word with a digit as it is (the parser's number words go to the `simple` dictionary,
 * so `3a001s` stays whole); any other its stem.
 */
export const lexeme = (word: string, options: StemOptions = {}): string | null =>
  asciiDigit.test(word) ? word : stopwords.has(word) ? null : stem(word, options)
