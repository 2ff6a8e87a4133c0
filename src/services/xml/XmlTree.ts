import { isElement, type XmlElement, type XmlNode } from "../ecfr/Xml.ts"

export { isElement, type XmlElement, type XmlNode }

/** The XML is malformed, or lacks the structure a parser relies on; nothing is guessed. */
export class XmlParseError extends Error {}

export const elements = (element: XmlElement): ReadonlyArray<XmlElement> => element.children.filter(isElement)

/** Depth-first search (document order) for the first element matching `predicate`. */
export const find = (element: XmlElement, predicate: (e: XmlElement) => boolean): XmlElement | undefined => {
  for (const child of elements(element)) {
    if (predicate(child)) return child
    const inner = find(child, predicate)
    if (inner !== undefined) return inner
  }
  return undefined
}

/** Every element matching `predicate`, in document order (matches are not searched inside). */
export const findAll = (element: XmlElement, predicate: (e: XmlElement) => boolean): Array<XmlElement> => {
  const out: Array<XmlElement> = []
  const walk = (e: XmlElement) => {
    for (const child of elements(e)) {
      if (predicate(child)) out.push(child)
      else walk(child)
    }
  }
  walk(element)
  return out
}

export const normalizeSpace = (text: string): string => text.replace(/\s+/g, " ").trim()

const superscripts = new Set(["SU", "sup"])

/**
 * The readable text of a node. Superscripts become `^n` (in CCL text they are exponents:
 * `10<SU>5</SU>` reads 10^5, not 105); line breaks become spaces; whitespace is collapsed.
 */
export const textOf = (node: XmlNode): string => normalizeSpace(rawText(node, (inner) => `^${inner.trim()}`))

/** Text of a node leaving superscripts out (for cells whose superscripts are footnote markers). */
export const textWithoutSuperscripts = (node: XmlNode): string => normalizeSpace(rawText(node, () => " "))

const rawText = (node: XmlNode, superscript: (inner: string) => string): string => {
  if (typeof node === "string") return node
  if (node.name === "br") return " "
  const inner = node.children.map((child) => rawText(child, superscript)).join("")
  return superscripts.has(node.name) ? superscript(inner) : inner
}

/** The numbers written as superscripts inside a node (`Cyprus <sup>2</sup> <sup>3</sup>` → [2, 3]). */
export const superscriptNumbers = (node: XmlNode): Array<number> =>
  typeof node === "string"
    ? []
    : superscripts.has(node.name)
    ? (textOf(node).replace(/^\^/, "").match(/\d+/g) ?? []).map(Number)
    : node.children.flatMap(superscriptNumbers)

/** The appendix (`DIV9`) whose `N` attribute names the given supplement, e.g. "Supplement No. 1 to Part 774". */
export const findAppendix = (root: XmlElement, label: string): XmlElement | undefined => {
  const wanted = normalizeSpace(label).toLowerCase()
  const matches = (e: XmlElement) =>
    e.name === "DIV9" && normalizeSpace(e.attributes["N"] ?? "").toLowerCase() === wanted
  return matches(root) ? root : find(root, matches)
}
