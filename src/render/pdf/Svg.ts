import type { FontName } from "./Fonts.ts"
import type { Writer } from "./Writer.ts"

/**
 * The SVG satori writes for our graphics, drawn as PDF vector graphics: filled and stroked paths,
 * rectangles and polygons, clip paths (nested, even-odd), and words of text at their baselines in
 * the embedded faces. Rasterizing the same SVG (resvg, then a PNG) cost more than laying out all
 * the pages of a memorandum; drawn as vectors the pictures are also sharp at any zoom and their
 * words are real text. `parseSvg` answers undefined for anything else satori could write (masks
 * in use, transforms, opacity, gradients, images, italic text), and the caller rasterizes that.
 */
interface Element {
  readonly name: string
  readonly attributes: Readonly<Record<string, string>>
  readonly children: Array<Element>
  text: string
}

const drawn = new Set(["svg", "g", "defs", "clipPath", "mask", "path", "rect", "polygon", "text"])
const known = new Set([
  "xmlns",
  "viewBox",
  "id",
  "x",
  "y",
  "width",
  "height",
  "d",
  "points",
  "fill",
  "stroke",
  "stroke-width",
  "clip-path",
  "clip-rule",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "letter-spacing"
])

const entities: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'" }

const unescape = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity.startsWith("#x") || entity.startsWith("#X")) return String.fromCodePoint(parseInt(entity.slice(2), 16))
    if (entity.startsWith("#")) return String.fromCodePoint(parseInt(entity.slice(1), 10))
    return entities[entity] ?? whole
  })

const tokens = /<(\/?)([a-zA-Z]+)((?:\s+[a-zA-Z:-]+="[^"]*")*)\s*(\/?)>|([^<]+)/g
const attribute = /([a-zA-Z:-]+)="([^"]*)"/g

/** The element tree of satori's SVG, or undefined when it holds something not drawn here. */
export const parseSvg = (svg: string): ParsedSvg | undefined => {
  const root: Element = { name: "#root", attributes: {}, children: [], text: "" }
  const open: Array<Element> = [root]
  let consumed = 0
  for (const match of svg.matchAll(tokens)) {
    if (match.index !== consumed) return undefined
    consumed += match[0].length
    const [, closing, name, attributes, selfClosing, text] = match
    const parent = open[open.length - 1]!
    if (text !== undefined) {
      parent.text += unescape(text)
      continue
    }
    if (closing) {
      if (parent.name !== name || open.length === 1) return undefined
      open.pop()
      continue
    }
    if (!drawn.has(name!)) return undefined
    const values: Record<string, string> = {}
    for (const [, key, value] of attributes!.matchAll(attribute)) {
      if (!known.has(key!)) return undefined
      values[key!] = unescape(value!)
    }
    const element: Element = { name: name!, attributes: values, children: [], text: "" }
    parent.children.push(element)
    if (!selfClosing) open.push(element)
  }
  if (consumed !== svg.length || open.length !== 1) return undefined
  const svgElement = root.children[0]
  if (root.children.length !== 1 || svgElement?.name !== "svg") return undefined
  const clips = clipPaths(svgElement)
  return supported(svgElement, clips) ? { root: svgElement, clips } : undefined
}

export interface ParsedSvg {
  readonly root: Element
  readonly clips: ReadonlyMap<string, Element>
}

const color = /^#[0-9a-f]{3}([0-9a-f]{3})?$/i
const paint = (value: string | undefined) => value === undefined || value === "none" || color.test(value)

const shapes = new Set(["path", "rect", "polygon"])

const pointsOf = (value: string | undefined) => (value ?? "").trim().split(/[\s,]+/).map(Number)

