/**
 * The words of a control row's "applies to" text, as the scope grammar reads them: paragraph
 * references (`6A003.b.4.b`, `.x`, `a.3`, a bare `y` in a list), the entry itself ("entire entry",
 * "this entry"), quoted terms, parenthesized groups, punctuation and plain words. Every token keeps
 * its offsets so conditions can be quoted exactly as the CCL writes them.
 */

export type Token =
  /** `3A001`, `ECCN 0A502`, `6A003.b.4.b`: an ECCN, with a paragraph when one follows. */
  | {
    readonly kind: "eccn"
    readonly eccn: string
    readonly paragraph: string | null
    readonly start: number
    readonly end: number
  }
  /** `.x`, `.a.1`, `a.3`, `z.2.a`: a paragraph of whichever ECCN the text is talking about. */
  | { readonly kind: "shorthand"; readonly paragraph: string; readonly start: number; readonly end: number }
  /** `.16` after `1C351.d.15`: the next sibling at the last level. */
  | { readonly kind: "sibling"; readonly number: string; readonly start: number; readonly end: number }
  /** A lone letter: a paragraph only inside a list (`g to j`, `.x and y`), otherwise a word. */
  | { readonly kind: "letter"; readonly letter: string; readonly start: number; readonly end: number }
  | { readonly kind: "entry"; readonly start: number; readonly end: number }
  | { readonly kind: "quote"; readonly start: number; readonly end: number }
  | { readonly kind: "punct"; readonly text: "," | ";" | ":"; readonly start: number; readonly end: number }
  | { readonly kind: "open"; readonly start: number; readonly end: number }
  | { readonly kind: "close"; readonly start: number; readonly end: number }
  | { readonly kind: "word"; readonly text: string; readonly start: number; readonly end: number }

/** A parenthesized run, kept whole: a remark, a list marker, a local "except", or descriptive text. */
export interface Group {
  readonly kind: "group"
  readonly children: ReadonlyArray<Element>
  readonly start: number
  readonly end: number
}

export type Element = Exclude<Token, { kind: "open" | "close" }> | Group

/** Designations alternate a letter and a number: `a`, `a.1`, `a.1.a`, `a.1.a.1` … */
const designation = "[a-z](?:\\.\\d{1,2}(?:\\.[a-z](?:\\.\\d{1,2}(?:\\.[a-z](?:\\.\\d{1,2})?)?)?)?)?"

const patterns: ReadonlyArray<readonly [RegExp, (match: RegExpExecArray, start: number) => Token]> = [
  [/“[^“”]*”/y, (m, start) => ({ kind: "quote", start, end: start + m[0].length })],
  [
    new RegExp(`(?:ECCNs?\\s+)?(\\d[A-E]\\d{3})(?:\\.(${designation}))?(?![\\w])`, "y"),
    (m, start) => ({ kind: "eccn", eccn: m[1]!, paragraph: m[2] ?? null, start, end: start + m[0].length })
  ],
  [
    new RegExp(`\\.(${designation})(?![\\w])`, "y"),
    (m, start) => ({ kind: "shorthand", paragraph: m[1]!, start, end: start + m[0].length })
  ],
  [/\.(\d{1,2})(?![\w.])/y, (m, start) => ({ kind: "sibling", number: m[1]!, start, end: start + m[0].length })],
  [
    new RegExp(`([a-z]\\.\\d{1,2}(?:\\.[a-z](?:\\.\\d{1,2}(?:\\.[a-z](?:\\.\\d{1,2})?)?)?)?)(?![\\w])`, "y"),
    (m, start) => ({ kind: "shorthand", paragraph: m[1]!, start, end: start + m[0].length })
  ],
  [/(?:the\s+)?(?:entire|this)\s+entry\b/iy, (m, start) => ({ kind: "entry", start, end: start + m[0].length })],
  [/([a-z])(?=$|[\s,;:()])/y, (m, start) => ({ kind: "letter", letter: m[1]!, start, end: start + m[0].length })],
  [/[,;:]/y, (m, start) => ({ kind: "punct", text: m[0] as "," | ";" | ":", start, end: start + 1 })],
  [/\(/y, (_, start) => ({ kind: "open", start, end: start + 1 })],
  [/\)/y, (_, start) => ({ kind: "close", start, end: start + 1 })],
  [/[^\s,;:()]+/y, (m, start) => ({ kind: "word", text: m[0], start, end: start + m[0].length })]
]

export const tokenize = (text: string): Array<Token> => {
  const tokens: Array<Token> = []
  let at = 0
  while (at < text.length) {
    // whitespace, and a period standing alone after a reference ("0A617.y.") says nothing
    if (/\s/.test(text[at]!) || (text[at] === "." && /^\.(?:\s|$)/.test(text.slice(at, at + 2)))) {
      at++
      continue
    }
    for (const [pattern, make] of patterns) {
      pattern.lastIndex = at
      const match = pattern.exec(text)
      if (match !== null && match[0].length > 0) {
        const token = make(match, at)
        tokens.push(token)
        at = token.end
        break
      }
    }
  }
  return tokens
}

/**
 * Nests parentheses into groups. Unbalanced parentheses (the CCL has a few) are read as plain
 * words rather than guessed closed: the run stays visible to the grammar, never swallowed.
 */
export const group = (tokens: ReadonlyArray<Token>): Array<Element> => {
  let depth = 0
  for (const token of tokens) {
    depth += token.kind === "open" ? 1 : token.kind === "close" ? -1 : 0
    if (depth < 0) break
  }
  if (depth !== 0) {
    return tokens.map((token) =>
      token.kind === "open" || token.kind === "close"
        ? { kind: "word", text: token.kind === "open" ? "(" : ")", start: token.start, end: token.end }
        : token
    )
  }
  const stack: Array<{ children: Array<Element>; start: number }> = [{ children: [], start: 0 }]
  for (const token of tokens) {
    if (token.kind === "open") stack.push({ children: [], start: token.start })
    else if (token.kind === "close") {
      const done = stack.pop()!
      stack[stack.length - 1]!.children.push({
        kind: "group",
        children: done.children,
        start: done.start,
        end: token.end
      })
    } else stack[stack.length - 1]!.children.push(token)
  }
  return stack[0]!.children
}

interface Kinded {
  readonly kind: string
  readonly text?: string
}

export const isWord = (element: Kinded | undefined, ...words: ReadonlyArray<string>): boolean =>
  element?.kind === "word" && words.includes(element.text!.toLowerCase())

export const isPunct = (element: Kinded | undefined, text: "," | ";" | ":"): boolean =>
  element?.kind === "punct" && element.text === text
