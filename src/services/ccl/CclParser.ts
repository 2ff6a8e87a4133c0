import type { ControlRow, EccnEntry, ItemBlock, LabeledText } from "../../domain/Eccn.ts"
import {
  elements,
  findAll,
  findAppendix,
  normalizeSpace,
  textOf,
  type XmlElement,
  XmlParseError
} from "../xml/XmlTree.ts"
import { controlRowsOf } from "./ControlRows.ts"
import { compareParagraphs, nextDesignation, paragraphOf } from "./Paragraphs.ts"

/**
 * Reads the Commerce Control List out of the eCFR XML of part 774. Supplement No. 1 is a flat run
 * of elements: `HD1` category and product-group headings, an ECCN heading (`<FP-2><B>3A001 …</B>`,
 * sometimes `<FP-1><B>`), block headings (`<FP-1><E T="04">License Requirements</E>`, sometimes
 * `<HD1>` or `<I>`), labeled fields (`<FP-1><I>LVS:</I> N/A`), the control table and the items.
 */

export interface ParsedCcl {
  /** Entries by ECCN, in the order the supplement lists them. */
  readonly entries: ReadonlyMap<string, EccnEntry>
}

export const SupplementLabel = "Supplement No. 1 to Part 774"

type Block = "requirements" | "exceptions" | "items"

const categoryHeading = /^Category\s+(\d+)\s*[—–-]\s*(.+)$/
const groupHeading = /^([A-E])\.\s+(.+)$/
const categoryPartHeading = /^Part\s+(?:\d+|[IVX]+)\s*[—–-]/
const eccnHeading = /^(\d[A-E]\d{3})\s+(\S.*)$/
const exceptionSymbol = /^[A-Z]{2,4}$/

const blockOf = (heading: string): Block | undefined => {
  const h = heading.replace(/[:.]$/, "").toLowerCase()
  if (h === "license requirements") return "requirements"
  if (h.startsWith("list based license exceptions") || h === "license exceptions") return "exceptions"
  if (h === "special conditions for sta") return "exceptions"
  if (h === "list of items controlled") return "items"
  return undefined
}

const firstElementChild = (element: XmlElement): XmlElement | undefined => {
  for (const child of element.children) {
    if (typeof child === "string") {
      if (child.trim() !== "") return undefined
    } else return child
  }
  return undefined
}

/** `<FP-1><I>Label:</I> text</FP-1>` → { label, text }; the label must open the element. */
const fieldOf = (element: XmlElement): LabeledText | undefined => {
  const first = firstElementChild(element)
  if (first === undefined || (first.name !== "I" && first.name !== "E")) return undefined
  const label = textOf(first)
  if (!/^[A-Z][^.]{0,60}:$/.test(label) && label !== "Items") return undefined
  const rest = normalizeSpace(element.children.slice(element.children.indexOf(first) + 1).map(textOf).join(" "))
  return { label: label.replace(/:$/, ""), text: rest }
}

/** A block heading written as an emphasized paragraph (`<FP-1><E T="04">License Requirements</E></FP-1>`). */
const emphasizedHeading = (element: XmlElement): Block | undefined => {
  const first = firstElementChild(element)
  if (first === undefined || (first.name !== "E" && first.name !== "I")) return undefined
  return textOf(first) === textOf(element) ? blockOf(textOf(element)) : undefined
}

const isTable = (element: XmlElement) =>
  element.name === "TABLE" || element.name === "GPOTABLE" || findAll(element, (e) => e.name === "TABLE").length > 0

const controlRows = (table: XmlElement): Array<ControlRow> =>
  findAll(table, (e) => e.name === "TR").flatMap((row) =>
    controlRowsOf(elements(row).filter((cell) => cell.name === "TD").map(textOf))
  )

/** A NOTE: its heading run into the first paragraph ("Note: …"), further paragraphs on their own lines. */
const noteText = (note: XmlElement) => {
  const parts = elements(note).map(textOf).filter((t) => t !== "")
  const [first, second, ...rest] = parts
  if (first === undefined) return ""
  const head = elements(note)[0]?.name === "HED" && second !== undefined ? [`${first} ${second}`, ...rest] : parts
  return head.join("\n")
}

const isNoteText = (text: string) => /^(?:technical\s+)?notes?\b|^n\.\s?b\./i.test(text)

interface EntryBuilder {
  readonly eccn: string
  readonly heading: string
  readonly category: { number: number; title: string | null }
  readonly productGroup: { letter: string; title: string | null }
  block: Block | undefined
  itemsStarted: boolean
  lastParagraph: string | undefined
  noteList: string | undefined
  readonly reasonForControl: Array<string>
  readonly controls: Array<ControlRow>
  readonly requirementNotes: Array<string>
  readonly exceptions: Array<LabeledText>
  readonly exceptionNotes: Array<string>
  readonly fields: Array<LabeledText>
  readonly items: Array<ItemBlock>
}

const addItem = (entry: EntryBuilder, kind: ItemBlock["kind"], text: string) => {
  if (text === "") return
  if (kind === "text" && isNoteText(text)) kind = "note"
  const paragraph = kind === "text" ? paragraphOf(text) : undefined
  if (paragraph !== undefined && isEntryParagraph(entry, paragraph)) {
    entry.lastParagraph = paragraph
    entry.items.push({ kind: "paragraph", paragraph, depth: paragraph.split(".").length - 1, text })
  } else entry.items.push({ kind, paragraph: null, depth: 0, text })
}

/**
 * Notes are usually `NOTE` elements, but some lettered lists inside notes are printed as plain
 * paragraphs (`a. Smart cards …` after 5A002.a.4). A designation belongs to the entry only when it
 * moves forward in document order; one that restarts (`a` after `a.2`) opens a note list, and its
 * immediate successors (`b`, `c` …) stay in that list.
 */
