import { formLists, type Item, type ParagraphRef, type RefList } from "./RefLists.ts"
import { type Element, group, isPunct, isWord, tokenize } from "./ScopeTokens.ts"

export type { ParagraphRef } from "./RefLists.ts"

/**
 * One part of a statement: what it names (the entire entry, or paragraphs of the entry), and the
 * words as written, quoted whenever the answer depends on them.
 */
export interface ScopePart {
  readonly quote: string
  readonly entry: boolean
  readonly targets: ReadonlyArray<ParagraphRef>
  /** Paragraphs of the entry named only inside a description or condition ("for cameras controlled by 6A003.a.3"). */
  readonly mentions: ReadonlyArray<string>
  /** Nothing but the entry or paragraphs (and words such as "items controlled by", "only"): no condition. */
  readonly exact: boolean
}

/** Words that start a condition or a qualifying clause: what follows narrows the items named before it. */
const conditionWords = new Set([
  "that",
  "which",
  "when",
  "if",
  "unless",
  "having",
  "with",
  "whose",
  "where",
  "for",
  "being",
  "meet",
  "meets",
  "meeting",
  "exceed",
  "exceeds",
  "usable",
  "capable"
])

/** Words that name items without narrowing them ("items controlled by", "all items in", "only"). */
const neutralWords = new Set([
  "to",
  "items",
  "item",
  "commodities",
  "commodity",
  "equipment",
  "software",
  "technology",
  "controlled",
  "by",
  "in",
  "under",
  "specified",
  "described",
  "listed",
  "paragraph",
  "paragraphs",
  "all",
  "those",
  "the",
  "only",
  "also"
])
const neutralQuotes = new Set(["“software”", "“technology”"])

const isCondition = (item: Item | undefined) =>
  item?.kind === "word" && conditionWords.has(item.text.toLowerCase().replace(/[:,]$/, ""))

const isOwnList = (item: Item | undefined) => item?.kind === "list" && item.own

/**
 * `;`, "and to", "or to", "as well as" (a comma before them included): a new part always starts
 * after these. The length of the separator, its "to" left to the part it opens.
 */
const strongLength = (items: ReadonlyArray<Item>, i: number): number => {
  const comma = isPunct(items[i], ",") ? 1 : 0
  const at = i + comma
  if (comma === 0 && isPunct(items[at], ";")) return 1
  if (isWord(items[at], "and", "or") && isWord(items[at + 1], "to")) return comma + 1
  if (isWord(items[at], "as") && isWord(items[at + 1], "well") && isWord(items[at + 2], "as")) return comma + 3
  return 0
}

/** `,`, "and", "or", ", and": a new part starts only where the text goes on to name other paragraphs. */
const weakLength = (items: ReadonlyArray<Item>, i: number): number => {
  if (isPunct(items[i], ",")) return isWord(items[i + 1], "and", "or") ? 2 : 1
  return isWord(items[i], "and", "or") ? 1 : 0
}

/**
 * After "and" (or a comma) a new part begins when the words lead, with no condition on the way,
 * to paragraphs of the entry ("… 3A001.b.2 and discrete microwave transistors in 3A001.b.3";
 * "shotguns with … and paragraphs .c, .d, and .e"). Before the first paragraph, "X and Y in REF"
 * is one description of the same paragraph.
 */
const startsNewPart = (current: ReadonlyArray<Item>, items: ReadonlyArray<Item>, from: number): boolean => {
  let i = from
  for (; i < items.length; i++) {
    const item = items[i]!
    if (isOwnList(item)) break
    if (item.kind === "list" || isCondition(item) || strongLength(items, i) > 0) return false
  }
  if (i === items.length) return false
  const direct = isOwnList(items[from]) || isWord(items[from], "paragraph", "paragraphs")
  return direct || current.some((item) => isOwnList(item) || isCondition(item))
}

interface Segment {
  readonly items: ReadonlyArray<Item>
  /** Split from the segment before it at "and" or a comma: a condition at its end may cover both. */
  readonly weak: boolean
}

