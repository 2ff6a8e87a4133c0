/**
 * Word classes that carry little identifying weight in a party name. They are down-weighted, never
 * deleted: "Bank of Kunlun Co Ltd" and "Bank of Kunlun" should match each other, but a name made
 * only of such words still matches itself.
 */
export const TokenClass = { name: 0, legalForm: 1, honorific: 2, filler: 3, patronymic: 4 } as const
export type TokenClass = typeof TokenClass[keyof typeof TokenClass]

/**
 * Legal forms and abbreviations, as lowercased word sequences, and the canonical token each stands
 * for: "LIMITED LIABILITY COMPANY" and "LLC" compare equal, as do "LIMITED" and "LTD". Names keep
 * their words (so a misspelt "LIMTED" still finds "LIMITED"); the canonical token is an alternate
 * form covering those words.
 */
const canonicalForms: ReadonlyArray<readonly [string, string]> = [
  ["limited", "ltd"],
  ["company", "co"],
  ["compagnie", "co"],
  ["compania", "co"],
  ["corporation", "corp"],
  ["incorporated", "inc"],
  ["limited liability company", "llc"],
  ["limited liability co", "llc"],
  ["limited liability partnership", "llp"],
  ["limited partnership", "lp"],
  ["public limited company", "plc"],
  ["joint stock company", "jsc"],
  ["joint stock co", "jsc"],
  ["open joint stock company", "ojsc"],
  ["closed joint stock company", "cjsc"],
  ["public joint stock company", "pjsc"],
  ["aktsionernoe obshchestvo", "ao"],
  ["aktsionernoye obshchestvo", "ao"],
  ["otkrytoe aktsionernoe obshchestvo", "oao"],
  ["otkrytoye aktsionernoye obshchestvo", "oao"],
  ["zakrytoe aktsionernoe obshchestvo", "zao"],
  ["zakrytoye aktsionernoye obshchestvo", "zao"],
  ["publichnoe aktsionernoe obshchestvo", "pao"],
  ["publichnoye aktsionernoye obshchestvo", "pao"],
  ["obshchestvo s ogranichennoi otvetstvennostyu", "ooo"],
  ["obshchestvo s ogranichennoy otvetstvennostyu", "ooo"],
  ["obshchestvo s ogranichennoj otvetstvennostju", "ooo"],
  ["tovarystvo z obmezhenoyu vidpovidalnistyu", "tov"],
  ["gesellschaft mit beschrankter haftung", "gmbh"],
  ["gesellschaft mit beschraenkter haftung", "gmbh"],
  ["aktiengesellschaft", "ag"],
  ["sociedad anonima", "sa"],
  ["societe anonyme", "sa"],
  ["sociedade anonima", "sa"],
  ["societa per azioni", "spa"],
  ["societe a responsabilite limitee", "sarl"],
  ["societa a responsabilita limitata", "srl"],
  ["sociedad de responsabilidad limitada", "srl"],
  ["capital variable", "cv"],
  ["limitada", "ltda"],
  ["berhad", "bhd"],
  ["kabushiki kaisha", "kk"],
  ["free zone establishment", "fze"],
  ["free zone company", "fzco"],
  ["societatea cu raspundere limitata", "srl"],
  ["spolka z ograniczona odpowiedzialnoscia", "spzoo"],
  ["sp z o o", "spzoo"],
  ["sp z oo", "spzoo"],
  ["tovarystvo z obmezhenoyu vidpovidalnistyu", "tov"],
  ["drustvo s ogranicenom odgovornoscu", "doo"],
  ["korlatolt felelossegu tarsasag", "kft"],
  ["spolecnost s rucenim omezenym", "sro"],
  ["besloten vennootschap", "bv"],
  ["naamloze vennootschap", "nv"],
  ["societe par actions simplifiee", "sas"],
  ["sociedade limitada", "ltda"],
  ["anonim sirketi", "as"],
  ["anonim sirket", "as"],
  ["limited sirketi", "ltdsti"],
  ["sendirian berhad", "sdnbhd"],
  ["sdn bhd", "sdnbhd"],
  ["private limited", "pvtltd"],
  ["pvt ltd", "pvtltd"],
  ["pte ltd", "pvtltd"],
  ["co ltd", "coltd"],
  ["company limited", "coltd"],
  ["otkrytoe aktsionernoe obshchestvo", "ojsc"],
  ["open joint stock co", "ojsc"],
  ["oao", "ojsc"],
  ["zao", "cjsc"],
  ["pao", "pjsc"],
  ["ao", "jsc"],
  ["ooo", "llc"],
  ["tov", "llc"],
  ["international", "intl"],
  ["manufacturing", "mfg"],
  ["saint", "st"],
  ["mount", "mt"],
  ["technology", "tech"],
  ["technologies", "tech"],
  ["technical", "tech"],
  ["industries", "ind"],
  ["industrial", "ind"],
  ["industry", "ind"],
  ["engineering", "eng"],
  ["electronics", "elec"],
  ["electronic", "elec"],
  ["electric", "elec"],
  ["research", "res"],
  ["institute", "inst"],
  ["institution", "inst"],
  ["university", "univ"],
  ["science", "sci"],
  ["sciences", "sci"],
  ["scientific", "sci"],
  ["development", "dev"],
  ["management", "mgmt"],
  ["services", "svcs"],
  ["service", "svc"],
  ["equipment", "equip"],
  ["trading", "trdg"],
  ["federal", "fed"],
  ["federation", "fed"],
  ["national", "natl"],
  ["association", "assn"],
  ["department", "dept"],
  ["government", "govt"],
  ["brothers", "bros"],
  ["holding", "hldg"],
  ["holdings", "hldgs"],
  ["laboratory", "lab"],
  ["laboratories", "labs"],
  ["systems", "sys"],
  ["chemical", "chem"],
  ["chemicals", "chem"],
  ["machinery", "mach"],
  ["communications", "comms"],
  ["telecommunications", "telecom"],
  ["telecommunication", "telecom"],
  ["academy", "acad"],
  ["investment", "inv"],
  ["investments", "inv"],
  ["shipping", "shpg"],
  ["group", "grp"],
  ["aviation", "avn"]
]

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
const ordinalUnits: Record<string, string> = {
  one: "first",
  two: "second",
  three: "third",
  five: "fifth",
  eight: "eighth",
  nine: "ninth",
  twelve: "twelfth"
}
const ordinal = (word: string) => ordinalUnits[word] ?? (word.endsWith("y") ? `${word.slice(0, -1)}ieth` : `${word}th`)
const romanNumeral = (n: number) => {
  let out = ""
  let left = n
  for (const [value, symbol] of [[40, "xl"], [10, "x"], [9, "ix"], [5, "v"], [4, "iv"], [1, "i"]] as const) {
    while (left >= value) {
      out += symbol
      left -= value
    }
  }
  return out
}
const digitSuffix = (n: number) =>
  n % 100 >= 11 && n % 100 <= 13 ? "th" : n % 10 === 1 ? "st" : n % 10 === 2 ? "nd" : n % 10 === 3 ? "rd" : "th"

