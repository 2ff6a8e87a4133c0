import type { PartDef, SectionDef } from "../domain/documents/Contract.ts"
import type { FieldMeta } from "../domain/documents/Fields.ts"
import type { Content } from "./Content.ts"
import type { Picture } from "./graphics/Graphics.ts"
import { type Cell, drawTable } from "./pdf/Table.ts"
import type { Writer } from "./pdf/Writer.ts"

const isFact = (field: FieldMeta) => field.kind === "text" || field.kind === "date" || field.kind === "choice"

const valueCell = (content: Content, key: string): Cell => {
  const shown = content.display(key)!
  return shown.tone ? { kind: "badge", label: shown.value, tone: shown.tone } : { kind: "text", text: shown.value }
}

/** Short values as a grid: two label/value pairs per row when every value is short, else one. */
export const drawFacts = (w: Writer, content: Content, keys: ReadonlyArray<string>): void => {
  const present = keys.filter((key) => content.has(key))
  if (present.length === 0) return
  const label = (key: string): Cell => ({
    kind: "text",
    text: content.contract.fieldsByKey.get(key)!.label,
    bold: true
  })
  const short = present.length >= 4 && present.every((key) => (content.display(key)?.value.length ?? 0) <= 30)
  if (short) {
    const rows: Array<Array<Cell>> = []
    for (let i = 0; i < present.length; i += 2) {
      const [a, b] = [present[i]!, present[i + 1]]
      rows.push([label(a), valueCell(content, a), ...(b ? [label(b), valueCell(content, b)] : [text(""), text("")])])
    }
    const columns = [{ label: "", width: 1.05 }, { label: "", width: 1.45 }, { label: "", width: 1.05 }, {
      label: "",
      width: 1.45
    }]
    drawTable(w, columns, rows, { header: false })
  } else {
    const rows = present.map((key) => [label(key), valueCell(content, key)])
    drawTable(w, [{ label: "", width: 1 }, { label: "", width: 2.4 }], rows, { header: false })
  }
}

const text = (value: string): Cell => ({ kind: "text", text: value })

/** A table field: caption, then the rows with enumerated cells as badges. */
export const drawDataTable = (w: Writer, content: Content, field: FieldMeta): void => {
  const rows = content.rows(field.key)
  if (rows.length === 0) return
  const columns = field.columns!
  w.caption(field.label)
  drawTable(
    w,
    columns.map((column) => ({ label: column.label, width: column.width })),
    rows.map((row) =>
      columns.map((column): Cell => {
        const value = row[column.key] ?? ""
        if (column.choice && value !== "") {
          return {
            kind: "badge",
            label: column.choice.labels[value] ?? value,
            tone: column.choice.tones[value] ?? "neutral"
          }
        }
        return text(value)
      })
    ),
    { caption: field.label }
  )
}

/** The fields of one part in declaration order: runs of short values as grids, then prose, tables. */
const drawFields = (w: Writer, content: Content, fields: ReadonlyArray<FieldMeta>) => {
  let facts: Array<string> = []
  const flush = () => {
    drawFacts(w, content, facts)
    facts = []
  }
  for (const field of fields) {
    if (isFact(field)) {
      facts.push(field.key)
      continue
    }
    flush()
    if (field.kind === "table") drawDataTable(w, content, field)
    else if (content.has(field.key)) {
      w.caption(field.label)
      w.blocks(content.blocks(field.key))
      w.space(4)
    }
  }
  flush()
}

const fieldsOf = (content: Content, part: PartDef) =>
  Object.keys(part.fields).map((key) => content.contract.fieldsByKey.get(key)!)

/** One numbered section: its graphic, then each part (a gated part may print only its gate). */
export const drawSection = (
  w: Writer,
  content: Content,
  section: SectionDef,
  number: number,
  graphic: Picture | undefined
): void => {
  // a section opening with a graphic keeps its heading on the graphic's page
  if (graphic) w.ensure(graphic.height + 60)
  w.heading(1, `${number}. ${section.title}`)
  const provided = section.parts.some((part) => Object.keys(part.fields).some((key) => content.has(key)))
  if (!provided) {
    w.callout("No information was provided for this section.")
    return
  }
  if (graphic) w.image(graphic)
  section.parts.forEach((part, index) => {
    if (part.title) w.heading(2, `${number}.${index + 1} ${part.title}`)
    const fields = fieldsOf(content, part)
    if (part.gate && content.text(part.gate.key) !== part.gate.equals) {
      drawFacts(w, content, [part.gate.key])
      w.callout(part.gate.otherwise)
      const ignored = fields.filter((field) => field.key !== part.gate!.key && content.has(field.key)).length
      if (ignored > 0) {
        content.warnings.push(`${ignored} key(s) ignored because ${part.gate.key} is not ${part.gate.equals}`)
      }
      return
    }
    drawFields(w, content, fields)
  })
}