/** Colours we can set, clip paths that exist and hold shapes, polygons with points, faces we embed. */
const supported = (element: Element, clips: ReadonlyMap<string, Element>): boolean => {
  const a = element.attributes
  if (!paint(a["fill"]) || !paint(a["stroke"])) return false
  const reference = a["clip-path"]
  if (reference !== undefined) {
    const clip = /^url\(#([^)]+)\)$/.exec(reference)?.[1]
    const children = clip === undefined ? undefined : clips.get(clip)?.children
    if (children === undefined || !children.every((child) => shapes.has(child.name))) return false
  }
  if (element.name === "polygon") {
    const points = pointsOf(a["points"])
    if (points.length < 4 || points.length % 2 !== 0 || points.some((p) => !Number.isFinite(p))) return false
  }
  if (element.name === "text") {
    if (a["font-style"] !== undefined && a["font-style"] !== "normal") return false
    if (a["font-family"] !== undefined && a["font-family"].toLowerCase() !== "ibm plex sans") return false
    if (faceFor(a["font-weight"]) === undefined) return false
  }
  return element.children.every((child) => supported(child, clips))
}

const faceFor = (weight: string | undefined): FontName | undefined =>
  weight === undefined || weight === "normal" || weight === "400"
    ? "sans"
    : weight === "600"
    ? "sansSemiBold"
    : weight === "700" || weight === "bold"
    ? "sansBold"
    : undefined

const number = (value: string | undefined, fallback = 0) => {
  const parsed = value === undefined ? NaN : Number(value)
  return Number.isFinite(parsed) ? parsed : fallback
}

/** Clip paths by id, from every `clipPath` in the tree. */
const clipPaths = (root: Element): Map<string, Element> => {
  const found = new Map<string, Element>()
  const visit = (element: Element) => {
    if (element.name === "clipPath" && element.attributes["id"] !== undefined) {
      found.set(element.attributes["id"], element)
    }
    element.children.forEach(visit)
  }
  visit(root)
  return found
}

/** Draws a parsed SVG with its top left corner at `x`, `y`. */
export const drawSvg = (w: Writer, svg: ParsedSvg, x: number, y: number): void => {
  const doc = w.doc
  const shape = (element: Element) => {
    const a = element.attributes
    if (element.name === "path") doc.path(a["d"] ?? "")
    else if (element.name === "rect") doc.rect(number(a["x"]), number(a["y"]), number(a["width"]), number(a["height"]))
    else {
      const points = pointsOf(a["points"])
      const pairs: Array<[number, number]> = []
      for (let i = 0; i + 1 < points.length; i += 2) pairs.push([points[i]!, points[i + 1]!])
      doc.polygon(...pairs)
    }
  }
  const withClip = (element: Element, draw: () => void) => {
    const reference = element.attributes["clip-path"]
    if (reference === undefined) return draw()
    doc.save()
    for (const part of svg.clips.get(reference.slice(5, -1))!.children) {
      shape(part)
      doc.clip(part.attributes["clip-rule"] === "evenodd" ? "even-odd" : "non-zero")
    }
    draw()
    doc.restore()
  }
  const paintShape = (element: Element) => {
    const a = element.attributes
    const fill = a["fill"] ?? "#000"
    const stroke = a["stroke"]
    if (fill !== "none") {
      shape(element)
      doc.fill(fill)
    }
    if (stroke !== undefined && stroke !== "none") {
      shape(element)
      doc.lineWidth(number(a["stroke-width"], 1)).stroke(stroke)
    }
  }
  const text = (element: Element) => {
    const a = element.attributes
    if (element.text.trim() === "") return
    const face = faceFor(a["font-weight"])!
    w.font(face, number(a["font-size"], 16), a["fill"] ?? "#000")
    w.write(element.text, face, number(a["x"]), number(a["y"]), {
      lineBreak: false,
      baseline: "alphabetic",
      characterSpacing: number(a["letter-spacing"])
    })
  }
  const visit = (element: Element): void => {
    switch (element.name) {
      case "defs":
      case "clipPath":
      case "mask":
        return
      case "svg":
        return element.children.forEach(visit)
      case "g":
        return withClip(element, () => element.children.forEach(visit))
      case "text":
        return withClip(element, () => text(element))
      default:
        return withClip(element, () => paintShape(element))
    }
  }
  doc.save()
  doc.translate(x, y)
  // nothing outside the picture's box, as with the raster
  doc.rect(0, 0, number(svg.root.attributes["width"]), number(svg.root.attributes["height"])).clip()
  visit(svg.root)
  doc.restore()
}
