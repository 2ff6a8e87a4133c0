import type { ActionType } from "../../domain/Enforcement.ts"

/**
 * Reading enforcement metadata out of published titles and texts. Everything here is deliberately
 * conservative: a value is returned only when the text states it in a recognizable form; anything
 * else is null (or left out), never a guess.
 */

const acts: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bExport Control Reform Act\b|\bECRA\b/, "Export Control Reform Act (ECRA)"],
  [/\bInternational Emergency Economic Powers Act\b|\bIEEPA\b/, "International Emergency Economic Powers Act (IEEPA)"],
  [/\bArms Export Control Act\b|\bAECA\b/, "Arms Export Control Act (AECA)"],
  [/\bExport Administration Act\b/, "Export Administration Act (EAA)"],
  [/\bExport Administration Regulations\b/, "Export Administration Regulations (EAR)"],
  [/\bInternational Traffic in Arms Regulations\b|\bITAR\b/, "International Traffic in Arms Regulations (ITAR)"],
  [/\bTrading with the Enemy Act\b/, "Trading with the Enemy Act (TWEA)"]
]

const uscCitation =
  /\b(\d{1,2})\s+U\.\s?S\.\s?C\.?\s+(?:§{1,2}\s*|[Ss]ections?\s+)?(\d{1,5}[a-z]?(?:\s*[-–]\s*\d{1,5}[a-z]?)?)/g
const cfrCitation =
  /\b(15|22|31)\s+C\.?\s?F\.?\s?R\.?\s+(?:§{1,2}\s*|[Pp]arts?\s+|[Ss]ections?\s+)?(\d{1,3}(?:\.\d{1,4}[a-z]?)?(?:\s*[-–]\s*\d{1,3}(?:\.\d{1,4}[a-z]?)?)?)/g

const dash = (value: string) => value.replace(/\s*[-–]\s*/g, "-")

/** Authorities a text cites, in order of first appearance, as canonical labels. */
export const statutesIn = (text: string): Array<string> => {
  const found: Array<{ readonly at: number; readonly label: string }> = []
  for (const [pattern, label] of acts) {
    const at = text.search(pattern)
    if (at >= 0) found.push({ at, label })
  }
  for (const match of text.matchAll(uscCitation)) {
    found.push({ at: match.index, label: `${match[1]} U.S.C. ${dash(match[2]!)}` })
  }
  for (const match of text.matchAll(cfrCitation)) {
    found.push({ at: match.index, label: `${match[1]} CFR ${dash(match[2]!)}` })
  }
  return [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.label))]
}

/** BIS Federal Register notices: the kind of order, from its title; null when it is not an enforcement notice. */
export const bisActionType = (title: string): ActionType | null => {
  if (/temporar(?:y|ily)\s+den(?:ial|ying)/i.test(title)) return "temporary_denial"
  if (/den(?:ying|ial\s+of)\s+(?:the\s+)?export\s+privileges/i.test(title)) return "denial_order"
  if (/settlement/i.test(title)) return "settlement"
  if (/charging\s+letter/i.test(title)) return "charging_letter"
  if (/consent\s+agreement/i.test(title)) return "consent_agreement"
  if (/order\s+relating\s+to|decision\s+and\s+order|final\s+order/i.test(title)) return "administrative_order"
  return null
}

/** State Department (DDTC) Federal Register notices. */
export const ddtcActionType = (title: string): ActionType | null => {
  if (/debarment/i.test(title) && /rescission|rescind|reinstat|terminat/i.test(title)) return "debarment_rescission"
  if (/statutory\s+debarment/i.test(title)) return "statutory_debarment"
  if (/administrative\s+debarment/i.test(title)) return "administrative_debarment"
  if (/debarment/i.test(title)) return "debarment"
  if (/civil\s+penalt/i.test(title)) return "civil_penalty"
  if (/consent\s+agreement/i.test(title)) return "consent_agreement"
  return null
}

/** Whether a DOJ release concerns export controls or sanctions at all (not, say, a tax case of an "exporter"). */
export const isExportControlMatter = (text: string): boolean =>
  /export\s+control|export\s+administration|arms\s+export|\bITAR\b|\bIEEPA\b|International\s+Emergency\s+Economic\s+Powers|(?:illegal|unlawful)(?:ly)?\s+export|export\s+violation|sanctions\s+evasion|evad\w*\s+(?:U\.S\.\s+)?sanctions|\b18\s+U\.S\.C\.\s+(?:§\s*)?554\b/i
    .test(text)

/** DOJ releases: criminal stages and civil settlements, from the headline. */
export const dojActionType = (title: string): ActionType | null => {
  if (
    /\b(?:sentenced|pleads?\s+guilty|pleaded\s+guilty|convicted|found\s+guilty|charged|indicted|indictment|arrested|extradited|criminal\s+complaint)\b/i
      .test(title)
  ) return "criminal"
  if (/\b(?:settles?|settlement|agrees?\s+to\s+pay|civil\s+penalt\w*)\b/i.test(title)) return "settlement"
  return null
}

const actionPhrase =
  /^(?:order|final\s+order|decision\s+and\s+order|settlement|temporary\s+denial|charging\s+letter|consent\s+agreement|notice\s+of|statutory\s+debarment|administrative\s+debarment|denial\s+of\s+export|renewal\s+of)/i

/** Words that show a candidate is not a party name but part of the notice's wording. */
const notAName = /\b(?:order|export\s+privileges|regulations|bureau|department|notice|matter\s+of)\b/i

const plausibleParty = (candidate: string): string | null => {
  const party = candidate.trim().replace(/[.,;:]+$/, "").trim()
  if (party.length < 2 || party.length > 300 || !/\p{L}/u.test(party) || notAName.test(party)) return null
  return party
}

/**
 * The party of a Federal Register enforcement notice, when its title has the form
 * `[In the Matter of:] <party>; <order wording>` or `… Order Relating to <party>`.
 */
export const partyFromTitle = (title: string): string | null => {
  const text = title.replace(/\s+/g, " ").trim()
  const relating = /\border relating to\s+(.+)$/i.exec(text)
  if (relating) return plausibleParty(relating[1]!)
  const parts = text.split(";")
  if (parts.length < 2) return null
  const head = parts[0]!.replace(/^in the matter of:?\s*/i, "")
  const rest = parts.slice(1).join(";").trim()
  return actionPhrase.test(rest) ? plausibleParty(head) : null
}

/** Folds case, accents and punctuation, so `Société-Générale` and `societe generale` compare equal. */
export const normalizeWords = (text: string): string =>
  text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim()

/** Whole-word containment after normalization: `acme` is in `Acme Corp.` but not in `Acmeon`. */
export const containsWords = (haystack: string, needle: string): boolean => {
  const words = normalizeWords(needle)
  return words.length > 0 && ` ${normalizeWords(haystack)} `.includes(` ${words} `)
}
