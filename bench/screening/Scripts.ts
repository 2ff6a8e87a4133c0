import anyAscii from "any-ascii"
import type { Random } from "./Random.ts"

/**
 * A listed Latin name written in another script, as a passport or invoice in that script prints
 * it: Arabic (an abjad: short vowels unwritten, doubled letters once), Greek (B as ΜΠ, D as ΝΤ),
 * Chinese (each Pinyin syllable as a character read that way) and the Wade-Giles romanization of
 * a Pinyin name ("Mao Zedong" → "Mao Tse-tung"). The letter tables are the evaluation's own;
 * any-ascii is used only as a dictionary of which characters read as which Pinyin syllable.
 */

const arabicLetters: ReadonlyArray<readonly [string, string]> = [
  ["sh", "ش"],
  ["kh", "خ"],
  ["gh", "غ"],
  ["th", "ث"],
  ["dh", "ذ"],
  ["ch", "تش"],
  ["b", "ب"],
  ["p", "ب"],
  ["t", "ت"],
  ["j", "ج"],
  ["h", "ح"],
  ["d", "د"],
  ["r", "ر"],
  ["z", "ز"],
  ["s", "س"],
  ["f", "ف"],
  ["v", "و"],
  ["q", "ق"],
  ["k", "ك"],
  ["c", "ك"],
  ["g", "غ"],
  ["l", "ل"],
  ["m", "م"],
  ["n", "ن"],
  ["w", "و"],
  ["y", "ي"],
  ["x", "كس"]
]
const isVowel = (c: string | undefined) => c !== undefined && "aeiou".includes(c)

const arabicWord = (latin: string): string => {
  const word = latin.toLowerCase().replace(/[^a-z]/g, "").replace(/(.)\1+/g, "$1")
  let out = ""
  let i = 0
  while (i < word.length) {
    const c = word[i]!
    if (isVowel(c)) {
      const run = /^[aeiou]+/.exec(word.slice(i))![0]
      if (i === 0) {
        out += run.startsWith("u") || run.startsWith("o")
          ? "او"
          : run.startsWith("i") || run.startsWith("e")
          ? "اي"
          : "ا"
      } else if (i + run.length === word.length) {
        out += run.endsWith("a")
          ? "ا"
          : run.endsWith("i") || run.endsWith("e")
          ? "ي"
          : "و"
      } else if (run.length > 1 || run === "u" || run === "o") {
        out += /[ie]/.test(run.at(-1)!)
          ? "ي"
          : /[ou]/.test(run)
          ? "و"
          : ""
      }
      i += run.length
      continue
    }
    const rule = arabicLetters.find(([from]) => word.startsWith(from, i))
    if (rule === undefined) {
      i++
      continue
    }
    out += rule[1]
    i += rule[0].length
  }
  return out
}

export const toArabic = (name: string): string =>
  name.replace(/,/g, " ").split(/\s+/).filter((word) => /[A-Za-z]/.test(word)).map((word) =>
    word.replace(/^al-/i, "ال").split("-").map((part) =>
      part.startsWith("ال") ? "ال" + arabicWord(part.slice(2)) : arabicWord(part)
    ).join("")
  ).join(" ")

const greekLetters: ReadonlyArray<readonly [string, string]> = [
  ["th", "θ"],
  ["ch", "χ"],
  ["kh", "χ"],
  ["ps", "ψ"],
  ["ou", "ου"],
  ["b", "μπ"],
  ["d", "ντ"],
  ["g", "γκ"],
  ["j", "τζ"],
  ["a", "α"],
  ["v", "β"],
  ["e", "ε"],
  ["z", "ζ"],
  ["i", "ι"],
  ["k", "κ"],
  ["c", "κ"],
  ["q", "κ"],
  ["l", "λ"],
  ["m", "μ"],
  ["n", "ν"],
  ["x", "ξ"],
  ["o", "ο"],
  ["p", "π"],
  ["r", "ρ"],
  ["s", "σ"],
  ["t", "τ"],
  ["u", "ου"],
  ["y", "ι"],
  ["f", "φ"],
  ["w", "ου"],
  ["h", ""]
]

export const toGreek = (name: string): string =>
  name.replace(/,/g, " ").split(/\s+/).filter((word) => /[A-Za-z]/.test(word)).map((word) => {
    const latin = word.toLowerCase().replace(/[^a-z]/g, "")
    let out = ""
    let i = 0
    while (i < latin.length) {
      const rule = greekLetters.find(([from]) => latin.startsWith(from, i))!
      out += rule[1]
      i += rule[0].length
    }
    return out.replace(/σ$/, "ς").toUpperCase()
  }).join(" ")