/**
 * Numbers 0–99 written out (cardinal and ordinal, "forty four", "forty fourth"), as digit ordinals
 * ("44th") and Roman numerals II–XXXIX, each with its digits as canonical form: "Brigade Forty-Four"
 * finds "Brigade 44", "1st International Bank" "First International Bank". Series markers stay
 * significant: a digit token only ever matches the same digits. "XI" is left alone (a name far
 * more often than a numeral); "I", "V", "X" get the number as an alternate form and stay initials.
 */
const numberForms: ReadonlyArray<readonly [string, string]> = Array.from({ length: 100 }, (_, n) => {
  const cardinal = n < 10
    ? [units[n]!]
    : n < 20
    ? [teens[n - 10]!]
    : n % 10 === 0
    ? [tens[n / 10]!]
    : [tens[Math.floor(n / 10)]!, units[n % 10]!]
  const ordinalWords = [...cardinal.slice(0, -1), ordinal(cardinal.at(-1)!)]
  const roman = romanNumeral(n)
  return [
    [cardinal.join(" "), String(n)],
    ...(cardinal.length === 2 ? [[cardinal.join(""), String(n)] as const] : []),
    [ordinalWords.join(" "), String(n)],
    [`${n}${digitSuffix(n)}`, String(n)],
    ...(n >= 1 && n < 40 && roman !== "xi" ? [[roman, String(n)] as const] : [])
  ] as const
}).flat()

/** Abbreviations that are names, not legal forms: their words keep their weight. */
const nameAbbreviations = new Set([
  "intl",
  "mfg",
  "st",
  "mt",
  "tech",
  "ind",
  "elec",
  "res",
  "inst",
  "univ",
  "sci",
  "dev",
  "mgmt",
  "svcs",
  "svc",
  "equip",
  "trdg",
  "fed",
  "natl",
  "assn",
  "dept",
  "govt",
  "bros",
  "hldg",
  "hldgs",
  "lab",
  "labs",
  "sys",
  "chem",
  "mach",
  "comms",
  "telecom",
  "acad",
  "inv",
  "shpg",
  "grp",
  "avn"
])

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
  "sl"
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

export const classOf = (token: string): TokenClass =>
  classByToken.get(token) ?? (patronymicSuffix.test(token) ? TokenClass.patronymic : TokenClass.name)
