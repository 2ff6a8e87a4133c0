import { kindOf } from "./Vocabulary.ts"
import { isElement, type XmlElement, type XmlNode } from "./Xml.ts"

const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => escapes[c]!)

const spanValue = (value: string | undefined) =>
  value !== undefined && /^[1-9]\d{0,2}$/.test(value.trim()) ? value.trim() : undefined

/** Only row and column spans survive from the upstream attributes, and only as small integers. */
const cellSpans = (element: XmlElement) => {
  const colspan = spanValue(element.attributes.colspan ?? element.attributes.COLSPAN)
  const rowspan = spanValue(element.attributes.rowspan ?? element.attributes.ROWSPAN)
  return (colspan === undefined ? "" : ` colspan="${colspan}"`) + (rowspan === undefined ? "" : ` rowspan="${rowspan}"`)
}

const classAttribute = (className: string | undefined) => className === undefined ? "" : ` class="${className}"`

const render = (node: XmlNode, out: Array<string>): void => {
  if (!isElement(node)) {
    out.push(escapeHtml(node))
    return
  }
  const kind = kindOf(node)
  const wrap = (open: string, close: string) => {
    out.push(open)
    for (const child of node.children) render(child, out)
    out.push(close)
  }
  switch (kind.kind) {
    case "drop":
      return
    case "transparent":
      for (const child of node.children) render(child, out)
      return
    case "break":
      out.push("<br>")
      return
    case "graphic":
      out.push("<span class=\"graphic\">[graphic not reproduced; see the eCFR]</span>")
      return
    case "paragraph":
      return wrap(`<p${classAttribute(kind.className)}>`, "</p>\n")
    case "heading":
      return wrap(`<h${kind.level}>`, `</h${kind.level}>\n`)
    case "block":
      return wrap(`<${kind.tag}${classAttribute(kind.className)}>\n`, `</${kind.tag}>\n`)
    case "table":
      return wrap("<table>\n", "</table>\n")
    case "caption":
      return wrap("<caption>", "</caption>\n")
    case "rowGroup":
      return wrap(`<${kind.tag}>\n`, `</${kind.tag}>\n`)
    case "row":
      return wrap("<tr>", "</tr>\n")
    case "cell": {
      const tag = kind.header ? "th" : "td"
      return wrap(`<${tag}${cellSpans(node)}>`, `</${tag}>`)
    }
    case "inline":
      return wrap(`<${kind.tag}${classAttribute(kind.className)}>`, `</${kind.tag}>`)
  }
}

/**
 * Builds an HTML fragment of eCFR body elements, one node at a time. It is sanitized by
 * construction: every element becomes one of a fixed set of tags whose only attributes are fixed
 * class names and validated spans, text is escaped, and elements that can carry active content are
 * dropped with their content.
 */
export class HtmlWriter {
  private readonly out: Array<string> = []

  write(node: XmlNode): void {
    render(node, this.out)
  }

  finish(): string {
    return this.out.join("").replace(/\n\s*\n/g, "\n").trim()
  }
}
