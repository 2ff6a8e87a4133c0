import { Parser } from "htmlparser2"

const blocks = new Set([
  "address",
  "article",
  "blockquote",
  "br",
  "dd",
  "div",
  "dl",
  "dt",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "hr",
  "li",
  "ol",
  "p",
  "pre",
  "section",
  "table",
  "tr",
  "ul"
])
const hidden = new Set(["script", "style", "template", "head"])

/**
 * Readable text from an HTML document or fragment: entities decoded, scripts and styles dropped,
 * whitespace collapsed except inside `<pre>`, a line break at each block boundary and a blank line
 * between paragraphs.
 */
export const htmlToText = (html: string): string => {
  let out = ""
  let pre = 0
  let skip = 0
  let lineStart = true
  const breakLine = (name: string) => {
    out += name === "p" ? "\n\n" : "\n"
    lineStart = true
  }
  const parser = new Parser({
    onopentag(name) {
      if (hidden.has(name)) skip++
      if (name === "pre") pre++
      if (blocks.has(name)) breakLine(name)
    },
    ontext(text) {
      if (skip > 0) return
      if (pre > 0) {
        out += text
        lineStart = text.endsWith("\n")
        return
      }
      const collapsed = text.replace(/\s+/g, " ")
      const piece = lineStart ? collapsed.trimStart() : collapsed
      if (piece.length > 0) lineStart = false
      out += piece
    },
    onclosetag(name) {
      if (hidden.has(name)) skip = Math.max(0, skip - 1)
      if (name === "pre") pre = Math.max(0, pre - 1)
      if (blocks.has(name)) breakLine(name)
    }
  }, { decodeEntities: true })
  parser.write(html)
  parser.end()
  return out
    .split("\n")
    .map((line) => line.replace(/\s+$/, ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()
}

/** True when a body that should be text arrived wrapped in HTML (the Federal Register's `.txt` files). */
export const looksLikeHtml = (text: string): boolean => /<(?:html|body|pre)\b/i.test(text.slice(0, 2048))
