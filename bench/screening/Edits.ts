import type { Random } from "./Random.ts"

/**
 * The spelling changes people and systems make to names, applied to listed names to build labelled
 * queries. Written independently of the engine: nothing here uses its normalizer or vocabulary.
 */

const letters = "abcdefghijklmnopqrstuvwxyz"
const isLetter = (c: string) => /[A-Za-z]/.test(c)
const matchCase = (template: string, c: string) => (template === template.toUpperCase() ? c.toUpperCase() : c)

export const letterPositions = (word: string): Array<number> => [...word].flatMap((c, i) => (isLetter(c) ? [i] : []))

/** One substitution, insertion or deletion at a random letter of `word`. */
export const typo = (random: Random, word: string): string => {
  const positions = letterPositions(word)
  const at = random.pick(positions)
  const original = word[at]!
  const op = positions.length >= 4 ? random.int(3) : random.int(2)
  if (op === 0) {
    let replacement = original
    while (replacement.toLowerCase() === original.toLowerCase()) replacement = random.pick([...letters])
    return word.slice(0, at) + matchCase(original, replacement) + word.slice(at + 1)
  }
  if (op === 1) return word.slice(0, at) + matchCase(original, random.pick([...letters])) + word.slice(at)
  return word.slice(0, at) + word.slice(at + 1)
}

/** Two neighbouring, different letters swapped; `undefined` when the word has none. */
export const transpose = (random: Random, word: string): string | undefined => {
  const options = letterPositions(word).filter((i) =>
    i + 1 < word.length && isLetter(word[i + 1]!) && word[i]!.toLowerCase() !== word[i + 1]!.toLowerCase()
  )
  if (options.length === 0) return undefined
  const i = random.pick(options)
  return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2)
}

const accents: Record<string, ReadonlyArray<string>> = {
  a: ["á", "à", "ä", "â", "å", "ã"],
  e: ["é", "è", "ë", "ê"],
  i: ["í", "ì", "ï", "î"],
  o: ["ó", "ò", "ö", "ô", "ø", "õ"],
  u: ["ú", "ù", "ü", "û"],
  c: ["ç", "č"],
  n: ["ñ", "ń"],
  s: ["ş", "š", "ś"],
  z: ["ž", "ż"],
  g: ["ğ"],
  l: ["ł"],
  y: ["ý"],
  r: ["ř"]
}

/** One to three letters given diacritics ("Jose" → "José"). */
export const addDiacritics = (random: Random, text: string): string | undefined => {
  const options = [...text].flatMap((c, i) => (accents[c.toLowerCase()] ? [i] : []))
  if (options.length === 0) return undefined
  const chars = [...text]
  for (const i of random.shuffle(options).slice(0, 1 + random.int(3))) {
    const accented = random.pick(accents[chars[i]!.toLowerCase()]!)
    chars[i] = chars[i] === chars[i]!.toUpperCase() ? accented.toUpperCase() : accented
  }
  return chars.join("")
}

/** Real-world romanisations of the same given names and name parts. */
const spellingGroups: ReadonlyArray<ReadonlyArray<string>> = [
  ["mohammed", "muhammad", "mohammad", "mohamed", "muhammed", "mohamad", "mohamud"],
  ["ahmed", "ahmad", "akhmed"],
  ["mahmoud", "mahmood", "mahmud"],
  ["mustafa", "mostafa", "moustafa"],
  ["yusuf", "yousef", "youssef", "yousif", "yusif"],
  ["hussein", "husayn", "hussain", "husain", "hossein"],
  ["hassan", "hasan"],
  ["hamid", "hamed"],
  ["khalid", "khaled"],
  ["osama", "usama"],
  ["omar", "umar"],
  ["abdul", "abdel", "abdol"],
  ["abu", "abou"],
  ["nasser", "nasir", "naser"],
  ["said", "saeed", "saied"],
  ["ibrahim", "ebrahim", "ibraheem"],
  ["jamal", "gamal"],
  ["qadhafi", "gaddafi", "qaddafi"],
  ["rahman", "rehman", "rachman"],
  ["yuri", "yuriy", "iurii", "yury", "iouri"],
  ["aleksandr", "alexander", "aleksander", "alexandr"],
  ["sergei", "sergey", "serguei", "sergiy"],
  ["dmitri", "dmitry", "dmitriy", "dmitrii"],
  ["andrei", "andrey", "andriy"],
  ["nikolai", "nikolay"],
  ["alexei", "aleksei", "alexey", "aleksey"],
  ["evgeny", "yevgeny", "evgeniy", "yevgeniy"],
  ["viktor", "victor"],
  ["vladimirovich", "wladimirowitsch"],
  ["aleksandrovich", "alexandrovich"],
  ["mikhail", "michail"],
  ["valery", "valeriy", "valerii"],
  ["arkady", "arkadiy", "arkadii"],
  ["grigory", "grigoriy", "grigorii"]
]
const groupOf = new Map(spellingGroups.flatMap((group) => group.map((name) => [name, group] as const)))

