import { Effect } from "effect"
import type { CfrSection } from "../../domain/Cfr.ts"
import { slicer } from "../Cooperative.ts"
import { HtmlWriter } from "./RenderHtml.ts"
import { PlainWriter } from "./RenderPlain.ts"
import { isElement, parseXml, squash, textOf, type XmlElement, type XmlNode, XmlSyntaxError } from "./Xml.ts"

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
const collectSections = (element: XmlElement, into: Array<XmlElement>): Array<XmlElement> => {
  for (const child of element.children) {
    if (!isElement(child)) continue
    const level = divLevel(child)
    if (level === "8" || level === "9") into.push(child)
    else if (level === "6" || level === "7") collectSections(child, into)
  }
  return into
}

/** Renders a body both ways node by node, pausing between nodes when the work runs long. */
const renderBody = (body: ReadonlyArray<XmlNode>, tick: Effect.Effect<void>) =>
  Effect.gen(function*() {
    const html = new HtmlWriter()
    const plain = new PlainWriter()
    for (const node of body) {
      html.write(node)
      plain.write(node)
      yield* tick
    }
    return { html: html.finish(), plain: plain.finish() }
  })

const malformed = (detail: string) => Effect.fail(new XmlSyntaxError(detail))

/**
 * Reads the eCFR XML of one part (`full/{date}/title-N.xml?part=N`): the `DIV5` of that part, its
 * heading and every section and supplement. Fails with `XmlSyntaxError` when the document is
 * malformed or is not that part. Long work yields to the event loop (see `slicer`).
 */
export const readPartDocument = (xml: string, part: number): Effect.Effect<PartDocument, XmlSyntaxError> =>
  Effect.gen(function*() {
    const element = findPart(yield* parseXml(xml), String(part))
    if (element === undefined) return yield* malformed(`the document has no DIV5 for part ${part}`)
    const divisions = collectSections(element, [])
    if (divisions.length === 0) return yield* malformed(`part ${part} has no sections`)
    const tick = slicer()
    const sections: Array<CfrSection> = []
    const seen = new Set<string>()
    for (const division of divisions) {
      const identifier = identifierOf(division)
      if (identifier === "") return yield* malformed(`part ${part} has a section without an identifier`)
      if (seen.has(identifier)) return yield* malformed(`part ${part} repeats ${identifier}`)
      seen.add(identifier)
      const label = headingOf(division)
      sections.push({
        identifier,
        type: divLevel(division) === "8" ? "section" : "appendix",
        label,
        reserved: /\[Reserved\]\s*$/i.test(label),
        ...(yield* renderBody(division.children, tick))
      })
    }
    return { part, heading: headingOf(element), sections }
  })
