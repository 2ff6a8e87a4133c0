import { XMLParser, XMLValidator } from "fast-xml-parser"

/** An element of a parsed XML document: its name, attributes and children in document order. */
export interface XmlElement {
  readonly name: string
  readonly attributes: Readonly<Record<string, string>>
  readonly children: ReadonlyArray<XmlNode>
}

export type XmlNode = XmlElement | string

export class XmlParseError extends Error {}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true
})

type Ordered = Record<string, unknown> & { readonly ":@"?: Record<string, string> }

const convert = (nodes: ReadonlyArray<Ordered>): Array<XmlNode> => {
  const out: Array<XmlNode> = []
  for (const node of nodes) {
    for (const key of Object.keys(node)) {
      if (key === ":@") continue
      const value = node[key]
      if (key === "#text") out.push(String(value))
      else if (!key.startsWith("?") && !key.startsWith("#")) {
        out.push({ name: key, attributes: node[":@"] ?? {}, children: convert(value as ReadonlyArray<Ordered>) })
      }
    }
  }
  return out
}

/** Parses a whole document (validated first: truncated or malformed upstream XML is an error, not a guess). */
export const parseDocument = (xml: string): XmlElement => {
  const valid = XMLValidator.validate(xml)
  if (valid !== true) {
    throw new XmlParseError(`malformed XML at line ${valid.err.line}: ${valid.err.msg}`)
  }
  const root = convert(parser.parse(xml) as ReadonlyArray<Ordered>).find((node) => typeof node !== "string")
  if (root === undefined) throw new XmlParseError("the document has no root element")
  return root
}

export const isElement = (node: XmlNode): node is XmlElement => typeof node !== "string"

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
