/**
 * Word classes that carry little identifying weight in a party name. They are down-weighted, never
 * deleted: "Bank of Kunlun Co Ltd" and "Bank of Kunlun" should match each other, but a name made
 * only of such words still matches itself.
 */
export const TokenClass = { name: 0, legalForm: 1, honorific: 2, filler: 3 } as const
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
  ["international", "intl"],
  ["manufacturing", "mfg"],
  ["saint", "st"],
  ["mount", "mt"]
]

/** Abbreviations that are names, not legal forms: their words keep their weight. */
const nameAbbreviations = new Set(["intl", "mfg", "st", "mt"])

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
  "sgt"
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
  for (const [from, canonical] of canonicalForms) {
    const words = from.split(" ")
    const list = byFirst.get(words[0]!) ?? []
    list.push({ words, canonical, legalForm: !nameAbbreviations.has(canonical) })
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

export const classOf = (token: string): TokenClass => classByToken.get(token) ?? TokenClass.name
