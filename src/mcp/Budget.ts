/**
 * Result budgets: what one tool result may cost an agent. Every tool that can answer more than
 * this pages or slices, and says how to read the rest, so no single call floods a context window.
 */

/** Default characters of one result (issue 20: at most 20,000 unless the caller asks for more). */
export const DefaultResultChars = 20_000

/** The most one call may ask for with `max_chars`. */
export const MaxResultChars = 50_000

export interface TextPage {
  readonly text: string
  /** Character offset of the page in the whole text. */
  readonly offset: number
  /** Offset just after the page: where the next page starts. */
  readonly end: number
  readonly total: number
}

/**
 * A window of a text from `offset`, at most `maxChars` long, ending at a line break when one is
 * in the second half of the window (a paragraph is not cut in the middle unless it must be).
 */
export const pageOf = (text: string, offset: number, maxChars: number): TextPage => {
  const start = Math.min(Math.max(0, offset), text.length)
  let end = Math.min(text.length, start + maxChars)
  if (end < text.length) {
    const lineBreak = text.lastIndexOf("\n", end)
    if (lineBreak > start + maxChars / 2) end = lineBreak + 1
  }
  return { text: text.slice(start, end), offset: start, end, total: text.length }
}

/** The line that tells an agent a result is partial and how to read on (empty when it is whole). */
export const continuation = (page: TextPage, nextCall: (offset: number) => string): string =>
  page.offset === 0 && page.end === page.total
    ? ""
    : `[Characters ${page.offset}-${page.end} of ${page.total}.${
      page.end < page.total ? ` Rest: ${nextCall(page.end)}` : " End of text."
    }]`

// domain values are immutable and services hand the same answer out again (memoized lookups):
// its length is measured once, not serialized again on every call only to be counted
const measured = new WeakMap<object, number>()

/** Characters of a value as a structured result's text carries it. */
export const jsonChars = (value: unknown): number => {
  if (typeof value !== "object" || value === null) return JSON.stringify(value)?.length ?? 0
  const known = measured.get(value)
  if (known !== undefined) return known
  const chars = JSON.stringify(value)?.length ?? 0
  measured.set(value, chars)
  return chars
}

/**
 * How many of `items`, from the first, fit in `room` characters of JSON (an array's commas
 * counted); at least one, so that paging always moves on.
 */
export const fittingCount = (items: ReadonlyArray<unknown>, room: number): number => {
  let used = 2
  for (let index = 0; index < items.length; index++) {
    used += jsonChars(items[index]) + 1
    if (used > room) return Math.max(1, index)
  }
  return items.length
}

/** A tool call as an agent writes it: the name and its JSON arguments. */
export const callOf = (tool: string, args: Readonly<Record<string, unknown>>): string =>
  `${tool} ${JSON.stringify(args)}`

/**
 * A search answer within the result budget: its hit list (`key`) cut to what fits, the count
 * adjusted, and `rest` saying how many hits were left out and how to see them (the searches
 * here have no offset upstream, so the way on is a smaller `limit` or a narrower query).
 */
export const fitHits = <A extends object>(
  answer: A,
  key: keyof A & string,
  howOn: string
): A & { readonly rest?: string } => {
  const hits: unknown = answer[key]
  if (!Array.isArray(hits) || jsonChars(answer) <= DefaultResultChars) return answer
  const frame = jsonChars({ ...answer, [key]: [] })
  const shown = hits.slice(0, fittingCount(hits, DefaultResultChars - frame - 400))
  return {
    ...answer,
    [key]: shown,
    ...("count" in answer ? { count: shown.length } : {}),
    rest: `Hits 1-${shown.length} of the ${hits.length} found are shown (result budget of ${DefaultResultChars} ` +
      `characters). ${howOn}`
  }
}
