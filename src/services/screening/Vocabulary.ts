import { canonicalForms, nameAbbreviations } from "./CanonicalForms.ts"
import { numberForms } from "./NumberWords.ts"

/**
 * Word classes that carry little identifying weight in a party name. They are down-weighted, never
 * deleted: "Bank of Kunlun Co Ltd" and "Bank of Kunlun" should match each other, but a name made
 * only of such words still matches itself.
 */
export const TokenClass = { name: 0, legalForm: 1, honorific: 2, filler: 3, patronymic: 4 } as const
export type TokenClass = typeof TokenClass[keyof typeof TokenClass]

/** Words that are legal forms wherever they stand (the targets above and common abbreviations). */
const legalFormTokens = [
  "ltd",
  "limited",
  "co",
  "company",
  "corp",
  "corporation",
  "inc",
  "incorporated",
  "llc",
  "llp",
  "lp",
  "plc",
  "pvt",
  "pte",
  "jsc",
  "ojsc",
  "cjsc",
  "pjsc",
  "ao",
  "oao",
  "zao",
  "pao",
  "ooo",
  "tov",
  "gmbh",
  "ag",
  "sa",
  "sas",
  "spa",
  "sarl",
  "srl",
  "cv",
  "ltda",
  "sdn",
  "sendirian",
  "bhd",
  "kk",
  "fze",
  "fzco",
  "fzc",
  "fz",
  "bv",
  "nv",
  "oy",
  "ab",
  "kft",
  "sro",
  "doo",
  "tbk",
  "pty",
  "cia",
  "sl",
  // Sociedad civil (Mexico)
  "sc"
]

/** Titles and honorifics that may precede or follow a person's name. */
const honorificTokens = [
  "mr",
  "mrs",
  "ms",
  "miss",
  "dr",
  "doctor",
  "prof",
  "professor",
  "sir",
  "madam",
  "dame",
  "lord",
  "hon",
  "honorable",
  "rev",
  "reverend",
  "sheikh",
  "sheik",
  "shaikh",
  "shaykh",
  "haji",
  "hajji",
  "hadji",
  "mullah",
  "mulla",
  "maulana",
  "mawlana",
  "ayatollah",
  "gen",
  "colonel",
  "col",
  "maj",
  "capt",
  "lieutenant",
  "lt",
  "admiral",
  "adm",
  "brigadier",
  "cmdr",
  "sergeant",
  "sgt",
  // Religious, family and courtesy titles of the languages common on the lists, and suffixes.
  "hajj",
  "alhaj",
  "alhajj",
  "sayyid",
  "sayed",
  "sayyed",
  "seyed",
  "seyyed",
  "syed",
  "sheik",
  "mawlawi",
  "maulvi",
  "mawlvi",
  "moulana",
  "ustadh",
  "ustaz",
  "ustad",
  "imam",
  "hojatoleslam",
  "hojjatoleslam",
  "hojatolislam",
  "ayatullah",
  "emir",
  "herr",
  "frau",
  "senor",
  "senora",
  "sr",
  "sra",
  "don",
  "dona",
  "monsieur",
  "mme",
  "mlle",
  "signor",
  "gospodin",
  "gospozha",
  "major",
  "captain",
  "eng",
  "engineer",
  "comrade",
  "president",
  "minister",
  "jr",
  "junior",
  "senior",
  "phd",
  "esq",
  "pasha",
  "bey",
  "effendi",
  "sahib",
  "sahab",
  "mufti",
  "qari"
]

/** Connecting words: articles, prepositions and conjunctions of the languages common on the lists. */
const fillerTokens = [
  "of",
  "the",
  "and",
  "for",
  "in",
  "on",
  "at",
  "by",
  "to",
  "de",
  "del",
  "la",
  "le",
  "les",
  "los",
  "las",
  "y",
  "e",
  "et",
  "und",
  "di",
  "da",
  "do",
  "dos",
  "das",
  "du",
  "des",
  "van",
  "von",
  "der"
]

export interface Phrase {
  readonly words: ReadonlyArray<string>
  readonly canonical: string
  /** Whether the words are a legal form (low weight) rather than an abbreviated name word. */
  readonly legalForm: boolean
}

/** Phrases by first word, longest first. */
export const phrasesByFirstWord: ReadonlyMap<string, ReadonlyArray<Phrase>> = (() => {
  const byFirst = new Map<string, Array<Phrase>>()
  for (const [from, canonical] of [...canonicalForms, ...numberForms]) {
    const words = from.split(" ")
    const list = byFirst.get(words[0]!) ?? []
    list.push({ words, canonical, legalForm: !nameAbbreviations.has(canonical) && !/[0-9]/.test(canonical) })
    byFirst.set(words[0]!, list)
  }
  for (const list of byFirst.values()) list.sort((a, b) => b.words.length - a.words.length)
  return byFirst
})()

const classByToken: ReadonlyMap<string, TokenClass> = new Map<string, TokenClass>([
  ...fillerTokens.map((token) => [token, TokenClass.filler] as const),
  ...honorificTokens.map((token) => [token, TokenClass.honorific] as const),
  ...legalFormTokens.map((token) => [token, TokenClass.legalForm] as const)
])

/**
 * East Slavic patronymics and Turkic "son/daughter of" suffixes: a name part people leave out
 * ("Sergey Kuzhugetovich Shoigu" / "Sergey Shoigu"), so it weighs little.
 */
const patronymicSuffix = /^[a-z]{3,}(?:ovich|evich|ievich|ovych|evych|ovna|evna|ievna|ivna|ogly|oglu|ogli|kyzy|qizi)$/

/** What a canonical form stands for: digits, an abbreviated name word, or a legal form. */
export const formKind = (canonical: string): "number" | "abbreviation" | "legal_form" =>
  /[0-9]/.test(canonical) ? "number" : nameAbbreviations.has(canonical) ? "abbreviation" : "legal_form"

export const classOf = (token: string): TokenClass =>
  classByToken.get(token) ?? (patronymicSuffix.test(token) ? TokenClass.patronymic : TokenClass.name)
