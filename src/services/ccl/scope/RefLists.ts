import { type Element, type Group, isPunct, isWord } from "./ScopeTokens.ts"

/**
 * Paragraph references of a control row, gathered into lists: `6A003.b.3, 6A003.b.4.a`,
 * `.e, .x, and .y`, `3B001.a.1 to a.3, b, g to j`, `5A001.b (except .b.5)`.
 */

/** A paragraph (`b.4.b`), or a range (`a.1` to `a.3`), with the subparagraphs a "(except …)" takes out. */
export interface ParagraphRef {
  readonly paragraph: string
  readonly through?: string
  readonly except: ReadonlyArray<string>
  /** False when the exception itself carries a condition ("except a.3.e for lead selenide … FPAs"). */
  readonly exceptExact: boolean
}

/** A run of references to one ECCN: `6A003.b.3, 6A003.b.4.a`, `.e, .x, and .y`, `a.1 to a.3, b, g to j`. */
export interface RefList {
  readonly kind: "list"
  readonly own: boolean
  readonly refs: ReadonlyArray<ParagraphRef>
  readonly start: number
  readonly end: number
}

export type Item = Exclude<Element, Group> | RefList | {
  readonly kind: "group"
  readonly children: ReadonlyArray<Item>
  readonly start: number
  readonly end: number
}

const refStart = (item: Element | undefined) =>
  item?.kind === "eccn" || item?.kind === "shorthand" || item?.kind === "sibling"

const siblingOf = (paragraph: string, number: string) => {
  const segments = paragraph.split(".")
  return /^\d+$/.test(segments[segments.length - 1]!) ? [...segments.slice(0, -1), number].join(".") : undefined
}

/**
 * Groups references into lists. A list keeps to one ECCN; a shorthand (`.x`, `a.3`) belongs to the
 * ECCN last named (the entry itself at first, and again after "paragraph(s)").
 */
export const formLists = (elements: ReadonlyArray<Element>, own: string, context: { eccn: string }): Array<Item> => {
  const out: Array<Item> = []
  let i = 0
  while (i < elements.length) {
    const element = elements[i]!
    if (element.kind === "group") {
      out.push({ ...element, children: formLists(element.children, own, context) })
      i++
      continue
    }
    const afterParagraphWord = isWord(elements[i - 1], "paragraph", "paragraphs")
    if (!refStart(element) && !(element.kind === "letter" && afterParagraphWord)) {
      out.push(element)
      i++
      continue
    }
    if (afterParagraphWord) context.eccn = own
    const refs: Array<{ paragraph: string | null; through?: string; except: Array<string>; exceptExact: boolean }> = []
    let eccn: string | undefined
    const start = element.start
    let end = element.end
    const resolve = (item: Element | undefined, inList: boolean) => {
      if (item?.kind === "eccn") return { eccn: item.eccn, paragraph: item.paragraph }
      const base = eccn ?? context.eccn
      if (item?.kind === "shorthand") return { eccn: base, paragraph: item.paragraph }
      if (item?.kind === "letter" && (inList || afterParagraphWord)) return { eccn: base, paragraph: item.letter }
      if (item?.kind === "sibling") {
        const previous = refs[refs.length - 1]?.paragraph
        const paragraph = previous == null ? undefined : siblingOf(previous, item.number)
        return paragraph === undefined ? undefined : { eccn: base, paragraph }
      }
      return undefined
    }
    for (;;) {
      const ref = resolve(elements[i], refs.length > 0)
      if (ref === undefined || (eccn !== undefined && ref.eccn !== eccn)) break
      eccn = ref.eccn
      context.eccn = ref.eccn
      end = elements[i]!.end
      const entry: (typeof refs)[number] = { paragraph: ref.paragraph, except: [], exceptExact: true }
      i++
      const local = elements[i]
      if (local?.kind === "group" && isWord(local.children[0], "except")) {
        const inner = formLists(local.children.slice(1), own, { eccn })
        for (const item of inner) {
          if (item.kind === "list") entry.except.push(...item.refs.map((r) => r.paragraph))
          else if (!isPunct(item, ",") && !isWord(item, "and", "or")) entry.exceptExact = false
        }
        end = local.end
        i++
      }
      if (isWord(elements[i], "to", "through")) {
        const to = resolve(elements[i + 1], true)
        if (to !== undefined && to.eccn === eccn && to.paragraph !== null && ref.paragraph !== null) {
          entry.through = to.paragraph
          end = elements[i + 1]!.end
          i += 2
        }
      }
      refs.push(entry)
      if (isWord(elements[i], "only")) end = elements[i++]!.end
      let next = i
      if (isPunct(elements[next], ",")) next++
      if (isWord(elements[next], "and", "or")) next++
      const following = resolve(elements[next], true)
      if (next === i || following === undefined || following.eccn !== eccn) break
      i = next
    }
    if (eccn === undefined) {
      out.push(element)
      i++
      continue
    }
    const paragraphs = refs.flatMap((r) => (r.paragraph === null ? [] : [{ ...r, paragraph: r.paragraph }]))
    out.push({
      kind: "list",
      // the entry named without a paragraph ("… controlled for EI reasons in ECCN 5A002, 5A004 or
      // 5D002") is part of a description, never a paragraph the row is limited to
      own: eccn === own && paragraphs.length > 0,
      refs: paragraphs,
      start,
      end
    })
  }
  return out
}
