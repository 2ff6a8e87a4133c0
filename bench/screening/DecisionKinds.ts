import type { Random } from "./Random.ts"

/**
 * Variant kinds of the screening-decisions issue: how analysts and invoices shorten and decorate
 * listed names. Written independently of the engine (nothing here uses its vocabulary).
 */

const words = (text: string) => text.split(/\s+/).filter((word) => word.length > 0)
const letters = (word: string) => word.replace(/[^A-Za-z]/g, "")
const styled = (template: string, word: string) =>
  template === template.toUpperCase() ? word.toUpperCase() : word[0]!.toUpperCase() + word.slice(1).toLowerCase()

/** Conventional abbreviations of words common in company names (as invoices and registers print them). */
const abbreviations: Record<string, ReadonlyArray<string>> = {
  international: ["Intl", "Int'l", "Int."],
  company: ["Co", "Co."],
  corporation: ["Corp", "Corp."],
  technology: ["Tech", "Tech."],
  technologies: ["Techs", "Tech."],
  industries: ["Inds", "Ind."],
  industrial: ["Indl", "Ind."],
  manufacturing: ["Mfg", "Mfg."],
  engineering: ["Eng", "Engg"],
  electronics: ["Elec", "Electr."],
  electronic: ["Elec", "Electr."],
  research: ["Res."],
  institute: ["Inst", "Inst."],
  university: ["Univ", "Univ."],
  science: ["Sci", "Sci."],
  scientific: ["Sci", "Sci."],
  development: ["Dev", "Dev."],
  management: ["Mgmt", "Mgt."],
  services: ["Svcs", "Serv."],
  equipment: ["Equip", "Eqpt"],
  trading: ["Trdg"],
  import: ["Imp."],
  export: ["Exp."],
  federal: ["Fed."],
  national: ["Natl", "Nat'l"],
  association: ["Assn", "Assoc."],
  department: ["Dept", "Dept."],
  government: ["Govt", "Gov't"],
  aviation: ["Avn"],
  brothers: ["Bros", "Bros."],
  shipping: ["Shpg"],
  group: ["Grp"],
  holding: ["Hldg"],
  holdings: ["Hldgs"],
  investment: ["Invest.", "Inv."],
  communications: ["Comms", "Commun."],
  telecommunications: ["Telecom"],
  laboratory: ["Lab", "Lab."],
  laboratories: ["Labs"],
  academy: ["Acad."],
  systems: ["Sys", "Syst."],
  general: ["Gen."],
  chemical: ["Chem."],
  machinery: ["Mach."],
  materials: ["Mat."],
  petroleum: ["Petrol."],
  korea: ["Kor."],
  china: ["Chn"],
  russian: ["Rus."],
  iran: ["Ir."]
}

/** A word with its conventional abbreviation ("Federal" → "Fed.", "International" → "Intl"). */
export const abbreviatedToken = (random: Random, name: string): string | undefined => {
  const list = words(name)
  const options = list.flatMap((word, i) => (abbreviations[letters(word).toLowerCase()] ? [i] : []))
  if (options.length === 0 || list.length < 2) return undefined
  const i = random.pick(options)
  const short = random.pick(abbreviations[letters(list[i]!).toLowerCase()]!)
  return list.map((word, k) => (k === i ? styled(word, short) : word)).join(" ")
}

/**
 * A long word cut to its first letters, with or without a full stop ("Shenzhen" → "Shen",
 * "Electromechanical" → "Electromech."), where another informative word still identifies the name.
 */
export const truncatedToken = (random: Random, name: string): string | undefined => {
  const list = words(name)
  const options = list.flatMap((word, i) => (/^[A-Za-z]{7,}$/.test(word) ? [i] : []))
  const others = list.filter((word) => letters(word).length >= 4)
  if (options.length === 0 || others.length < 2) return undefined
  const i = random.pick(options)
  const word = list[i]!
  const keep = 4 + random.int(Math.min(3, word.length - 6))
  const short = word.slice(0, keep) + (random.chance(0.5) ? "." : "")
  return list.map((w, k) => (k === i ? short : w)).join(" ")
}

/** Titles of persons in the languages common on the lists: courtesy, religious, family, rank. */
const honorifics = [
  "Mr",
  "Mr.",
  "Mrs.",
  "Dr.",
  "Haji",
  "Hajji",
  "Al-Hajj",
  "Sayyid",
  "Sayed",
  "Sheikh",
  "Shaykh",
  "Mullah",
  "Mawlawi",
  "Maulana",
  "Ustadh",
  "Imam",
  "Hojatoleslam",
  "Ayatollah",
  "Herr",
  "Frau",
  "Senor",
  "Sr.",
  "Don",
  "Monsieur",
  "M.",
  "Gospodin",
  "General",
  "Gen.",
  "Col.",
  "Major",
  "Capt.",
  "Prof.",
  "Eng.",
  "Engineer",
  "Comrade",
  "Sir"
]
const suffixes = ["Jr.", "Sr.", "PhD", "Esq.", "Pasha", "Bey", "Effendi", "Sahib"]

/** A title before, a suffix after, or a title inside the given names of a person's name. */
export const honorificAnywhere = (random: Random, name: string): string => {
  const where = random.int(3)
  if (where === 0) return `${random.pick(honorifics)} ${name}`
  if (where === 1) return `${name} ${random.pick(suffixes)}`
  const comma = name.indexOf(",")
  if (comma > 0) return `${name.slice(0, comma)}, ${random.pick(honorifics)}${name.slice(comma + 1)}`
  return `${random.pick(honorifics)} ${random.pick(honorifics)} ${name}`
}
