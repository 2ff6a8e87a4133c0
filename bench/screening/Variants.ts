import { abbreviatedToken, honorificAnywhere, truncatedToken } from "./DecisionKinds.ts"
import { addDiacritics, toCyrillic, transliterate, transpose, typo } from "./Edits.ts"
import type { Random } from "./Random.ts"
import { chineseNameSyllables, toArabic, toChinese, toGreek, toWadeGiles } from "./Scripts.ts"
import {
  acronymOf,
  extraNamePart,
  legalFormLanguage,
  lookalikeDigits,
  numberForms,
  repeatedWord
} from "./StructureKinds.ts"

/**
 * The labelled evaluation set: queries generated from the list's own names by the variant kinds of
 * issue 9, each labelled with the entries it should find, plus negatives that should find nothing.
 */

export interface CorpusEntry {
  readonly type: string | null
  /** Upper-case country codes of the entry (addresses, nationality). */
  readonly countries: ReadonlyArray<string>
  /** The primary name first, then the alternate names, as listed. */
  readonly names: ReadonlyArray<string>
}

export interface Case {
  readonly kind: string
  readonly positive: boolean
  readonly query: string
  /** Entries counted as the right answer: the source entry and any entry listing the same name. */
  readonly targets: ReadonlyArray<number>
  /**
   * "tuning" or "held_out": a fixed third of the list's entries (by a hash of the entry's position)
   * and of the negatives is kept out of tuning; the goals are judged on it.
   */
  readonly split: Split
}

export type Split = "tuning" | "held_out"

/** Deterministic split of a number (entry position or negative serial): a third is held out. */
export const splitOf = (n: number): Split =>
  (Math.imul(n ^ 0x5bd1e995, 0x27d4eb2d) >>> 29) % 3 === 0 ? "held_out" : "tuning"

/** Engine-neutral comparison key: lowercase ASCII words. */
export const neutralKey = (text: string): string =>
  text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, " ").trim()

/**
 * The words of a name that identify it, engine-neutrally: lowercase ASCII words without legal
 * forms. Names with the same words in any order ("GENCOGLU, Serhat" / "Serhat Gencoglu", "X LTD" /
 * "LIMITED LIABILITY COMPANY X") are the same name for the evaluation: each of their entries is a
 * right answer.
 */
const identifyingWords = (text: string) => neutralKey(text).split(" ").filter((word) => word !== "" && !isForm(word))
const sameNameKey = (text: string) => identifyingWords(text).sort().join(" ")

/**
 * A loose key for "the same word in any spelling": the consonant skeleton (vowels and h, w, y
 * dropped, doubled letters collapsed). A negative all of whose word skeletons occur in one listed
 * name is not a negative: "Muhammad EBRAHIMI" is "Mohammad Ebrahimi", "Ali RAGE" is "RAGE, Ali Mohamed"
 * without a middle name.
 */
const skeleton = (word: string) => word.replace(/[aeiouhwy]/g, "").replace(/(.)\1+/g, "$1") || word

const words = (text: string) => text.split(/\s+/).filter((word) => word.length > 0)
const wordLetters = (word: string) => word.replace(/[^A-Za-z]/g, "")
const isPerson = (entry: CorpusEntry) => entry.type === "Individual"

const legalForms = new Set([
  "liability",
  "joint",
  "stock",
  "open",
  "closed",
  "public",
  "aktsionernoe",
  "obshchestvo",
  "ogranichennoi",
  "ogranichennoy",
  "otvetstvennostyu",
  "s",
  "ltd",
  "limited",
  "co",
  "company",
  "corp",
  "corporation",
  "inc",
  "incorporated",
  "llc",
  "jsc",
  "ojsc",
  "pjsc",
  "cjsc",
  "ooo",
  "oao",
  "zao",
  "ao",
  "gmbh",
  "sa",
  "plc",
  "fze",
  "pte"
])
const isForm = (word: string) => legalForms.has(wordLetters(word).toLowerCase())
const formSwaps: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bLTD\b\.?/i, "LIMITED"],
  [/\bLIMITED\b/i, "LTD."],
  [/\bCO\b\.?/i, "COMPANY"],
  [/\bCOMPANY\b/i, "CO."],
  [/\bCORP\b\.?/i, "CORPORATION"],
  [/\bCORPORATION\b/i, "CORP."],
  [/\bINC\b\.?/i, "INCORPORATED"],
  [/\bLLC\b/i, "LIMITED LIABILITY COMPANY"],
  [/\bLIMITED LIABILITY COMPANY\b/i, "LLC"],
  [/\bJSC\b/i, "JOINT STOCK COMPANY"],
  [/\bJOINT STOCK COMPANY\b/i, "JSC"],
  [/,?\s*\b(?:CO\.?,?\s*)?LTD\b\.?/i, " LLC"],
  [/,?\s*\bLLC\b/i, " LTD"],
  [/,?\s*\b(?:LTD|LLC|INC|CORP|JSC|GMBH|PLC)\b\.?$/i, ""]
]
const connectives = new Set(["and", "the", "for", "del", "los", "las", "des", "von", "van", "bin", "ibn", "abu"])
const honorifics = ["Mr.", "Mrs.", "Dr.", "Sheikh", "Gen.", "Haji", "Prof.", "Col."]

