import { kindOf } from "./Vocabulary.ts"
import { isElement, squash, type XmlElement, type XmlNode } from "./Xml.ts"

/** Inline text of a node on one line: superscripts as `^x`, line breaks as spaces. */
const inlineText = (node: XmlNode): string => {
  if (!isElement(node)) return node
  const kind = kindOf(node)
  if (kind.kind === "drop" || kind.kind === "graphic") return kind.kind === "graphic" ? " [graphic] " : ""
  if (kind.kind === "break") return " "
  const inner = node.children.map(inlineText).join("")
  return kind.kind === "inline" && kind.tag === "sup" ? `^${inner.trim()}` : inner
}

interface Cell {
  readonly text: string
  readonly colspan: number
  readonly rowspan: number
}

interface TableRow {
  readonly header: boolean
  readonly cells: ReadonlyArray<Cell>
}

const spanOf = (element: XmlElement, name: string) => {
  const value = Number(element.attributes[name] ?? element.attributes[name.toUpperCase()] ?? 1)
  return Number.isInteger(value) && value > 1 ? Math.min(value, 50) : 1
}

const collectRows = (node: XmlElement, inHeader: boolean, rows: Array<TableRow>, captions: Array<string>) => {
  for (const child of node.children) {
    if (!isElement(child)) continue
    const kind = kindOf(child)
    if (kind.kind === "caption") captions.push(squash(inlineText(child)))
    else if (kind.kind === "row") {
      const cells: Array<Cell> = []
      let allHeaders = true
      for (const cell of child.children) {
        if (!isElement(cell)) continue
        const cellKind = kindOf(cell)
        if (cellKind.kind !== "cell") continue
        allHeaders &&= cellKind.header
        const text = squash(inlineText(cell)).replace(/\|/g, "/")
        cells.push({ text, colspan: spanOf(cell, "colspan"), rowspan: spanOf(cell, "rowspan") })
      }
      if (cells.length > 0) rows.push({ header: inHeader || kind.header || allHeaders, cells })
    } else if (kind.kind !== "drop") {
      collectRows(child, inHeader || (kind.kind === "rowGroup" && kind.tag === "thead"), rows, captions)
    }
  }
}

/** Places cells on a grid so that row and column spans keep every value under its column. */
const layout = (rows: ReadonlyArray<TableRow>): Array<Array<string>> => {
  const grid: Array<Array<string>> = []
  const covered: Array<Array<boolean>> = []
  rows.forEach((row, r) => {
    grid[r] ??= []
    covered[r] ??= []
    let column = 0
    for (const cell of row.cells) {
      while (covered[r]![column]) column++
      for (let dr = 0; dr < cell.rowspan && r + dr < rows.length; dr++) {
        grid[r + dr] ??= []
        covered[r + dr] ??= []
        for (let dc = 0; dc < cell.colspan; dc++) {
          grid[r + dr]![column + dc] = dr === 0 && dc === 0 ? cell.text : ""
          covered[r + dr]![column + dc] = true
        }
      }
      column += cell.colspan
    }
  })
  return grid.map((cells) => Array.from(cells, (cell) => cell ?? ""))
}

/** A table as pipe-separated lines; a rule separates the header rows from the body. */
const tableText = (table: XmlElement): string => {
  const rows: Array<TableRow> = []
  const captions: Array<string> = []
  collectRows(table, false, rows, captions)
  const grid = layout(rows)
  const width = Math.max(0, ...grid.map((cells) => cells.length))
  const lines = captions.filter((caption) => caption !== "")
  let ruled = false
  grid.forEach((cells, index) => {
    const padded = [...cells, ...Array<string>(width - cells.length).fill("")]
    lines.push(`| ${padded.join(" | ")} |`)
    const header = rows[index]!.header
    const nextHeader = rows[index + 1]?.header ?? false
    if (!ruled && header && !nextHeader) {
      lines.push(`|${padded.map(() => "---").join("|")}|`)
      ruled = true
    }
  })
  return lines.join("\n")
}

/**
 * Builds clean readable text of eCFR body elements, one node at a time: one paragraph per block
 * separated by blank lines, whitespace collapsed, tables as pipe-separated rows, superscripts
 * (footnote marks, exponents) as `^x`.
 */
export class PlainWriter {
  private readonly paragraphs: Array<string> = []
  private buffer: Array<string> = []

  private flush() {
    if (this.buffer.length === 0) return
    const text = this.buffer.join("").split("\n").map(squash).filter((line) => line !== "").join("\n")
    this.buffer = []
    if (text !== "") this.paragraphs.push(text)
  }

  write(node: XmlNode): void {
    if (!isElement(node)) {
      this.buffer.push(node)
      return
    }
    const kind = kindOf(node)
    switch (kind.kind) {
      case "drop":
        return
      case "break":
        this.buffer.push("\n")
        return
      case "graphic":
        this.buffer.push(" [graphic not reproduced; see the eCFR] ")
        return
      case "table":
        this.flush()
        this.paragraphs.push(tableText(node))
        return
      case "inline":
      case "cell":
        this.buffer.push(inlineText(node))
        return
      case "transparent":
        for (const child of node.children) this.write(child)
        return
      default:
        this.flush()
        for (const child of node.children) this.write(child)
        this.flush()
    }
  }

  finish(): string {
    this.flush()
    return this.paragraphs.join("\n\n")
  }
}
