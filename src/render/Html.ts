import type { ChildNode, Element } from "domhandler"
import { parseDocument } from "htmlparser2"

/**
 * The HTML subset raw_html_fields accept, parsed into blocks the PDF layout draws. Only
 * paragraphs, emphasis, lists, links (http, https, mailto) and simple tables survive; every other
 * element or attribute is dropped and counted. Elements that carry code or external resources
 * (scripts, styles, images, frames…) are removed with their content; other unknown elements are
 * unwrapped so their text is kept.
 */
export interface Run {
  readonly text: string
  readonly bold: boolean
  readonly italic: boolean
  readonly underline: boolean
  readonly link?: string
}

export type Block =
  | { readonly kind: "paragraph"; readonly runs: ReadonlyArray<Run> }
  | { readonly kind: "list"; readonly ordered: boolean; readonly items: ReadonlyArray<ReadonlyArray<Block>> }
  | { readonly kind: "table"; readonly rows: ReadonlyArray<TableRow> }

export interface TableRow {
  readonly header: boolean
  readonly cells: ReadonlyArray<ReadonlyArray<Run>>
}

export interface SanitizedHtml {
  readonly blocks: ReadonlyArray<Block>
  /** How many elements and attributes were dropped. */
  readonly dropped: number
}

const removedWithContent = new Set([
  "script",
  "style",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "img",
  "picture",
  "source",
  "video",
  "audio",
  "track",
  "canvas",
  "svg",
  "math",
  "link",
  "meta",
  "base",
  "form",
  "input",
  "button",
  "textarea",
  "select",
  "option",
  "template",
  "noscript",
  "head",
  "title"
])
const inlineStyles: Readonly<Record<string, keyof Omit<Run, "text" | "link">>> = {
  strong: "bold",
  b: "bold",
  em: "italic",
  i: "italic",
  u: "underline"
}
const blockContainers = new Set(["p", "ul", "ol", "table"])
const safeHref = /^(https?:\/\/|mailto:)[^\s"'<>]*$/i
const maxDepth = 24

type Style = Omit<Run, "text">

export const sanitizeHtml = (source: string): SanitizedHtml => {
  let dropped = 0
  const plain: Style = { bold: false, italic: false, underline: false }

  const isElement = (node: ChildNode): node is Element =>
    node.type === "tag" || node.type === "script" ||
    node.type === "style"

  /** Counts disallowed attributes of an allowed element; returns the link target of an `a`. */
  const checkAttributes = (element: Element): string | undefined => {
    let href: string | undefined
    for (const [name, value] of Object.entries(element.attribs)) {
      if (element.name === "a" && name === "href" && safeHref.test(value.trim())) href = value.trim()
      else dropped++
    }
    return href
  }

  const runsOf = (nodes: ReadonlyArray<ChildNode>, style: Style, depth: number, out: Array<Run>) => {
    for (const node of nodes) {
      if (node.type === "text") {
        const text = node.data.replace(/\s+/g, " ")
        if (text !== "") out.push({ ...style, text })
        continue
      }
      if (!isElement(node)) continue
      const name = node.name.toLowerCase()
      if (depth > maxDepth || removedWithContent.has(name)) {
        dropped++
        continue
      }
      if (name === "br") {
        checkAttributes(node)
        out.push({ ...style, text: "\n" })
      } else if (inlineStyles[name]) {
        checkAttributes(node)
        runsOf(node.children, { ...style, [inlineStyles[name]]: true }, depth + 1, out)
      } else if (name === "a") {
        const href = checkAttributes(node)
        runsOf(node.children, href === undefined ? style : { ...style, link: href }, depth + 1, out)
      } else {
        // block elements met inside inline content, and unknown elements, keep only their text
        if (!blockContainers.has(name) && name !== "li" && !isTablePart(name)) dropped++
        runsOf(node.children, style, depth + 1, out)
      }
    }
  }

  const tidy = (runs: Array<Run>): Array<Run> => {
    const trimmed = runs.filter((run) => run.text !== "")
    if (trimmed.length > 0) {
      const first = trimmed[0]!
      trimmed[0] = { ...first, text: first.text.replace(/^ +/, "") }
      const last = trimmed[trimmed.length - 1]!
      trimmed[trimmed.length - 1] = { ...last, text: last.text.replace(/ +$/, "") }
    }
    return trimmed.filter((run) => run.text !== "")
  }

  const tableRows = (nodes: ReadonlyArray<ChildNode>, depth: number, out: Array<TableRow>, inHead: boolean) => {
    for (const node of nodes) {
      if (!isElement(node)) continue
      const name = node.name.toLowerCase()
      if (name === "thead" || name === "tbody" || name === "tfoot") {
        checkAttributes(node)
        tableRows(node.children, depth + 1, out, name === "thead")
      } else if (name === "tr") {
        checkAttributes(node)
        const cells: Array<ReadonlyArray<Run>> = []
        let header = inHead
        for (const cell of node.children) {
          if (!isElement(cell)) continue
          const cellName = cell.name.toLowerCase()
          if (cellName !== "td" && cellName !== "th") {
            dropped++
            continue
          }
          checkAttributes(cell)
          if (cellName === "th") header = true
          const runs: Array<Run> = []
          runsOf(cell.children, cellName === "th" ? { ...plain, bold: true } : plain, depth + 2, runs)
          cells.push(tidy(runs))
        }
        if (cells.length > 0) out.push({ header, cells })
      } else {
        dropped++
      }
    }
  }

  const blocksOf = (nodes: ReadonlyArray<ChildNode>, depth: number): Array<Block> => {
    const blocks: Array<Block> = []
    let pending: Array<Run> = []
    const flush = () => {
      const runs = tidy(pending)
      if (runs.length > 0) blocks.push({ kind: "paragraph", runs })
      pending = []
    }
    for (const node of nodes) {
      const name = isElement(node) ? node.name.toLowerCase() : ""
      if (!isElement(node) || !blockContainers.has(name) || depth > maxDepth) {
        runsOf([node], plain, depth, pending)
        continue
      }
      flush()
      checkAttributes(node)
      if (name === "p") {
        const runs: Array<Run> = []
        runsOf(node.children, plain, depth + 1, runs)
        const tidied = tidy(runs)
        if (tidied.length > 0) blocks.push({ kind: "paragraph", runs: tidied })
      } else if (name === "table") {
        const rows: Array<TableRow> = []
        tableRows(node.children, depth + 1, rows, false)
        if (rows.length > 0) blocks.push({ kind: "table", rows })
      } else {
        const items: Array<Array<Block>> = []
        for (const item of node.children) {
          if (!isElement(item)) continue
          if (item.name.toLowerCase() !== "li") {
            dropped++
            continue
          }
          checkAttributes(item)
          items.push(blocksOf(item.children, depth + 2))
        }
        if (items.length > 0) blocks.push({ kind: "list", ordered: name === "ol", items })
      }
    }
    flush()
    return blocks
  }

  const document = parseDocument(source, { decodeEntities: true, lowerCaseTags: true })
  return { blocks: blocksOf(document.children, 0), dropped }
}

const isTablePart = (name: string) =>
  name === "thead" || name === "tbody" || name === "tfoot" || name === "tr" || name === "td" || name === "th"

/** Plain paragraphs (blank lines separate them) in the same block form. */
export const proseBlocks = (text: string): ReadonlyArray<Block> =>
  text.split(/\n\s*\n/).map((paragraph) => paragraph.trim()).filter((paragraph) => paragraph !== "").map(
    (paragraph) => ({
      kind: "paragraph" as const,
      runs: [{ text: paragraph.replace(/[ \t]+/g, " "), bold: false, italic: false, underline: false }]
    })
  )
