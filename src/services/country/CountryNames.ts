import countries from "i18n-iso-countries"
import english from "i18n-iso-countries/langs/en.json" with { type: "json" }

countries.registerLocale(english)

/** Lower case, no diacritics, punctuation as spaces, "&" as "and", "St." as "Saint". */
export const normalizeName = (name: string): string =>
  name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/\bst\.\s*/g, "saint ")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()

/**
 * Spellings the EAR tables and users write that ISO 3166 English names do not cover: the row
 * labels of Supplement No. 1 to part 738 and 740 ("Korea, South", "China (PRC)", the chart's
 * "Seycheles") and common short forms ("UAE", "Burma", "DPRK").
 */
const extraAliases: Record<string, ReadonlyArray<string>> = {
  AE: ["UAE", "Emirates"],
  BN: ["Brunei"],
  BS: ["Bahamas, The", "The Bahamas"],
  CD: ["Congo (Democratic Republic of the)", "Congo (Democratic Republic of)", "DRC", "Congo-Kinshasa"],
  CG: ["Congo (Republic of the)", "Republic of Congo", "Congo-Brazzaville"],
  CN: ["China (PRC)", "PRC", "Mainland China"],
  CV: ["Cabo Verde"],
  FM: ["Micronesia (Federated State of)", "Micronesia (Federated States of)", "Micronesia"],
  GB: ["Britain", "U.K."],
  GM: ["Gambia, The"],
  KP: ["Korea, North", "DPRK", "Democratic People's Republic of Korea"],
  KR: ["Korea, South", "ROK"],
  LA: ["Laos"],
  MK: ["Macedonia"],
  MM: ["Burma"],
  MO: ["Macau"],
  SC: ["Seycheles"],
  SS: ["South Sudan, Republic of"],
  SX: ["Sint Maarten (the Dutch two-fifths of the island of Saint Martin)", "Sint Maarten"],
  SY: ["Syria"],
  SZ: ["Swaziland"],
  TL: ["East Timor"],
  US: ["USA", "U.S.", "United States of America"],
  VA: ["Vatican City", "Vatican", "Holy See"],
  VN: ["Viet Nam"]
}

const buildIndex = () => {
  const byName = new Map<string, string>()
  const ambiguous = new Set<string>()
  const add = (name: string, code: string) => {
    const key = normalizeName(name)
    const existing = byName.get(key)
    if (existing !== undefined && existing !== code) ambiguous.add(key)
    else byName.set(key, code)
  }
  for (const [code, names] of Object.entries(countries.getNames("en", { select: "all" }))) {
    for (const name of names) add(name, code)
  }
  for (const [code, names] of Object.entries(extraAliases)) names.forEach((name) => add(name, code))
  // "Congo" alone names two countries: it must not silently pick one.
  for (const key of ambiguous) byName.delete(key)
  return byName
}

const index = buildIndex()

/** Every name and alias of a country, normalized (for finding the country in a heading). */
export const normalizedNamesOf = (alpha2: string): ReadonlyArray<string> =>
  [...index].flatMap(([name, code]) => (code === alpha2 ? [name] : []))

export interface CountryCodes {
  readonly alpha2: string
  readonly alpha3: string
  readonly name: string
}

const codesOf = (alpha2: string): CountryCodes => ({
  alpha2,
  alpha3: countries.alpha2ToAlpha3(alpha2) ?? alpha2,
  name: countries.getName(alpha2, "en") ?? alpha2
})

/** The ISO 3166 country a name denotes (a table row label, an alias, or a common name). */
export const countryOfName = (name: string): CountryCodes | undefined => {
  const code = index.get(normalizeName(name))
  return code === undefined ? undefined : codesOf(code)
}

export type MatchedBy = "name" | "alpha2" | "alpha3"

/** Resolves user input: names and aliases first (so "UK" is the United Kingdom), then ISO codes. */
export const resolveCountry = (input: string): { readonly codes: CountryCodes; readonly by: MatchedBy } | undefined => {
  const named = countryOfName(input)
  if (named !== undefined) return { codes: named, by: "name" }
  const trimmed = input.trim().toUpperCase()
  if (/^[A-Z]{2}$/.test(trimmed) && countries.isValid(trimmed)) return { codes: codesOf(trimmed), by: "alpha2" }
  if (/^[A-Z]{3}$/.test(trimmed)) {
    const alpha2 = countries.alpha3ToAlpha2(trimmed)
    if (alpha2 !== undefined) return { codes: codesOf(alpha2), by: "alpha3" }
  }
  return undefined
}
