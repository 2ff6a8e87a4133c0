import type { Random } from "./Random.ts"

/**
 * Variant kinds of the scripts-and-structures issue that change a name's parts: patronymics and
 * repeated words, legal forms in other languages or spelled out, numbers written another way,
 * digit-for-letter lookalikes, acronyms. Written independently of the engine.
 */

const words = (text: string) => text.split(/\s+/).filter((word) => word.length > 0)
const letters = (word: string) => word.replace(/[^A-Za-z]/g, "")

/** "SURNAME, Given" → surname and given names; undefined without a comma. */
const commaParts = (name: string) => {
  const comma = name.indexOf(",")
  if (comma <= 0) return undefined
  const given = words(name.slice(comma + 1))
  return given.length > 0 ? { surname: name.slice(0, comma).trim(), given } : undefined
}

const russianFathers = [
  "Ivan",
  "Sergei",
  "Pavel",
  "Nikolai",
  "Petr",
  "Mikhail",
  "Vladimir",
  "Aleksandr",
  "Yuri",
  "Oleg"
]
const patronymic = (random: Random, female: boolean) => {
  const father = random.pick(russianFathers)
  const stem = father.replace(/[iy]$/, "")
  const ending = /[iy]$/.test(father) ? (female ? "evna" : "evich") : (female ? "ovna" : "ovich")
  return stem + ending
}

/**
 * A person's name with a part added between given and family names: a Russian patronymic, an
 * Arabic "bin X" chain link or a clan or middle name.
 */
export const extraNamePart = (random: Random, name: string, extraNames: ReadonlyArray<string>): string | undefined => {
  const parts = commaParts(name)
  const given = parts?.given ?? words(name).slice(0, -1)
  const family = parts?.surname ?? words(name).at(-1)!
  if (given.length === 0 || given.length > 2) return undefined
  const slavic = /(?:ov|ev|in|ko|sky|skiy|ova|eva|ina|enko|uk)$/i.test(family)
  const arabic = /^(?:al|el|abu)\b|^(?:al|el)-/i.test(family)
  if (slavic && given.some((word) => /(?:vich|vna)$/i.test(word))) return undefined
  const added = slavic
    ? patronymic(random, /a$/i.test(family))
    : arabic
    ? `bin ${random.pick(extraNames)}`
    : random.pick(extraNames)
  return `${given.join(" ")} ${added} ${family}`
}

/** One word of the name written twice ("Sergey Sergey Shoigu"), as data entry duplicates it. */
export const repeatedWord = (random: Random, name: string): string | undefined => {
  const list = words(name.replace(/,/g, ""))
  const options = list.flatMap((word, i) => (letters(word).length >= 3 ? [i] : []))
  if (options.length === 0) return undefined
  const i = random.pick(options)
  return [...list.slice(0, i + 1), list[i]!, ...list.slice(i + 1)].join(" ")
}

/** Legal forms as registers of other countries print them, abbreviated and spelled out. */
const formGroups: ReadonlyArray<ReadonlyArray<string>> = [
  ["OAO", "Open Joint Stock Company", "Otkrytoe Aktsionernoe Obshchestvo", "OJSC"],
  ["ZAO", "Closed Joint Stock Company", "Zakrytoe Aktsionernoe Obshchestvo", "CJSC"],
  ["PAO", "Public Joint Stock Company", "Publichnoe Aktsionernoe Obshchestvo", "PJSC"],
  ["AO", "Joint Stock Company", "Aktsionernoe Obshchestvo", "JSC"],
  ["OOO", "Limited Liability Company", "Obshchestvo s Ogranichennoi Otvetstvennostyu", "LLC"],
  ["TOV", "Tovarystvo z Obmezhenoyu Vidpovidalnistyu", "LLC"],
  ["SRL", "Societatea cu Raspundere Limitata", "Societa a Responsabilita Limitata", "S.R.L."],
  ["SARL", "Societe a Responsabilite Limitee", "S.A.R.L."],
  ["SA", "Societe Anonyme", "Sociedad Anonima", "S.A."],
  ["GmbH", "Gesellschaft mit beschrankter Haftung"],
  ["AG", "Aktiengesellschaft"],
  ["Sp. z o.o.", "Spolka z ograniczona odpowiedzialnoscia", "Sp. z o. o."],
  ["S.p.A.", "Societa per Azioni", "SpA"],
  ["Ltd", "Limited", "Ltd."],
  ["Co., Ltd.", "Company Limited", "Co Ltd"],
  ["Inc", "Incorporated", "Inc."],
  ["Corp", "Corporation", "Corp."],
  ["LLP", "Limited Liability Partnership"],
  ["PLC", "Public Limited Company"],
  ["Pvt Ltd", "Private Limited"],
  ["Pte Ltd", "Private Limited", "Pte. Ltd."],
  ["FZE", "Free Zone Establishment"],
  ["FZCO", "Free Zone Company"],
  ["Sdn Bhd", "Sendirian Berhad"],
  ["LLC", "Limited Liability Company", "L.L.C."],
  ["KK", "Kabushiki Kaisha"],
  ["BV", "Besloten Vennootschap", "B.V."],
  ["Ltda", "Limitada"],
  ["SAS", "Societe par Actions Simplifiee"],
  ["DOO", "Drustvo s Ogranicenom Odgovornoscu", "D.O.O."],
  ["Kft", "Korlatolt Felelossegu Tarsasag"],
  ["s.r.o.", "Spolecnost s Rucenim Omezenym"]
]
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s*")
const formPatterns = formGroups.flatMap((group) =>
  group.map((form) => [new RegExp(`(^|[\\s,])${escape(form)}(?=$|[\\s,])`, "i"), form, group] as const)
).sort((a, b) => b[1].length - a[1].length)