/** Systematic transliteration differences (Cyrillic, Arabic, Persian romanisation). */
const spellingRules: ReadonlyArray<readonly [RegExp, string]> = [
  [/kh/i, "h"],
  [/ou/i, "u"],
  [/iy$/i, "y"],
  [/y$/i, "i"],
  [/ei/i, "ey"],
  [/ts/i, "tz"],
  [/sh/i, "sch"],
  [/ks/i, "x"],
  [/x/i, "ks"],
  [/ph/i, "f"],
  [/w/i, "v"],
  [/q/i, "k"],
  [/ov$/i, "off"],
  [/ee/i, "i"],
  [/oo/i, "u"],
  [/ye/i, "e"],
  [/^e/i, "ye"],
  [/j/i, "dj"]
]

const restyle = (template: string, word: string) =>
  template === template.toUpperCase()
    ? word.toUpperCase()
    : template[0] === template[0]!.toUpperCase()
    ? word[0]!.toUpperCase() + word.slice(1)
    : word

/** Another romanisation of one word: a known variant spelling, else a systematic rule. */
export const transliterate = (random: Random, words: ReadonlyArray<string>): Array<string> | undefined => {
  const known = words.flatMap((word, i) => (groupOf.has(word.toLowerCase()) ? [i] : []))
  if (known.length > 0) {
    const i = random.pick(known)
    const group = groupOf.get(words[i]!.toLowerCase())!
    const other = random.pick(group.filter((name) => name !== words[i]!.toLowerCase()))
    return words.map((word, k) => (k === i ? restyle(word, other) : word))
  }
  const options = words.flatMap((word, i) =>
    /^[A-Za-z]{4,}$/.test(word)
      ? spellingRules.filter(([from]) => from.test(word)).map((rule) => [i, rule] as const)
      : []
  )
  if (options.length === 0) return undefined
  const [i, [from, to]] = random.pick(options)
  return words.map((word, k) => (k === i ? restyle(word, word.replace(from, to)) : word))
}

const cyrillic: ReadonlyArray<readonly [string, string]> = [
  ["shch", "щ"],
  ["kh", "х"],
  ["zh", "ж"],
  ["ts", "ц"],
  ["ch", "ч"],
  ["sh", "ш"],
  ["yu", "ю"],
  ["ya", "я"],
  ["yo", "ё"],
  ["iy", "ий"],
  ["a", "а"],
  ["b", "б"],
  ["v", "в"],
  ["g", "г"],
  ["d", "д"],
  ["e", "е"],
  ["z", "з"],
  ["i", "и"],
  ["y", "й"],
  ["k", "к"],
  ["l", "л"],
  ["m", "м"],
  ["n", "н"],
  ["o", "о"],
  ["p", "п"],
  ["r", "р"],
  ["s", "с"],
  ["t", "т"],
  ["u", "у"],
  ["f", "ф"],
  ["h", "х"],
  ["c", "к"],
  ["w", "в"],
  ["x", "кс"],
  ["j", "дж"],
  ["q", "к"]
]

/** The name written in Cyrillic letters, as a Russian document would print it. */
export const toCyrillic = (text: string): string => {
  let out = ""
  let i = 0
  while (i < text.length) {
    const rest = text.slice(i).toLowerCase()
    const rule = cyrillic.find(([latin]) => rest.startsWith(latin))
    if (rule === undefined) {
      out += text[i]
      i++
      continue
    }
    const upper = text[i] === text[i]!.toUpperCase() && isLetter(text[i]!)
    out += upper ? rule[1].toUpperCase() : rule[1]
    i += rule[0].length
  }
  return out
}
