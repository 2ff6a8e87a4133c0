import { statutesIn } from "./Extract.ts"

/**
 * Facts read out of an enforcement document's text: the respondents it names, the dates it
 * states, the authorities it cites, the penalty amounts it states and the ECCNs it mentions. Like
 * the rest of the extraction, each is taken only where the text states it in a recognizable form;
 * nothing is inferred. They feed the party check (every respondent is a searchable name) and the
 * feed's statute filter.
 */
export interface ExtractedFields {
  readonly parties: ReadonlyArray<string>
  readonly dates: ReadonlyArray<string>
  readonly statutes: ReadonlyArray<string>
  readonly penalties: ReadonlyArray<string>
  readonly eccns: ReadonlyArray<string>
}

export const noFields: ExtractedFields = { parties: [], dates: [], statutes: [], penalties: [], eccns: [] }

/** Fields kept per document: enough for the checks, bounded whatever the text holds. */
const maxEach = 20

const months = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december"
]

const writtenDate =
  /\b(January|February|March|April|May|June|July|August|September|October|November|December)\s+(\d{1,2}),\s+((?:19|20)\d{2})\b/g
const isoDate = /\b((?:19|20)\d{2})-(\d{2})-(\d{2})\b/g

const pad = (n: number) => String(n).padStart(2, "0")

const validDate = (year: number, month: number, day: number) => {
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** Calendar dates the text writes out (`March 4, 2024`, `2024-03-04`), as YYYY-MM-DD, in order. */
export const datesIn = (text: string): Array<string> => {
  const found: Array<{ readonly at: number; readonly date: string }> = []
  for (const match of text.matchAll(writtenDate)) {
    const month = months.indexOf(match[1]!.toLowerCase()) + 1
    const [day, year] = [Number(match[2]), Number(match[3])]
    if (validDate(year, month, day)) found.push({ at: match.index, date: `${year}-${pad(month)}-${pad(day)}` })
  }
  for (const match of text.matchAll(isoDate)) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
    if (validDate(year, month, day)) found.push({ at: match.index, date: match[0] })
  }
  return unique(found.sort((a, b) => a.at - b.at).map((f) => f.date))
}

/** Dollar amounts stated as a penalty, fine or payment (`civil penalty of $1,234,567`). */
const penaltyPhrase =
  /\b(?:civil\s+(?:monetary\s+)?penalt(?:y|ies)|criminal\s+fine|fine|penalt(?:y|ies)|forfeit(?:ure)?|agreed\s+to\s+pay|shall\s+pay|ordered\s+to\s+pay)\b[^$.;]{0,80}?(\$\s?\d{1,3}(?:,\d{3})+(?:\.\d{2})?|\$\s?\d+(?:\.\d+)?\s+(?:million|billion))/gi

export const penaltiesIn = (text: string): Array<string> =>
  unique([...text.matchAll(penaltyPhrase)].map((match) => match[1]!.replace(/\s+/g, " ").replace("$ ", "$")))

/** ECCNs (`3A001`, `5A002.a.1`, `EAR99`): a digit, a category letter A–E and three digits. */
const eccnPattern = /\b([0-9][A-E][0-9]{3}(?:\.[a-z0-9]{1,3}){0,4}|EAR99)\b/g

export const eccnsIn = (text: string): Array<string> =>
  unique([...text.matchAll(eccnPattern)].map((match) => match[1]!.replace(/\.$/, "")))

/**
 * Respondents named in the opening of a charging letter, order or agreement: `In the Matter of:
 * <name>` and `Respondent(s): <name>` lines; each a.k.a. part is kept with the name.
 */
const respondentLine = /(?:^|\n)\s*(?:in\s+the\s+matter\s+of:?|respondents?:)\s*\n?\s*([^\n]{2,200})/gi

export const partiesIn = (text: string): Array<string> =>
  unique(
    [...text.slice(0, 20_000).matchAll(respondentLine)]
      .map((match) => match[1]!.replace(/[,;]\s*$/, "").trim())
      .filter((name) => /\p{L}{2}/u.test(name) && !/^(?:the\s+)?(?:respondent|bureau|department)\b/i.test(name))
  )

const unique = (values: ReadonlyArray<string>) => [...new Set(values)].slice(0, maxEach)

/** Every field from a document's metadata and text; the named party comes first among the parties. */
export const extractFields = (party: string | null, title: string, text: string): ExtractedFields => {
  const all = `${title}\n${text}`
  return {
    parties: unique([...(party === null ? [] : [party]), ...partiesIn(text)]),
    dates: datesIn(all),
    statutes: unique(statutesIn(all)),
    penalties: penaltiesIn(all),
    eccns: eccnsIn(all)
  }
}