/** Pinyin syllable → characters read that way (from any-ascii's readings of the CJK block). */
const charactersBySyllable: ReadonlyMap<string, ReadonlyArray<string>> = (() => {
  const map = new Map<string, Array<string>>()
  for (let code = 0x4e00; code <= 0x9fa5; code++) {
    const char = String.fromCharCode(code)
    const reading = anyAscii(char).toLowerCase()
    if (!/^[a-z]+$/.test(reading)) continue
    const list = map.get(reading)
    if (list === undefined) map.set(reading, [char])
    else list.push(char)
  }
  return map
})()

/** A word split into Pinyin syllables (longest first), or undefined when it is not Pinyin. */
export const pinyinSyllables = (word: string): Array<string> | undefined => {
  const text = word.toLowerCase()
  const best: Array<Array<string> | undefined> = [[]]
  for (let end = 1; end <= text.length; end++) {
    for (let start = Math.max(0, end - 6); start < end; start++) {
      const before = best[start]
      if (before === undefined || !charactersBySyllable.has(text.slice(start, end))) continue
      const candidate = [...before, text.slice(start, end)]
      if (best[end] === undefined || candidate.length < best[end]!.length) best[end] = candidate
    }
  }
  return best[text.length]
}

/** The words of a Chinese person's name, when every word is Pinyin (and two to four syllables in all). */
export const chineseNameSyllables = (name: string): Array<Array<string>> | undefined => {
  const parts = name.replace(/,/g, " ").split(/\s+/).filter((word) => word.length > 0)
  const syllables = parts.map(pinyinSyllables)
  if (syllables.some((list) => list === undefined)) return undefined
  const total = syllables.reduce((sum, list) => sum + list!.length, 0)
  return total >= 2 && total <= 4 && parts.length >= 2 ? syllables as Array<Array<string>> : undefined
}

/** The name in Chinese characters (family name first when listed "SURNAME, Given"), no spaces. */
export const toChinese = (random: Random, name: string): string | undefined => {
  const words = chineseNameSyllables(name)
  if (words === undefined) return undefined
  return words.flat().map((syllable) => random.pick(charactersBySyllable.get(syllable)!)).join("")
}

const wadeInitials: ReadonlyArray<readonly [string, string]> = [
  ["zh", "ch"],
  ["ch", "ch'"],
  ["sh", "sh"],
  ["b", "p"],
  ["p", "p'"],
  ["d", "t"],
  ["t", "t'"],
  ["g", "k"],
  ["k", "k'"],
  ["j", "ch"],
  ["q", "ch'"],
  ["x", "hs"],
  ["r", "j"],
  ["z", "ts"],
  ["c", "ts'"]
]
const wadeWhole: Record<string, string> = {
  zi: "tzu",
  ci: "tz'u",
  si: "ssu",
  zhi: "chih",
  chi: "ch'ih",
  shi: "shih",
  ri: "jih",
  yi: "i",
  you: "yu",
  yan: "yen",
  ye: "yeh",
  yong: "yung",
  er: "erh"
}
const wadeFinal = (initial: string, final: string) => {
  if (final === "e" && ["g", "k", "h"].includes(initial)) return "o"
  if (final === "uo" && ["g", "k", "h", "sh"].includes(initial)) return "uo"
  if (final === "uo") return "o"
  return final.replace(/ong$/, "ung").replace(/ian$/, "ien").replace(/ie$/, "ieh").replace(/ue$/, "ueh")
    .replace(/iong$/, "iung")
}

/** One Pinyin syllable in Wade-Giles (apostrophes of aspiration kept or, as often typed, dropped). */
export const wadeGilesSyllable = (syllable: string, apostrophes: boolean): string => {
  let out = wadeWhole[syllable]
  if (out === undefined) {
    const rule = wadeInitials.find(([from]) => syllable.startsWith(from))
    const initial = rule?.[0] ?? ""
    out = (rule?.[1] ?? "") + wadeFinal(initial, syllable.slice(initial.length))
  }
  return apostrophes ? out : out.replace(/'/g, "")
}

/** A Chinese person's Pinyin name in Wade-Giles, given-name syllables hyphenated ("Tse-tung"). */
export const toWadeGiles = (random: Random, name: string): string | undefined => {
  const words = chineseNameSyllables(name)
  if (words === undefined) return undefined
  const apostrophes = random.chance(0.5)
  const converted = words.map((syllables) => {
    const parts = syllables.map((syllable) => wadeGilesSyllable(syllable, apostrophes))
    const word = parts.join("-")
    return word[0]!.toUpperCase() + word.slice(1)
  }).join(" ")
  return converted.toLowerCase() === name.replace(/,/g, "").toLowerCase().replace(/\s+/g, " ") ? undefined : converted
}
