import type { PartDef, SectionDef } from "../domain/documents/Contract.ts"
import type { FieldMeta } from "../domain/documents/Fields.ts"
import type { Content } from "./Content.ts"
import type { Picture } from "./graphics/Graphics.ts"
import { drawStacked, stackedHeight } from "./pdf/Stacked.ts"
import { type Cell, drawTable, fitsAcross, type TableDensity, tableHeight } from "./pdf/Table.ts"
import { Colors, Type } from "./pdf/Theme.ts"
import type { Writer } from "./pdf/Writer.ts"

const isFact = (field: FieldMeta) => field.kind === "text" || field.kind === "date" || field.kind === "choice"

const valueCell = (content: Content, key: string): Cell => {
  const shown = content.display(key)!
  return shown.tone ? { kind: "badge", label: shown.value, tone: shown.tone } : { kind: "text", text: shown.value }
}

/**
 * Short values as a grid: two label/value pairs per row when every value is short (or `pairs`
 * asks for it: a one-page document), else one.
 */
export const drawFacts = (
  w: Writer,
  content: Content,
  keys: ReadonlyArray<string>,
  options: { readonly pairs?: boolean; readonly density?: TableDensity } = {}
): void => {
  const grid = factsGrid(content, keys, options)
  if (grid) drawTable(w, grid.columns, grid.rows, grid.options)
}

/** The facts grid's columns, rows and table options (undefined when none of the keys has a value). */
const factsGrid = (
  content: Content,
  keys: ReadonlyArray<string>,
  options: { readonly pairs?: boolean; readonly density?: TableDensity } = {}
) => {
  const present = keys.filter((key) => content.has(key))
  if (present.length === 0) return undefined
  const tableOptions = { header: false, ...(options.density ? { density: options.density } : {}) }
  const label = (key: string): Cell => ({
    kind: "text",
    text: content.contract.fieldsByKey.get(key)!.label,
    bold: true
  })
  const short = options.pairs === true ||
    present.length >= 4 && present.every((key) => (content.display(key)?.value.length ?? 0) <= 30)
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
    return { columns, rows, options: tableOptions }
  }
  const rows = present.map((key) => [label(key), valueCell(content, key)])
  return { columns: [{ label: "", width: 1 }, { label: "", width: 2.4 }], rows, options: tableOptions }
}

const text = (value: string): Cell => ({ kind: "text", text: value })

/** A table field's columns and cells, enumerated cells as badges. */
export const dataTable = (content: Content, field: FieldMeta) => {
  const columns = field.columns!
  return {
    columns: columns.map((column) => ({ label: column.label, width: column.width })),
    rows: content.rows(field.key).map((row) =>
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
    )
  }
}

/**
 * A table field: caption, then the rows with enumerated cells as badges. A report's table whose
 * identifiers cannot stand side by side is stacked, one record after another; a one-page
 * document (`density` given) keeps the table and sets it denser instead.
 */
export const drawDataTable = (w: Writer, content: Content, field: FieldMeta, density?: TableDensity): void => {
  const { columns, rows } = dataTable(content, field)
  if (rows.length === 0) return
  if (density === undefined && !fitsAcross(w, columns, rows)) {
    w.caption(field.label, stackedHeight(w, columns, rows.slice(0, 1)))
    drawStacked(w, columns, rows)
    return
  }
  const options = { caption: field.label, ...(density ? { density } : {}) }
  w.caption(field.label, tableHeight(w, columns, rows.slice(0, 1), options))
  drawTable(w, columns, rows, options)
}

/**
 * The first block `drawFields` draws for these fields, in points: what a heading above it must
 * keep on its page (the block's first rows for a table or facts grid, a prose caption's minimum).
 */
export const leadHeight = (w: Writer, content: Content, fields: ReadonlyArray<FieldMeta>): number => {
  const keys = new Set(fields.map((field) => field.key))
  const facts: Array<string> = []
  for (const field of fields) {
    if (signatoryPrefix(field, keys) !== undefined) break
    if (isFact(field)) {
      facts.push(field.key)
      continue
    }
    if (facts.some((key) => content.has(key))) break
    if (field.kind === "table") {
      const { columns, rows } = dataTable(content, field)
      if (rows.length === 0) continue
      return w.captionHeight + (fitsAcross(w, columns, rows)
        ? tableHeight(w, columns, rows.slice(0, 1), { caption: field.label })
        : stackedHeight(w, columns, rows.slice(0, 1)))
    }
    if (content.has(field.key)) return 64
  }
  const grid = factsGrid(content, facts)
  if (grid) return tableHeight(w, grid.columns, grid.rows.slice(0, 2), grid.options)
  const first = fields.find((field) => signatoryPrefix(field, keys) !== undefined)
  return first === undefined ? 0 : signatoryHeight(w, content, signatoryPrefix(first, keys)!)
}

export const signOffHeight = 50

/**
 * Signature and date lines, each labelled, with the signatory's name (and title) and the date
 * under them; the block is kept on one page.
 */
