import { Effect } from "effect"
import sax from "sax"
import { slicer } from "../Cooperative.ts"

export interface XmlElement {
  readonly name: string
  readonly attributes: Readonly<Record<string, string>>
  readonly children: Array<XmlNode>
}

export type XmlNode = XmlElement | string

/** sax's table of HTML named entities (present at run time, missing from its type declarations). */
const htmlEntities = (sax as unknown as { readonly ENTITIES: Record<string, string> }).ENTITIES

export class XmlSyntaxError extends Error {}

const chunkLength = 64 * 1024

/**
 * A strict streaming `sax` parser building a light element tree, so truncated or malformed
 * responses are rejected instead of half-read. eCFR uses numeric character references, but its
 * HTML-like tables may carry HTML named entities: those are accepted too.
 */
const treeBuilder = () => {
  const parser = sax.parser(true, { trim: false, normalize: false, position: true })
  parser.ENTITIES = htmlEntities
  // sax records an error and would go on (or reset on close): stop at the first one
  parser.onerror = (error) => {
    throw error
  }
  const root: XmlElement = { name: "#document", attributes: {}, children: [] }
  const stack: Array<XmlElement> = [root]
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
  return {
    /** Feeds a chunk, or closes the document with `undefined`; throws XmlSyntaxError. */
    feed: (chunk: string | undefined) => {
      try {
        if (chunk === undefined) parser.close()
        else parser.write(chunk)
      } catch (error) {
        throw new XmlSyntaxError(`malformed XML: ${String((error as Error).message).split("\n")[0]}`)
      }
    },
    root: (): XmlElement => {
      const element = root.children.find((child): child is XmlElement => typeof child !== "string")
      if (element === undefined) throw new XmlSyntaxError("malformed XML: no root element")
      return element
    }
  }
}

/**
 * Parses a whole eCFR XML document, fed in chunks with pauses between them (`slicer`) so that
 * parsing a 2 MB part never stalls the requests being served meanwhile.
 */
export const parseXml = (xml: string): Effect.Effect<XmlElement, XmlSyntaxError> =>
  Effect.suspend(() => {
    const builder = treeBuilder()
    const feed = (chunk: string | undefined) =>
      Effect.try({ try: () => builder.feed(chunk), catch: (error) => error as XmlSyntaxError })
    return Effect.gen(function*() {
      const tick = slicer()
      for (let offset = 0; offset < xml.length; offset += chunkLength) {
        yield* feed(xml.slice(offset, offset + chunkLength))
        yield* tick
      }
      yield* feed(undefined)
      return yield* Effect.try({ try: builder.root, catch: (error) => error as XmlSyntaxError })
    })
  })

/** The same parse in one go, for tools and tests that are not serving requests. Throws XmlSyntaxError. */
export const parseXmlNow = (xml: string): XmlElement => {
  const builder = treeBuilder()
  builder.feed(xml)
  builder.feed(undefined)
  return builder.root()
}

export const isElement = (node: XmlNode): node is XmlElement => typeof node !== "string"

/** The text content of a node, entities decoded, whitespace left as is. */
export const textOf = (node: XmlNode): string => isElement(node) ? node.children.map(textOf).join("") : node

/** Collapses runs of whitespace (newlines included) to single spaces and trims. */
export const squash = (text: string): string => text.replace(/\s+/g, " ").trim()