/** A query derived from one listed name, or `undefined` when the kind does not apply to it. */
type Variant = (random: Random, name: string, entry: CorpusEntry, alias: number) => string | undefined

const editWord = (random: Random, name: string, edit: (word: string) => string | undefined, minLetters = 3) => {
  const list = words(name)
  const options = list.flatMap((word, i) => (wordLetters(word).length >= minLetters && !/\d/.test(word) ? [i] : []))
  if (options.length === 0) return undefined
  const i = random.pick(options)
  const edited = edit(list[i]!)
  return edited === undefined ? undefined : list.map((word, k) => (k === i ? edited : word)).join(" ")
}

/** "SURNAME, Given Middle" → the surname part and the given-name words; undefined without a comma. */
const commaParts = (name: string) => {
  const comma = name.indexOf(",")
  if (comma <= 0) return undefined
  const given = words(name.slice(comma + 1))
  return given.length > 0 ? { surname: name.slice(0, comma).trim(), given } : undefined
}

export const positiveKinds: Record<string, Variant> = {
  exact: (_, name) => name,
  case_punctuation: (random, name) => {
    const styled = random.pick([
      (text: string) => text.toLowerCase(),
      (text: string) => text.toUpperCase(),
      (text: string) => text.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase())
    ])(name)
    const punctuated = random.chance(0.5)
      ? styled.replace(/[.,]/g, "")
      : words(styled).map((word, i, all) => (i < all.length - 1 && random.chance(0.4) ? `${word},` : word)).join(" ")
    return punctuated === name ? undefined : punctuated
  },
  typo_single: (random, name) => editWord(random, name, (word) => typo(random, word)),
  typo_double: (random, name) => {
    const once = editWord(random, name, (word) => typo(random, word), 4)
    return once === undefined ? undefined : editWord(random, once, (word) => typo(random, word), 4)
  },
  transposition: (random, name) => editWord(random, name, (word) => transpose(random, word)),
  reordered: (random, name, entry) => {
    // A person's given and family names swapped are a different person unless the list says so
    // (the negative kind "swapped_order"); company words in any order are the same company.
    if (isPerson(entry)) return undefined
    const list = words(name.replace(/,/g, ""))
    if (list.length < 2) return undefined
    let order = random.shuffle(list)
    for (let tries = 0; tries < 5 && order.join(" ") === list.join(" "); tries++) order = random.shuffle(list)
    return order.join(" ") === list.join(" ") ? undefined : order.join(" ")
  },
  middle_dropped: (random, name, entry) => {
    if (!isPerson(entry)) return undefined
    const parts = commaParts(name)
    if (parts !== undefined) {
      if (parts.given.length < 2) return undefined
      const drop = 1 + random.int(parts.given.length - 1)
      return `${parts.surname}, ${parts.given.filter((_, i) => i !== drop).join(" ")}`
    }
    const list = words(name)
    if (list.length < 3) return undefined
    const drop = 1 + random.int(list.length - 2)
    return list.filter((_, i) => i !== drop).join(" ")
  },
  honorific_added: (random, name, entry) => (isPerson(entry) ? `${random.pick(honorifics)} ${name}` : undefined),
  company_form: (random, name, entry) => {
    if (isPerson(entry)) return undefined
    const options = formSwaps.filter(([from]) => from.test(name))
    if (options.length === 0) return `${name} ${random.pick(["LTD", "LLC", "CO., LTD.", "INC.", "JSC"])}`
    const [from, to] = random.pick(options)
    const changed = name.replace(from, to).replace(/\s+/g, " ").trim()
    return changed === name || changed === "" ? undefined : changed
  },
  words_split: (random, name) =>
    editWord(random, name, (word) => {
      const at = 2 + random.int(word.length - 3)
      return /^[A-Za-z]+$/.test(word) ? `${word.slice(0, at)} ${word.slice(at)}` : undefined
    }, 6),
  words_joined: (random, name) => {
    const list = words(name)
    const options = list.flatMap((word, i) =>
      i + 1 < list.length && /^[A-Za-z]+$/.test(word) && /^[A-Za-z]+$/.test(list[i + 1]!) ? [i] : []
    )
    if (options.length === 0) return undefined
    const i = random.pick(options)
    return [...list.slice(0, i), list[i]! + list[i + 1]!, ...list.slice(i + 2)].join(" ")
  },
  diacritics: (random, name) => addDiacritics(random, name),
  alias_typo: (
    random,
    name,
    _,
    alias
  ) => (alias === 0 ? undefined : editWord(random, name, (word) => typo(random, word))),
  transliteration: (random, name) => transliterate(random, words(name))?.join(" "),
  abbreviated_first: (_random, name) => {
    // Only where the rest still identifies the party: a surname and another given name, or two
    // more words that are not legal forms.
    const parts = commaParts(name)
    if (parts !== undefined) {
      const first = parts.given[0]!
      if (wordLetters(first).length < 3 || parts.given.length < 2) return undefined
      return `${parts.surname}, ${first[0]}. ${parts.given.slice(1).join(" ")}`
    }
    const list = words(name)
    const informative = list.slice(1).filter((word) => wordLetters(word).length >= 3 && !isForm(word))
    if (wordLetters(list[0]!).length < 3 || isForm(list[0]!) || informative.length < 2) return undefined
    return `${list[0]![0]}. ${list.slice(1).join(" ")}`
  },
  script_cyrillic: (
    _random,
    name,
    entry
  ) => (isPerson(entry) && /^[A-Za-z ,.'-]+$/.test(name) ? toCyrillic(name) : undefined),
  // Issue 17: shortened and decorated names.
  abbreviated_token: (random, name) => abbreviatedToken(random, name),
  truncated_token: (random, name, entry) => (isPerson(entry) ? undefined : truncatedToken(random, name)),
  honorific_anywhere: (random, name, entry) => (isPerson(entry) ? honorificAnywhere(random, name) : undefined),
  // Issue 21: other scripts.
  script_cyrillic_entity: (_random, name, entry) =>
    !isPerson(entry) && /^[A-Za-z ,.'&-]+$/.test(name) ? toCyrillic(name) : undefined,
  script_arabic: (_random, name, entry) =>
    isPerson(entry) && isArabicName(name) && words(name).length <= 5 ? toArabic(name) : undefined,
  script_greek: (
    _random,
    name,
    entry
  ) => (isPerson(entry) && /^[A-Za-z ,.'-]+$/.test(name) ? toGreek(name) : undefined),
  script_chinese: (random, name, entry) => (isPerson(entry) && isChinese(entry) ? toChinese(random, name) : undefined),
  wade_giles: (random, name, entry) => (isPerson(entry) && isChinese(entry) ? toWadeGiles(random, name) : undefined),
  // Issue 21: name structure.
  extra_name_part: (random, name, entry) =>
    isPerson(entry) && /^[A-Za-z ,.'-]+$/.test(name) ? extraNamePart(random, name, extraNames) : undefined,
  repeated_word: (random, name) => repeatedWord(random, name),
  legal_form_language: (random, name, entry) => (isPerson(entry) ? undefined : legalFormLanguage(random, name)),
  number_forms: (random, name) => numberForms(random, name),
  lookalike_digits: (random, name) => lookalikeDigits(random, name),
  acronym: (_random, name, entry) => (isPerson(entry) ? undefined : acronymOf(name, isForm))
}

const chineseCountries = new Set(["CN", "HK", "TW", "MO", "CHINA", "HONG KONG", "TAIWAN"])
const isChinese = (entry: CorpusEntry) => entry.countries.some((country) => chineseCountries.has(country))
/** Names with a part only Arabic and Persian names have (the abjad variant is generated for those). */
const isArabicName = (name: string) =>
  /\b(?:al|el|bin|ibn|abd|abdul|abu|muhammad|mohammad|mohammed|ahmad|ahmed|ali|hassan|hussein|husayn|hosseini?)\b/i
    .test(name) &&
  /^[A-Za-z ,.'-]+$/.test(name)
/** Given and middle names common on the list, for the extra-part kind. */
const extraNames = ["Ahmad", "Ali", "Hassan", "Karim", "Jose", "Maria", "Lee", "Anne", "Omar", "Said", "Yusuf", "Ivan"]

export interface GenerateOptions {
  readonly perKind: number
  readonly perNegativeKind: number
}

export const generate = (random: Random, corpus: ReadonlyArray<CorpusEntry>, options: GenerateOptions) => {
  const entriesByKey = new Map<string, Array<number>>()
  const namesBySkeleton = new Map<string, Array<ReadonlyArray<string>>>()
  corpus.forEach((entry, index) => {
    for (const name of entry.names) {
      const key = sameNameKey(name)
      const list = entriesByKey.get(key)
      if (list === undefined) entriesByKey.set(key, [index])
      else if (!list.includes(index)) list.push(index)
      const skeletons = identifyingWords(name).map(skeleton)
      for (const word of new Set(skeletons)) {
        const names = namesBySkeleton.get(word)
        if (names === undefined) namesBySkeleton.set(word, [skeletons])
        else names.push(skeletons)
      }
    }
  })
  const containedInListedName = (query: string) => {
    const words = identifyingWords(query).map(skeleton)
    if (words.length === 0) return true
    const contains = (listed: ReadonlyArray<string>) => {
      const left = [...listed]
      return words.every((word) => {
        const at = left.indexOf(word)
        if (at === -1) return false
        left.splice(at, 1)
        return true
      })
    }
    return (namesBySkeleton.get(words[0]!) ?? []).some(contains)
  }

  const entriesByAcronym = new Map<string, Array<number>>()
  corpus.forEach((entry, index) => {
    if (isPerson(entry)) return
    for (const name of entry.names) {
      const acronym = acronymOf(name, isForm)
      if (acronym === undefined) continue
      const list = entriesByAcronym.get(acronym)
      if (list === undefined) entriesByAcronym.set(acronym, [index])
      else if (!list.includes(index)) list.push(index)
    }
  })
  /** Entries a query should find: those listing the same name, and for an acronym every entry it abbreviates. */
  const targetsOf = (kind: string, query: string, name: string, entryIndex: number) => {
    const same = entriesByKey.get(sameNameKey(name)) ?? [entryIndex]
    if (kind !== "acronym") return same
    const all = new Set([
      ...same,
      ...(entriesByAcronym.get(query) ?? []),
      ...(entriesByKey.get(sameNameKey(query)) ?? [])
    ])
    return [...all]
  }

  const cases: Array<Case> = []
  for (const [kind, variant] of Object.entries(positiveKinds)) {
    let made = 0
    for (let attempt = 0; made < options.perKind && attempt < options.perKind * 200; attempt++) {
      const entryIndex = random.int(corpus.length)
      const entry = corpus[entryIndex]!
      const alias = random.int(entry.names.length)
      const name = entry.names[alias]!
      const query = variant(random, name, entry, alias)
      if (query === undefined || (kind !== "exact" && query === name) || query.trim() === "") continue
      cases.push({
        kind,
        positive: true,
        query,
        targets: targetsOf(kind, query, name, entryIndex),
        split: splitOf(entryIndex)
      })
      made++
    }
  }

  const people = corpus.filter(isPerson)
  const surnames = people.flatMap((entry) => entry.names.flatMap((name) => commaParts(name)?.surname ?? []))
    .filter((surname) => /^[A-Za-z-]{3,}$/.test(surname))
  const givenNames = people.flatMap((entry) => entry.names.flatMap((name) => commaParts(name)?.given ?? []))
    .filter((given) => /^[A-Za-z-]{3,}$/.test(given))
  const entityWords = corpus.filter((entry) => !isPerson(entry)).flatMap((entry) => words(entry.names[0]!))
    .filter((word) => /^[A-Za-z]{3,}$/.test(word) && !isForm(word))
  const plausible = (): string =>
    random.chance(0.5)
      ? [random.pick(givenNames), ...(random.chance(0.4) ? [random.pick(givenNames)] : []), random.pick(surnames)]
        .join(" ")
      : [
        ...Array.from({ length: 2 + random.int(2) }, () => random.pick(entityWords)),
        random.pick(["LTD", "LLC", "CO., LTD.", "JSC", "", ""])
      ].join(" ").trim()
  const neighbour = (): string | undefined => {
    const entry = corpus[random.int(corpus.length)]!
    const list = words(entry.names[random.int(entry.names.length)]!.replace(/,/g, ""))
    const replaceable = list.flatMap((word, i) =>
      /^[A-Za-z-]{3,}$/.test(word) && !isForm(word) && !connectives.has(word.toLowerCase()) ? [i] : []
    )
    if (list.length < 3 || replaceable.length < 2) return undefined
    const vocabulary = isPerson(entry) ? [...givenNames, ...surnames] : entityWords
    const changed = new Set(random.shuffle(replaceable).slice(0, 2))
    const replacement = (word: string) => {
      let other = word
      while (neutralKey(other) === neutralKey(word)) other = random.pick(vocabulary)
      return other
    }
    return list.map((word, i) => (changed.has(i) ? replacement(word) : word)).join(" ")
  }
  // Word-order negatives: the same words in an order no listed name has (as written, or read
  // given-names-first from "SURNAME, Given").
  const listedOrders = new Set(corpus.flatMap((entry) =>
    entry.names.flatMap((name) => {
      const parts = commaParts(name)
      return [
        neutralKey(name),
        ...(parts === undefined ? [] : [neutralKey(`${parts.given.join(" ")} ${parts.surname}`)])
      ]
    })
  ))
  const personNames = people.flatMap((entry) => entry.names)
  const titleCase = (word: string) => word[0]!.toUpperCase() + word.slice(1).toLowerCase()
  const readingOrder = (name: string) => {
    const parts = commaParts(name)
    return parts === undefined ? words(name) : [...parts.given, ...words(parts.surname)]
  }
  /**
   * Every ordered pair of word skeletons of the listed person names, as written and read given
   * names first: a swapped query whose pair some listed name has in that order is not a negative
   * ("Karim Abdul" is "KARIM, Ali Abdul" written surname first).
   */
  const orderedPairs = new Set<string>()
  for (const name of personNames) {
    for (const list of [words(name.replace(/,/g, " ")), readingOrder(name)]) {
      const keys = list.map((word) => skeleton(neutralKey(word).replace(/ /g, "")))
      for (let i = 0; i < keys.length; i++) {
        for (let j = i + 1; j < keys.length; j++) orderedPairs.add(`${keys[i]} ${keys[j]}`)
      }
    }
  }
  const listedInOrder = (first: string, second: string) =>
    orderedPairs.has(
      `${skeleton(neutralKey(first).replace(/ /g, ""))} ${skeleton(neutralKey(second).replace(/ /g, ""))}`
    )
  /** Particles and titles: order-free words, not given or family names. */
  const notAName =
    /^(?:abu|abou|al|el|bin|ibn|ben|ullah|allah|abdul|abdel|abdus|abd|van|von|de|da|di|del|le|la|mc|mac|haji|hajji|mufti|mullah|maulana|mawlawi|sayyid|sayed|syed|sheikh|shaykh|don|dona|comrade|engineer|colonel|doctor|general|hazrat|qari|imam|mir|mirza|hafiz|amir)$/i
  /** "Hans Friedrich" → "Friedrich Hans": two plain name words of a name not written surname-first. */
  const swappedOrder = (): string | undefined => {
    const name = random.pick(personNames)
    const list = words(name)
    if (name.includes(",") || list.length !== 2) return undefined
    if (!list.every((word) => /^[A-Za-z]{3,}$/.test(word) && !notAName.test(word))) return undefined
    // Chinese names are written family name first or last with no change of person.
    if (chineseNameSyllables(name) !== undefined || listedInOrder(list[1]!, list[0]!)) return undefined
    return `${titleCase(list[1]!)} ${titleCase(list[0]!)}`
  }
  // "Son bin Father …" in reading order, where "bin" is not the start of a family name ("BIN LADEN, Hamza").
  const binNames = personNames.filter((name) => !/^\s*(?:bin|ibn)\b/i.test(name)).map(readingOrder)
    .filter((list) =>
      list.length >= 3 && /^(?:bin|ibn)$/i.test(list[1]!) && !notAName.test(list[0]!) && !notAName.test(list[2]!)
    )
  /** "Rashid bin Mahmud" → "Mahmud bin Rashid": son and father swapped. */
  const binSwapped = (): string | undefined => {
    const list = random.pick(binNames)
    if (neutralKey(list[0]!) === neutralKey(list[2]!) || listedInOrder(list[2]!, list[0]!)) return undefined
    return [list[2]!, list[1]!, list[0]!, ...list.slice(3)].join(" ")
  }
  const negativeKinds: Record<string, readonly [() => string | undefined, (query: string) => boolean]> = {
    random_name: [plausible, containedInListedName],
    near_neighbour: [neighbour, containedInListedName],
    swapped_order: [swappedOrder, (query) => listedOrders.has(neutralKey(query))],
    bin_swapped: [binSwapped, (query) => listedOrders.has(neutralKey(query))]
  }
  for (const [kind, [make, excluded]] of Object.entries(negativeKinds)) {
    let made = 0
    const wanted = kind === "random_name" || kind === "near_neighbour" ? options.perNegativeKind : options.perKind
    for (let attempt = 0; made < wanted && attempt < wanted * 200; attempt++) {
      const query = make()
      if (query === undefined || excluded(query)) continue
      cases.push({ kind, positive: false, query, targets: [], split: splitOf(made) })
      made++
    }
  }
  return cases
}
