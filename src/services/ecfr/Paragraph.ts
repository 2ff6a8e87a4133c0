/**
 * One paragraph of a section's readable text, by its CFR path: `(b)(2)(i)` in 740.1, or
 * `Category XII (a)` in 121.1, where every category restarts at (a). The text is the plain
 * rendering (one paragraph per line), so this reads what an agent would read, only less of it.
 */

type Kind = "lower" | "digit" | "roman" | "upper"

export interface ParagraphPath {
  /** A heading line the paragraph sits under, e.g. `Category XII`. */
  readonly heading?: string | undefined
  readonly markers: ReadonlyArray<string>
}

export type ParagraphSlice =
  | { readonly _tag: "Found"; readonly text: string; readonly heading?: string | undefined }
  | { readonly _tag: "Missing"; readonly reason: string; readonly available: ReadonlyArray<string> }

const romanValues: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 }

const romanValue = (text: string): number => {
  let total = 0
  for (let i = 0; i < text.length; i++) {
    const value = romanValues[text[i]!] ?? 0
    const next = romanValues[text[i + 1] ?? ""] ?? 0
    total += value < next ? -value : value
  }
  return total
}

const isRoman = (marker: string) => /^[ivxlc]+$/.test(marker)

/**
 * Reads `(a)(1)`, `a.1`, `Category XII (a)`, `XII(a)(1)` or `Category XII`; undefined when the
 * text has no paragraph markers and no heading.
 */
export const parseParagraphPath = (raw: string): ParagraphPath | undefined => {
  const text = raw.trim()
  const firstParen = text.indexOf("(")
  const head = (firstParen === -1 ? text : text.slice(0, firstParen)).trim()
  const tail = firstParen === -1 ? "" : text.slice(firstParen)
  const parenthesized = [...tail.matchAll(/\(([A-Za-z0-9]{1,6})\)/g)].map((match) => match[1]!)
  if (tail.replace(/\s*\([A-Za-z0-9]{1,6}\)\s*/g, "") !== "") return undefined
  if (head === "") return parenthesized.length === 0 ? undefined : { markers: parenthesized }
  // `a.1.i` (no heading, no parentheses) is the dotted form of `(a)(1)(i)`
  if (parenthesized.length === 0 && /^[a-z](?:\.[A-Za-z0-9]{1,4})*$/.test(head)) return { markers: head.split(".") }
  const heading = /^[IVXL]+$/.test(head) ? `Category ${head}` : head
  return heading.length > 80 ? undefined : { heading, markers: parenthesized }
}

/** The kinds of a path's markers: `(a)(1)(i)(A)`, a lower-case roman only under a number. */
const kindsOf = (markers: ReadonlyArray<string>): Array<Kind> =>
  markers.map((marker, index) =>
    /^\d+$/.test(marker)
      ? "digit"
      : /^[A-Z]+$/.test(marker)
      ? "upper"
      : isRoman(marker) && index > 0 && /^\d+$/.test(markers[index - 1]!)
      ? "roman"
      : "lower"
  )

const leadingMarker = (line: string) => /^\s*\(([A-Za-z0-9]{1,6})\)/.exec(line)?.[1]

const letterOrdinal = (marker: string) => marker.length === 1 ? marker.charCodeAt(0) : 1000 + marker.charCodeAt(0)

/** True when `marker` opens a paragraph after `than` at a level of kind `kind`: a sibling that ends it. */
const follows = (marker: string, than: string, kind: Kind): boolean => {
  switch (kind) {
    case "digit":
      return /^\d+$/.test(marker) && Number(marker) > Number(than)
    case "upper":
      return /^[A-Z]+$/.test(marker) && letterOrdinal(marker) > letterOrdinal(than)
    case "roman":
      return isRoman(marker) && romanValue(marker) > romanValue(than)
    case "lower":
      if (!/^[a-z]+$/.test(marker)) return false
      // (i), (v), (x) are usually romans one level down; they are siblings only right after (h), (u), (w)
      if (isRoman(marker) && marker.length === 1) return letterOrdinal(marker) === letterOrdinal(than) + 1
      return !isRoman(marker) && letterOrdinal(marker) > letterOrdinal(than)
  }
}

const headingEnd = (lines: ReadonlyArray<string>, start: number, heading: string) => {
  const word = heading.split(/\s+/)[0]!.toLowerCase()
  for (let i = start + 1; i < lines.length; i++) {
    if (lines[i]!.trim().toLowerCase().startsWith(`${word} `) && lines[i]!.length < 300) return i
  }
  return lines.length
}

const startsWithHeading = (line: string, heading: string) => {
  const normalized = line.trim().toLowerCase()
  const wanted = heading.toLowerCase()
  return normalized.startsWith(wanted) && !/[a-z0-9]/.test(normalized.charAt(wanted.length))
}

