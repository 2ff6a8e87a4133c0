import anyAscii from "any-ascii"

/**
 * Chinese names in Latin letters. The Pinyin syllables are read from any-ascii's romanisation of
 * the CJK block (a maintained table, rather than a list of our own); a word that splits wholly into
 * them is Pinyin-shaped. Chinese names are written family name first or last with no change of
 * person, so word order is not evidence for them.
 */
export const pinyinSyllables: ReadonlySet<string> = (() => {
  const syllables = new Set<string>()
  for (let code = 0x4e00; code <= 0x9fa5; code++) {
    const reading = anyAscii(String.fromCharCode(code)).toLowerCase()
    // Syllabic nasals ("m", "ng", "hm": interjections) would make any word with an m or n Pinyin-shaped.
    if (/^[a-z]*[aeiouv][a-z]*$/.test(reading)) syllables.add(reading)
  }
  return syllables
})()

const longestSyllable = 6

/** Whether a word splits wholly into Pinyin syllables (at most three: a given name has two). */
export const isPinyin = (word: string): boolean => {
  if (word.length === 0 || word.length > 3 * longestSyllable) return false
  // reach[i]: fewest syllables covering word[0, i), or 0 when none does.
  const reach = new Uint8Array(word.length + 1)
  reach[0] = 1
  for (let end = 1; end <= word.length; end++) {
    for (let start = Math.max(0, end - longestSyllable); start < end; start++) {
      if (reach[start] === 0 || !pinyinSyllables.has(word.slice(start, end))) continue
      const count = reach[start]! + 1
      if (reach[end] === 0 || count < reach[end]!) reach[end] = count
    }
  }
  return reach[word.length] !== 0 && reach[word.length]! <= 4
}

/**
 * Wade-Giles, the romanization older documents and Taiwanese passports use ("Mao Tse-tung" for
 * "Mao Zedong", "Hsiao-ming" for "Xiaoming"), read from Pinyin syllable by syllable with the
 * standard correspondence table; aspiration apostrophes are left out, as they mostly are in
 * practice. Both systems then meet in the Wade-Giles spelling.
 */
const wadeInitials: ReadonlyArray<readonly [string, string]> = [
  ["zh", "ch"],
  ["ch", "ch"],
  ["sh", "sh"],
  ["b", "p"],
  ["d", "t"],
  ["g", "k"],
  ["j", "ch"],
  ["q", "ch"],
  ["x", "hs"],
  ["r", "j"],
  ["z", "ts"],
  ["c", "ts"]
]
const wadeSyllables: Record<string, string> = {
  zi: "tzu",
  ci: "tzu",
  si: "ssu",
  zhi: "chih",
  chi: "chih",
  shi: "shih",
  ri: "jih",
  yi: "i",
  you: "yu",
  yan: "yen",
  ye: "yeh",
  yong: "yung",
  yue: "yueh",
  er: "erh"
}
const wadeFinal = (initial: string, final: string): string => {
  if (final === "e" && (initial === "g" || initial === "k" || initial === "h")) return "o"
  if (final === "uo" && !["g", "k", "h", "sh", "zh", "ch"].includes(initial)) return "o"
  return final.replace(/iong$/, "iung").replace(/ong$/, "ung").replace(/ian$/, "ien").replace(/ie$/, "ieh")
    .replace(/ue$/, "ueh")
}

/** One Pinyin syllable in Wade-Giles without apostrophes ("dong" → "tung", "xiao" → "hsiao"). */
export const wadeGiles = (syllable: string): string => {
  const whole = wadeSyllables[syllable]
  if (whole !== undefined) return whole
  const rule = wadeInitials.find(([pinyin]) => syllable.startsWith(pinyin))
  const initial = rule?.[0] ?? (/^[^aeiou]/.test(syllable) ? syllable[0]! : "")
  const rest = syllable.slice(initial.length)
  return (rule?.[1] ?? initial) + wadeFinal(initial, rest)
}

const wadeSyllableSet: ReadonlySet<string> = new Set([...pinyinSyllables].map(wadeGiles))

/** The fewest syllables of `syllables` that spell `word`, or undefined. */
const split = (word: string, syllables: ReadonlySet<string>): Array<string> | undefined => {
  if (word.length === 0 || word.length > 3 * longestSyllable) return undefined
  const best: Array<Array<string> | undefined> = [[]]
  for (let end = 1; end <= word.length; end++) {
    for (let start = Math.max(0, end - longestSyllable); start < end; start++) {
      const before = best[start]
      if (before === undefined || !syllables.has(word.slice(start, end))) continue
      if (best[end] === undefined || before.length + 1 < best[end]!.length) {
        best[end] = [...before, word.slice(start, end)]
      }
    }
  }
  const found = best[word.length]
  return found !== undefined && found.length <= 4 ? found : undefined
}

/**
 * The Wade-Giles spellings a word stands for: its own spelling when it is Wade-Giles-shaped, its
 * Wade-Giles rendering when it is Pinyin-shaped (none for other words).
 */
export const wadeGilesKeys = (word: string): Array<string> => {
  const keys: Array<string> = []
  const pinyin = split(word, pinyinSyllables)
  if (pinyin !== undefined) keys.push(pinyin.map(wadeGiles).join(""))
  if (split(word, wadeSyllableSet) !== undefined && !keys.includes(word)) keys.push(word)
  return keys
}
