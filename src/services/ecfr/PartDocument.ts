import type { CfrSection } from "../../domain/Cfr.ts"
import { toHtml } from "./RenderHtml.ts"
import { toPlain } from "./RenderPlain.ts"
import { isElement, parseXml, squash, textOf, type XmlElement, XmlSyntaxError } from "./Xml.ts"

export interface PartDocument {
  readonly part: number
  readonly heading: string
  readonly sections: ReadonlyArray<CfrSection>
}

const divLevel = (element: XmlElement) => /^DIV([1-9])$/.exec(element.name)?.[1]

const findPart = (element: XmlElement, part: string): XmlElement | undefined => {
  if (divLevel(element) === "5" && element.attributes.N?.trim() === part) return element
  for (const child of element.children) {
    if (!isElement(child)) continue
    const found = findPart(child, part)
    if (found !== undefined) return found
  }
  return undefined
}

const headingOf = (element: XmlElement) => {
  const head = element.children.find((child) => isElement(child) && child.name === "HEAD")
  return head === undefined ? "" : squash(textOf(head))
}

/** GPO's source XML writes `N="§ 748.14"`; the eCFR API writes `N="748.14"`. */
const identifierOf = (element: XmlElement) => squash(element.attributes.N ?? "").replace(/^§+\s*/, "")

/** DIV8 and DIV9 in document order, looking through subparts (DIV6) and subject groups (DIV7). */
const collectSections = (element: XmlElement, into: Array<CfrSection>) => {
  for (const child of element.children) {
    if (!isElement(child)) continue
    const level = divLevel(child)
    if (level === "8" || level === "9") {
      const label = headingOf(child)
      const body = child.children
      into.push({
        identifier: identifierOf(child),
        type: level === "8" ? "section" : "appendix",
        label,
        reserved: /\[Reserved\]\s*$/i.test(label),
        html: toHtml(body),
        plain: toPlain(body)
      })
    } else if (level === "6" || level === "7") {
      collectSections(child, into)
    }
  }
}

/**
 * Reads the eCFR XML of one part (`full/{date}/title-N.xml?part=N`): the `DIV5` of that part, its
 * heading and every section and supplement. Throws `XmlSyntaxError` when the document is malformed
 * or is not that part.
 */
export const readPartDocument = (xml: string, part: number): PartDocument => {
  const root = parseXml(xml)
  const element = findPart(root, String(part))
  if (element === undefined) throw new XmlSyntaxError(`the document has no DIV5 for part ${part}`)
  const sections: Array<CfrSection> = []
  collectSections(element, sections)
  if (sections.length === 0) throw new XmlSyntaxError(`part ${part} has no sections`)
  const identifiers = new Set<string>()
  for (const section of sections) {
    if (section.identifier === "") throw new XmlSyntaxError(`part ${part} has a section without an identifier`)
    if (identifiers.has(section.identifier)) {
      throw new XmlSyntaxError(`part ${part} repeats section ${section.identifier}`)
    }
    identifiers.add(section.identifier)
  }
  return { part, heading: headingOf(element), sections }
}