export const drawSignOff = (
  w: Writer,
  signatory: { readonly name: string; readonly title?: string | undefined; readonly date: string }
): void => {
  w.ensure(signOffHeight)
  const line = w.y + 22
  const signatureWidth = w.width * 0.55
  const dateX = w.left + w.width * 0.64
  const dateWidth = w.left + w.width - dateX
  w.tags.artifact(() => {
    w.doc.moveTo(w.left, line).lineTo(w.left + signatureWidth, line).lineWidth(0.6).strokeColor(Colors.ink).stroke()
    w.doc.moveTo(dateX, line).lineTo(w.left + w.width, line).lineWidth(0.6).strokeColor(Colors.ink).stroke()
  })
  const signer = [signatory.name, signatory.title].filter((part) => part !== undefined && part !== "").join(", ")
  // each line is read as its label and what is written under it
  w.tags.content("P", () => {
    w.font("sansSemiBold", Type.label - 0.6, Colors.faint)
    w.doc.text("SIGNATURE", w.left, line + 3, { lineBreak: false, characterSpacing: 0.5 })
    w.font("sans", Type.small, Colors.ink)
    const name = w.fitLine(signer, "sans", Type.small, signatureWidth, 6.6)
    w.write(name.text, "sans", w.left, line + 13, { lineBreak: false })
  })
  w.tags.content("P", () => {
    w.font("sansSemiBold", Type.label - 0.6, Colors.faint)
    w.doc.text("DATE", dateX, line + 3, { lineBreak: false, characterSpacing: 0.5 })
    w.font("sans", Type.small, Colors.ink)
    const date = w.fitLine(signatory.date, "sans", Type.small, dateWidth, 6.6)
    w.write(date.text, "sans", dateX, line + 13, { lineBreak: false })
  })
  w.y = line + 13 + Type.small + 6
}

/** The fields of one part in declaration order: runs of short values as grids, then prose, tables. */
/** `<PREFIX>_NAME` with `_TITLE` and `_DATE` beside it: a signatory, drawn as a sign-off block. */
const signatoryPrefix = (field: FieldMeta, keys: ReadonlySet<string>): string | undefined => {
  const prefix = field.key.endsWith("_NAME") ? field.key.slice(0, -"_NAME".length) : undefined
  return prefix !== undefined && keys.has(`${prefix}_TITLE`) && keys.has(`${prefix}_DATE`) ? prefix : undefined
}

/**
 * The role as a caption, the signatory's statement, then signature and date lines with name,
 * title and date under them; kept on one page unless the statement alone is longer than a page.
 */
const signatoryHeight = (w: Writer, content: Content, prefix: string) => {
  const statement = content.text(`${prefix}_STATEMENT`)
  w.font("serif", Type.body)
  const statementHeight = statement === undefined
    ? 0
    : w.heightOf(statement, "serif", { width: w.width, lineGap: Type.bodyGap }) + 8
  return Type.label + 6 + statementHeight + signOffHeight
}

const drawSignatory = (w: Writer, content: Content, field: FieldMeta, prefix: string) => {
  w.keep(signatoryHeight(w, content, prefix))
  w.caption(field.label)
  if (content.has(`${prefix}_STATEMENT`)) w.blocks(content.blocks(`${prefix}_STATEMENT`))
  drawSignOff(w, {
    name: content.text(field.key) ?? "",
    title: content.text(`${prefix}_TITLE`),
    date: content.display(`${prefix}_DATE`)?.value ?? ""
  })
  w.space(8)
}

const drawFields = (w: Writer, content: Content, fields: ReadonlyArray<FieldMeta>) => {
  const keys = new Set(fields.map((field) => field.key))
  const signed = new Set<string>()
  let facts: Array<string> = []
  const flush = () => {
    drawFacts(w, content, facts)
    facts = []
  }
  for (const field of fields) {
    if (signed.has(field.key)) continue
    const prefix = signatoryPrefix(field, keys)
    if (prefix !== undefined) {
      flush()
      for (const suffix of ["_TITLE", "_DATE", "_STATEMENT"]) signed.add(`${prefix}${suffix}`)
      drawSignatory(w, content, field, prefix)
      continue
    }
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
  w.tags.group("Sect", () => drawSectionBody(w, content, section, number, graphic))
}

const drawSectionBody = (
  w: Writer,
  content: Content,
  section: SectionDef,
  number: number,
  graphic: Picture | undefined
): void => {
  const provided = section.parts.some((part) => Object.keys(part.fields).some((key) => content.has(key)))
  const first = section.parts[0]
  const next = !provided
    ? 40
    : graphic
    ? graphic.height + 10
    : first === undefined
    ? 0
    : first.title
    ? w.headingNeed(2, `${number}.1 ${first.title}`, leadHeight(w, content, fieldsOf(content, first)))
    : leadHeight(w, content, fieldsOf(content, first))
  w.heading(1, `${number}. ${section.title}`, next)
  if (!provided) {
    w.callout("No information was provided for this section.")
    return
  }
  if (graphic) w.image(graphic)
  section.parts.forEach((part, index) => {
    const fields = fieldsOf(content, part)
    if (part.title) w.heading(2, `${number}.${index + 1} ${part.title}`, leadHeight(w, content, fields))
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