const isEntryParagraph = (entry: EntryBuilder, paragraph: string): boolean => {
  const continuesNoteList = entry.noteList !== undefined && nextDesignation(entry.noteList) === paragraph
  if (
    !continuesNoteList && (entry.lastParagraph === undefined || compareParagraphs(paragraph, entry.lastParagraph) > 0)
  ) {
    entry.noteList = undefined
    return true
  }
  entry.noteList = paragraph
  return false
}

const addField = (entry: EntryBuilder, field: LabeledText) => {
  const label = field.label
  if (/^reasons? for control$/i.test(label)) {
    entry.block = "requirements"
    entry.reasonForControl.push(...field.text.split(/,|;|\band\b/).map((r) => r.trim()).filter((r) => r !== ""))
    return
  }
  if (entry.block !== "items" && exceptionSymbol.test(label)) {
    entry.block = "exceptions"
    entry.exceptions.push(field)
    return
  }
  if (/^(related controls|related definitions|unit|items)$/i.test(label)) entry.block = "items"
  if (entry.block === "items" && !entry.itemsStarted) {
    if (/^items$/i.test(label)) {
      entry.itemsStarted = true
      addItem(entry, "text", field.text)
    } else entry.fields.push(field)
    return
  }
  addText(entry, field.text === "" ? field.label : `${field.label}: ${field.text}`)
}

const addText = (entry: EntryBuilder, text: string) => {
  if (text === "") return
  switch (entry.block) {
    case "exceptions": {
      // A list-based exception often continues on the following lines ("LVS: N/A for MT" then
      // "Yes for:" and "$1500: 3A001.c."); cross-references and notes stand alone.
      const last = entry.exceptions.length - 1
      if (last >= 0 && !/^(?:see\b|notes?\b|n\.b\.)/i.test(text)) {
        entry.exceptions[last] = {
          label: entry.exceptions[last]!.label,
          text: `${entry.exceptions[last]!.text}\n${text}`
        }
      } else entry.exceptionNotes.push(text)
      return
    }
    case "items":
      entry.itemsStarted = true
      return addItem(entry, "text", text)
    default:
      return void entry.requirementNotes.push(text)
  }
}

const build = (entry: EntryBuilder): EccnEntry => ({
  eccn: entry.eccn,
  heading: entry.heading,
  category: entry.category,
  productGroup: entry.productGroup,
  licenseRequirements: {
    reasonForControl: entry.reasonForControl,
    controls: entry.controls,
    notes: entry.requirementNotes
  },
  licenseExceptions: { exceptions: entry.exceptions, notes: entry.exceptionNotes },
  listOfItemsControlled: { fields: entry.fields, items: entry.items }
})

/** Reads the CCL from part 774's document (or the bare supplement); throws `XmlParseError` when it is missing. */
export const parseCcl = (document: XmlElement): ParsedCcl => {
  const supplement = findAppendix(document, SupplementLabel)
  if (supplement === undefined) throw new XmlParseError(`${SupplementLabel} is missing from the part 774 XML`)
  const entries = new Map<string, EccnEntry>()
  let category: { number: number; title: string | null } | undefined
  let group: { letter: string; title: string | null } | undefined
  let current: EntryBuilder | undefined
  const close = () => {
    if (current !== undefined && !entries.has(current.eccn)) entries.set(current.eccn, build(current))
    current = undefined
  }

  for (const element of elements(supplement)) {
    const text = textOf(element)
    if (/^HD\d$/.test(element.name)) {
      const categoryMatch = categoryHeading.exec(text)
      const groupMatch = groupHeading.exec(text)
      if (categoryMatch) {
        close()
        category = { number: Number(categoryMatch[1]), title: categoryMatch[2]!.trim() }
        group = undefined
      } else if (groupMatch) {
        close()
        group = { letter: groupMatch[1]!, title: groupMatch[2]!.trim() }
      } else if (categoryPartHeading.test(text) && element.name === "HD1") {
        close()
      } else if (current !== undefined) {
        const block = blockOf(text)
        if (block !== undefined) current.block = block
        else if (current.block === "items") {
          current.itemsStarted = true
          addItem(current, "heading", text)
        } else addText(current, text)
      }
      continue
    }
    const first = firstElementChild(element)
    const headingMatch = first?.name === "B" ? eccnHeading.exec(text) : null
    if (headingMatch && textOf(first!).startsWith(headingMatch[1]!)) {
      close()
      const eccn = headingMatch[1]!
      current = {
        eccn,
        heading: headingMatch[2]!.trim(),
        category: category ?? { number: Number(eccn[0]), title: null },
        productGroup: group ?? { letter: eccn[1]!, title: null },
        block: undefined,
        itemsStarted: false,
        lastParagraph: undefined,
        noteList: undefined,
        reasonForControl: [],
        controls: [],
        requirementNotes: [],
        exceptions: [],
        exceptionNotes: [],
        fields: [],
        items: []
      }
      continue
    }
    if (current === undefined) continue
    const block = emphasizedHeading(element)
    if (block !== undefined) {
      current.block = block
      continue
    }
    if (isTable(element)) {
      const rows = controlRows(element)
      if (current.block !== "items" && rows.length > 0) current.controls.push(...rows)
      else addText(current, text)
      continue
    }
    if (element.name === "NOTE") {
      const note = noteText(element)
      if (current.block === "items") {
        current.itemsStarted = true
        addItem(current, "note", note)
      } else addText(current, note)
      continue
    }
    const field = fieldOf(element)
    if (field !== undefined) addField(current, field)
    else addText(current, text)
  }
  close()
  return { entries }
}