/** Finds the paragraph a path names in a section's plain text, or says what is there instead. */
export const sliceParagraph = (plain: string, path: ParagraphPath): ParagraphSlice => {
  const lines = plain.split("\n")
  let from = 0
  let to = lines.length
  if (path.heading !== undefined) {
    const at = lines.findIndex((line) => startsWithHeading(line, path.heading!))
    if (at === -1) {
      return { _tag: "Missing", reason: `no heading starting "${path.heading}" in this text`, available: [] }
    }
    from = at
    to = headingEnd(lines, at, path.heading)
  }
  const kinds = kindsOf(path.markers)
  // where the current paragraph starts: a line, and a character offset when it starts mid-line
  let startLine = from
  let startColumn = 0
  for (let depth = 0; depth < path.markers.length; depth++) {
    const marker = path.markers[depth]!
    const searchFrom = depth === 0 && path.heading === undefined ? from : startLine
    // a first child often starts on its parent's line: `(a) Scope—(1) …`
    const inline = depth === 0 ? -1 : lines[startLine]!.indexOf(`(${marker})`, startColumn + 1)
    let found = -1
    if (inline > 0 && /[—–:.-]$/.test(lines[startLine]!.slice(startColumn, inline).trimEnd())) {
      found = startLine
      startColumn = inline
    } else {
      // `to` is already the end of the parent paragraph, so the search stays under it; only
      // markers of this level in order count (an `(i)` below `(1)` is not the letter `(i)`)
      let last: string | undefined
      for (let i = depth === 0 ? searchFrom : startLine + 1; i < to; i++) {
        const candidate = leadingMarker(lines[i]!)
        if (candidate === undefined || !atLevel(candidate, last, kinds[depth]!)) continue
        last = candidate
        if (candidate === marker) {
          found = i
          startColumn = 0
          break
        }
      }
    }
    if (found === -1) {
      const parent = depth === 0
        ? (path.heading ?? "the text")
        : path.markers.slice(0, depth).map((m) => `(${m})`).join("")
      return {
        _tag: "Missing",
        reason: `no paragraph (${marker}) under ${parent}`,
        available: markersBetween(lines, depth === 0 ? from : startLine + 1, to, kinds[depth]!)
      }
    }
    startLine = found
    to = paragraphEnd(lines, found, to, path.markers.slice(0, depth + 1), kinds)
  }
  const body = lines.slice(startLine, to)
  body[0] = body[0]!.slice(startColumn)
  const heading = path.heading !== undefined && path.markers.length > 0 ? lines[from]!.trim() : undefined
  return { _tag: "Found", text: body.join("\n").trimEnd(), heading }
}

/** True when a line's marker is a later sibling of one of the path's first `depth + 1` levels. */
const endsAt = (marker: string, markers: ReadonlyArray<string>, kinds: ReadonlyArray<Kind>, depth: number) => {
  for (let level = 0; level < depth; level++) {
    if (follows(marker, markers[level]!, kinds[level]!)) return true
  }
  return false
}

const paragraphEnd = (
  lines: ReadonlyArray<string>,
  start: number,
  limit: number,
  markers: ReadonlyArray<string>,
  kinds: ReadonlyArray<Kind>
) => {
  for (let i = start + 1; i < limit; i++) {
    if (opensNewList.test(lines[i]!)) return i
    const marker = leadingMarker(lines[i]!)
    if (marker !== undefined && endsAt(marker, markers, kinds, markers.length)) return i
    // the top level starting over (`(a)` after `(b)`) is another list: a new category or section
    if (marker !== undefined && marker !== markers[0] && atLevel(marker, undefined, kinds[0]!)) {
      if (!follows(marker, markers[0]!, kinds[0]!) && kinds[0] !== "roman") return i
    }
  }
  return limit
}

/** Lines that open a new list of paragraphs: a USML category heading, a section heading. */
const opensNewList = /^\s*(?:Category [IVXL]+\b|§)/

const kindMatches = (marker: string, kind: Kind) =>
  kind === "digit"
    ? /^\d+$/.test(marker)
    : kind === "upper"
    ? /^[A-Z]+$/.test(marker)
    : kind === "roman"
    ? isRoman(marker)
    : /^[a-z]+$/.test(marker)

/** True when a marker opens a paragraph of the level being read, after `last` of that level (if any). */
const atLevel = (marker: string, last: string | undefined, kind: Kind) =>
  kind === "lower"
    ? last === undefined ? /^[a-z]+$/.test(marker) && !isRoman(marker) : follows(marker, last, "lower")
    : kindMatches(marker, kind)

/** The markers of one level between two lines, in order (for letters, not the romans below them). */
const markersBetween = (lines: ReadonlyArray<string>, from: number, to: number, kind: Kind) => {
  const seen: Array<string> = []
  let last: string | undefined
  for (let i = from; i < to; i++) {
    const marker = leadingMarker(lines[i]!)
    if (marker === undefined || !atLevel(marker, last, kind) || seen.includes(`(${marker})`)) continue
    seen.push(`(${marker})`)
    last = marker
  }
  return seen.slice(0, 40)
}