/**
 * The listed legal form replaced by an equivalent from another language or its spelled-out words
 * ("OAO Gazprom" ↔ "Open Joint Stock Company Gazprom"), or dropped with the name kept as a trade name.
 */
export const legalFormLanguage = (random: Random, name: string): string | undefined => {
  const found = formPatterns.find(([pattern]) => pattern.test(name))
  if (found === undefined) return undefined
  const [pattern, form, group] = found
  const rest = name.replace(pattern, "$1").replace(/\s+/g, " ").replace(/^[\s,]+|[\s,]+$/g, "")
  if (words(rest).filter((word) => letters(word).length >= 3).length === 0) return undefined
  if (random.chance(0.15)) return rest
  const other = random.pick(group.filter((alternative) => alternative !== form))
  return random.chance(0.5) ? `${other} ${rest}` : `${rest} ${other}`
}

const units = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
const teens = [
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen"
]
const tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
const inWords = (n: number): string | undefined => {
  if (n < 10) return units[n]
  if (n < 20) return teens[n - 10]
  if (n < 100) return tens[Math.floor(n / 10)] + (n % 10 === 0 ? "" : `-${units[n % 10]}`)
  return undefined
}
const ordinalWords: Record<string, string> = {
  one: "first",
  two: "second",
  three: "third",
  five: "fifth",
  eight: "eighth",
  nine: "ninth",
  twelve: "twelfth"
}
const ordinalInWords = (n: number) => {
  const cardinal = inWords(n)
  if (cardinal === undefined) return undefined
  const parts = cardinal.split("-")
  const last = parts.at(-1)!
  parts[parts.length - 1] = ordinalWords[last] ?? (last.endsWith("y") ? `${last.slice(0, -1)}ieth` : `${last}th`)
  return parts.join("-")
}
const roman = (n: number) => {
  const table: ReadonlyArray<readonly [number, string]> = [
    [50, "L"],
    [40, "XL"],
    [10, "X"],
    [9, "IX"],
    [5, "V"],
    [4, "IV"],
    [1, "I"]
  ]
  let out = ""
  let left = n
  for (const [value, symbol] of table) {
    while (left >= value) {
      out += symbol
      left -= value
    }
  }
  return out
}

/** A number in the name written another way: "44" ↔ "Forty-Four", "1st" ↔ "First", "3" ↔ "III". */
export const numberForms = (random: Random, name: string): string | undefined => {
  const list = words(name)
  const options = list.flatMap((word, i) => (/^\d{1,2}(?:st|nd|rd|th)?$/i.test(word) ? [i] : []))
  if (options.length === 0) return undefined
  const i = random.pick(options)
  const word = list[i]!
  const n = Number(word.replace(/\D/g, ""))
  const ordinal = /\D/.test(word)
  const forms = ordinal ? [ordinalInWords(n)] : [inWords(n), ...(n > 0 && n < 40 ? [roman(n)] : [])]
  const options2 = forms.filter((form): form is string => form !== undefined)
  if (options2.length === 0) return undefined
  const replaced = random.pick(options2)
  const cased = word === word.toUpperCase() && name === name.toUpperCase() ? replaced.toUpperCase() : replaced
  return list.map((w, k) => (k === i ? cased : w)).join(" ")
}

const lookalikes: Record<string, string> = { o: "0", i: "1", l: "1", e: "3", a: "4", s: "5", b: "8", g: "9" }

/** One or two letters replaced by the digits that look like them ("Ig0r Sech1n"). */
export const lookalikeDigits = (random: Random, name: string): string | undefined => {
  const chars = [...name]
  const options = chars.flatMap((
    c,
    i
  ) => (lookalikes[c.toLowerCase()] && i > 0 && /[A-Za-z]/.test(chars[i - 1]!) ? [i] : []))
  if (options.length === 0) return undefined
  for (const i of random.shuffle(options).slice(0, 1 + random.int(2))) chars[i] = lookalikes[chars[i]!.toLowerCase()]!
  return chars.join("")
}

/** Words an acronym skips. */
const skipped = new Set(["of", "the", "and", "for", "de", "la", "del", "in", "on", "&"])

/** The initials of an organization's name, or undefined when it has fewer than three words. */
export const acronymOf = (name: string, isForm: (word: string) => boolean): string | undefined => {
  const list = words(name.replace(/\([^)]*\)/g, " ").replace(/[-/]/g, " "))
    .filter((word) => !skipped.has(word.toLowerCase()) && !isForm(word) && /^[A-Za-z]/.test(word))
  if (list.length < 3 || list.length > 6) return undefined
  return list.map((word) => word[0]!.toUpperCase()).join("")
}