const segmentsOf = (items: ReadonlyArray<Item>): Array<Segment> => {
  const segments: Array<Segment> = []
  let current: Array<Item> = []
  let weak = false
  const close = (nextWeak: boolean) => {
    // a part does not start with the "and"/"or" (or the "to" of "and to") that joined it
    while (isWord(current[0], "and", "or") || isPunct(current[0], ",")) current.shift()
    if (segments.length > 0 && isWord(current[0], "to")) current.shift()
    if (current.length > 0) segments.push({ items: current, weak })
    current = []
    weak = nextWeak
  }
  for (let i = 0; i < items.length;) {
    const strong = strongLength(items, i)
    if (strong > 0) {
      close(false)
      i += strong
      continue
    }
    const comma = weakLength(items, i)
    if (comma > 0 && current.length > 0 && startsNewPart(current, items, i + comma)) {
      close(true)
      i += comma
      continue
    }
    current.push(items[i]!)
    i++
  }
  close(false)
  return segments
}

const flatten = (items: ReadonlyArray<Item>): Array<Item> =>
  items.flatMap((item) => (item.kind === "group" ? [item, ...flatten(item.children)] : [item]))

/** Paragraphs of the entry a part names anywhere but as its target, and stray list letters (`, b (carbon …`). */
const mentionsIn = (items: ReadonlyArray<Item>, target: RefList | undefined): Array<string> => {
  const all = flatten(items)
  const mentions: Array<string> = []
  all.forEach((item, i) => {
    if (item.kind === "list" && item.own && item !== target) {
      for (const ref of item.refs) mentions.push(ref.paragraph, ...(ref.through === undefined ? [] : [ref.through]))
    }
    if (item.kind === "letter" && item.letter !== "a" && isPunct(all[i - 1], ",")) mentions.push(item.letter)
  })
  return mentions
}

/** A group that only comments ("(See § 742.6 …)", "(But see …)", "(refer to 4A994 …)"). */
const isRemark = (item: Item) => item.kind === "group" && isWord(item.children[0], "see", "but", "refer")

const isPhrase = (items: ReadonlyArray<Item>, at: number, words: ReadonlyArray<string>) =>
  at >= 0 && words.every((word, k) => isWord(items[at + k], word))

/** "regardless of end user" restates that the control has no end-user condition. */
const regardless = ["regardless", "of", "end", "user"]
const inRegardless = (items: ReadonlyArray<Item>, i: number) =>
  regardless.some((_, back) => isPhrase(items, i - back, regardless))

const isNeutral = (item: Item, i: number, items: ReadonlyArray<Item>) => {
  switch (item.kind) {
    case "punct":
      return item.text !== ";"
    case "word":
      return neutralWords.has(item.text.toLowerCase()) || inRegardless(items, i) ||
        (isWord(item, "of") && items[i + 1]?.kind === "entry")
    case "entry":
      // "paragraphs .a … of this entry", "controlled by this entry"
      return isWord(items[i - 1], "of", "by", "in")
    default:
      return false
  }
}

interface Draft {
  readonly start: number
  readonly end: number
  readonly entry: boolean
  readonly targets: ReadonlyArray<ParagraphRef>
  readonly mentions: ReadonlyArray<string>
  readonly exactLead: boolean
  readonly exactTrail: boolean
}

const draftOf = (items: ReadonlyArray<Item>, text: string): Draft => {
  // the target: the first paragraph list (or "entire entry"/"this entry") no condition word precedes
  let targetAt = -1
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!
    if (isCondition(item)) break
    if (isOwnList(item) || (item.kind === "entry" && !isNeutral(item, i, items))) {
      targetAt = i
      break
    }
  }
  const target = items[targetAt]
  const list = target?.kind === "list" ? target : undefined
  const quoteText = (item: Item) => (item.kind === "quote" ? text.slice(item.start, item.end) : "")
  const neutral = (item: Item, i: number) => isNeutral(item, i, items) || neutralQuotes.has(quoteText(item))
  const lead = items.slice(0, Math.max(targetAt, 0))
  const trail = targetAt < 0 ? [] : items.slice(targetAt + 1)
  return {
    start: items[0]!.start,
    end: items[items.length - 1]!.end,
    entry: target?.kind === "entry",
    targets: list?.refs ?? [],
    mentions: mentionsIn(items, list),
    exactLead: targetAt >= 0 && lead.every((item, i) => neutral(item, i)),
    exactTrail: trail.every((item, i) => neutral(item, targetAt + 1 + i))
  }
}

