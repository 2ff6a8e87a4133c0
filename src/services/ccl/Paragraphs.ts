import type { ItemBlock } from "../../domain/Eccn.ts"

/**
 * Paragraph designations inside a CCL entry alternate letters and numbers: `a`, `a.1`, `a.1.a`,
 * `a.1.a.1` … A paragraph's text starts with its designation and a period (`b.2. Digital …`).
 */
const designation = /^([a-z](?:\.\d+(?:\.[a-z](?:\.\d+(?:\.[a-z](?:\.\d+)?)?)?)?)?)\.(?:\s|$)/

export const paragraphOf = (text: string): string | undefined => designation.exec(text)?.[1]

const segmentOrder = (segment: string) => (/^\d+$/.test(segment) ? Number(segment) : segment.charCodeAt(0))

/** Document order of two designations: `a` < `a.1` < `a.2` < `a.10` < `b`. */
export const compareParagraphs = (left: string, right: string): number => {
  const l = left.split(".")
  const r = right.split(".")
  for (let i = 0; i < Math.min(l.length, r.length); i++) {
    const difference = segmentOrder(l[i]!) - segmentOrder(r[i]!)
    if (difference !== 0) return difference
  }
  return l.length - r.length
}

/** The next sibling designation: `a` → `b`, `a.1` → `a.2`. */
export const nextDesignation = (paragraph: string): string => {
  const segments = paragraph.split(".")
  const last = segments.pop()!
  const next = /^\d+$/.test(last) ? String(Number(last) + 1) : String.fromCharCode(last.charCodeAt(0) + 1)
  return [...segments, next].join(".")
}

const isWithin = (paragraph: string, ancestor: string) => paragraph === ancestor || paragraph.startsWith(`${ancestor}.`)

/**
 * The blocks of one paragraph: its own text, its subparagraphs, and the notes that follow them,
 * up to the next paragraph outside it (or a subheading). Undefined when the entry has no such paragraph.
 */
export const sliceParagraph = (
  items: ReadonlyArray<ItemBlock>,
  paragraph: string
): ReadonlyArray<ItemBlock> | undefined => {
  const start = items.findIndex((block) => block.kind === "paragraph" && block.paragraph === paragraph)
  if (start < 0) return undefined
  let end = start + 1
  while (end < items.length) {
    const block = items[end]!
    if (block.kind === "heading") break
    if (block.kind === "paragraph" && !isWithin(block.paragraph!, paragraph)) break
    end++
  }
  return items.slice(start, end)
}

/** The entry's designations closest to a missing one: siblings under the longest shared parent. */
export const nearestParagraphs = (items: ReadonlyArray<ItemBlock>, wanted: string, limit = 5): Array<string> => {
  const existing = items.flatMap((block) => (block.kind === "paragraph" ? [block.paragraph!] : []))
  const segments = wanted.split(".")
  for (let depth = segments.length - 1; depth >= 0; depth--) {
    const parent = segments.slice(0, depth).join(".")
    const siblings = existing.filter((p) =>
      p.split(".").length === depth + 1 && (depth === 0 || p.startsWith(`${parent}.`))
    )
    if (siblings.length > 0) {
      return siblings
        .map((p) => ({ p, distance: Math.abs(segmentOrder(p.split(".")[depth]!) - segmentOrder(segments[depth]!)) }))
        .sort((a, b) => a.distance - b.distance || compareParagraphs(a.p, b.p))
        .slice(0, limit)
        .map(({ p }) => p)
        .sort(compareParagraphs)
    }
  }
  return []
}
