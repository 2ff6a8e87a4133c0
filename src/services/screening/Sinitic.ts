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
    if (/^[a-z]+$/.test(reading)) syllables.add(reading)
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