/**
 * A lone letter opening a part split from a paragraph list at a comma continues that list when an
 * item of the list carries its own description: "1C010.a (aramid …), b (carbon …), and e.1 for …".
 */
const continuingList = (segment: Segment, previous: Draft | undefined): ReadonlyArray<Item> => {
  const [first, ...rest] = segment.items
  if (!segment.weak || previous === undefined || previous.targets.length === 0 || first?.kind !== "letter") {
    return segment.items
  }
  const ref = { paragraph: first.letter, except: [], exceptExact: true }
  return [{ kind: "list", own: true, refs: [ref], start: first.start, end: first.end }, ...rest]
}

const isDescription = (draft: Draft) => !draft.entry && draft.targets.length === 0

/** The words as written, without the "and"/"or" that joined them or a closing comma or period. */
const quoteOf = (text: string, start: number, end: number) =>
  text.slice(start, end).replace(/^(?:and|or)\s+/i, "").replace(/[\s,;:.]+$/, "")

const partsOf = (items: ReadonlyArray<Item>, text: string): Array<ScopePart> => {
  const segments: Array<Segment & { readonly draft: Draft }> = []
  for (const segment of segmentsOf(items.filter((item) => !isRemark(item)))) {
    const previous = segments[segments.length - 1]
    const draft = draftOf(continuingList(segment, previous?.draft), text)
    // neighbouring descriptions with no paragraph of their own ("…: an inner ring …; an outer
    // ring …; and a width …") are one description
    if (previous !== undefined && isDescription(previous.draft) && isDescription(draft)) {
      segments[segments.length - 1] = {
        ...previous,
        draft: { ...previous.draft, end: draft.end, mentions: [...previous.draft.mentions, ...draft.mentions] }
      }
    } else segments.push({ ...segment, draft })
  }
  const drafts = segments.map((segment) => segment.draft)
  const parts: Array<ScopePart> = []
  // a run of parts joined by "and"/commas is quoted whole, and a condition at its end covers it all
  for (let first = 0; first < drafts.length;) {
    let last = first
    while (segments[last + 1]?.weak === true) last++
    const run = drafts.slice(first, last + 1)
    const quote = quoteOf(text, run[0]!.start, run[run.length - 1]!.end)
    run.forEach((draft, k) => {
      const laterCondition = run.slice(k + 1).some((later) => !later.exactTrail)
      const exact = draft.exactLead && draft.exactTrail && !laterCondition
      parts.push({
        quote: exact || run.length === 1 ? quoteOf(text, draft.start, draft.end) : quote,
        entry: draft.entry,
        targets: draft.targets,
        mentions: draft.mentions,
        exact
      })
    })
    first = last + 1
  }
  return parts
}

/** The first "except", "other than" or "excluding" outside parentheses. */
const exceptAt = (items: ReadonlyArray<Element>): number =>
  items.findIndex((item, i) =>
    isWord(item, "except", "excluding") || (isWord(item, "other") && isWord(items[i + 1], "than"))
  )

/**
 * Reads what one statement applies to: its parts, and the parts its "except …" takes out.
 * A string is the reason the text could not be read.
 */
export const conjunctsOf = (
  text: string,
  eccn: string
): { readonly include: Array<ScopePart>; readonly exclude: Array<ScopePart> } | string => {
  const elements = group(tokenize(text))
  let from = 0
  while (isPunct(elements[from], ":") || isWord(elements[from], "to")) from++
  const body = elements.slice(from)
  const at = exceptAt(body)
  const includeElements = at < 0 ? body : body.slice(0, at)
  let exceptFrom = at + (isWord(body[at], "other") ? 2 : 1)
  while (isPunct(body[exceptFrom], ":") || isPunct(body[exceptFrom], ",")) exceptFrom++
  const excludeElements = at < 0 ? [] : body.slice(exceptFrom)
  if (includeElements.length === 0) return "nothing named before \"except\""
  if (at >= 0 && excludeElements.length === 0) return "\"except\" names nothing"
  const context = { eccn }
  const include = partsOf(formLists(includeElements, eccn, context), text)
  const exclude = partsOf(formLists(excludeElements, eccn, context), text)
  return { include, exclude }
}
