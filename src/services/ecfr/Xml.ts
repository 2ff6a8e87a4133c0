import sax from "sax"

export interface XmlElement {
  readonly name: string
  readonly attributes: Readonly<Record<string, string>>
  readonly children: Array<XmlNode>
}

export type XmlNode = XmlElement | string

/** sax's table of HTML named entities (present at run time, missing from its type declarations). */
const htmlEntities = (sax as unknown as { readonly ENTITIES: Record<string, string> }).ENTITIES

export class XmlSyntaxError extends Error {}

/**
 * Parses a whole eCFR XML document into a light element tree with the streaming `sax` parser in
 * strict mode, so truncated or malformed responses are rejected instead of half-read. eCFR uses
 * numeric character references, but its HTML-like tables may carry HTML named entities: those are
 * accepted too.
 */
export const parseXml = (xml: string): XmlElement => {
  const parser = sax.parser(true, { trim: false, normalize: false, position: true })
  parser.ENTITIES = htmlEntities
  const root: XmlElement = { name: "#document", attributes: {}, children: [] }
  const stack: Array<XmlElement> = [root]
  let failure: string | undefined
  parser.onerror = (error) => {
    failure ??= error.message.split("\n")[0]
    throw error
  }
  parser.onopentag = (tag) => {
    const element: XmlElement = { name: tag.name, attributes: tag.attributes as Record<string, string>, children: [] }
    stack[stack.length - 1]!.children.push(element)
    stack.push(element)
  }
  parser.onclosetag = () => {
    stack.pop()
  }
  const onText = (text: string) => {
    if (stack.length > 1) stack[stack.length - 1]!.children.push(text)
  }
  parser.ontext = onText
  parser.oncdata = onText
  try {
    parser.write(xml).close()
  } catch (error) {
    throw new XmlSyntaxError(`malformed XML: ${failure ?? String(error)}`)
  }
  const element = root.children.find((child): child is XmlElement => typeof child !== "string")
  if (element === undefined) throw new XmlSyntaxError("malformed XML: no root element")
  return element
}

export const isElement = (node: XmlNode): node is XmlElement => typeof node !== "string"

/** The text content of a node, entities decoded, whitespace left as is. */
export const textOf = (node: XmlNode): string => isElement(node) ? node.children.map(textOf).join("") : node

/** Collapses runs of whitespace (newlines included) to single spaces and trims. */
export const squash = (text: string): string => text.replace(/\s+/g, " ").trim()
