import type { EccnAnswer, EccnEntryAnswer, ItemBlock } from "./Eccn.ts"

/**
 * The plain-text rendering of an ECCN answer: the same value as the JSON answer, laid out the way
 * the CCL prints an entry (heading, License Requirements, License Exceptions, List of Items
 * Controlled), then where the text comes from.
 */
export const renderEccnText = (answer: EccnAnswer): string =>
  answer.kind === "ear99"
    ? [`EAR99`, "", answer.explanation, "", `Citations: ${answer.citations.join("; ")}`, ""].join("\n")
    : renderEntry(answer)

const indentLines = (text: string, prefix: string) =>
  text.split("\n").map((line, i) => (i === 0 ? line : `${prefix}${line}`)).join("\n")

const itemLine = (block: ItemBlock) => {
  const indent = "  ".repeat(block.depth)
  return block.kind === "heading" ? `\n${block.text}` : `${indent}${indentLines(block.text, indent)}`
}

const renderEntry = ({ entry, paragraph, requested, source }: EccnEntryAnswer): string => {
  const lines: Array<string> = []
  const push = (...more: Array<string>) => lines.push(...more)
  push(`${entry.eccn} ${entry.heading}`)
  const category = entry.category.title ? `Category ${entry.category.number}—${entry.category.title}` : undefined
  const group = entry.productGroup.title ? `${entry.productGroup.letter}. ${entry.productGroup.title}` : undefined
  if (category) push(group ? `${category}; ${group}` : category)
  if (paragraph !== null) push(`Showing paragraph ${requested} with its subparagraphs and notes.`)

  push("", "License Requirements")
  const requirements = entry.licenseRequirements
  push(`Reason for Control: ${requirements.reasonForControl.join(", ") || "(none stated)"}`)
  if (requirements.controls.length > 0) {
    push("", "Control(s) | Country Chart (see Supp. No. 1 to part 738)")
    for (const control of requirements.controls) push(`- ${control.appliesTo} | ${control.countryChart}`)
  }
  for (const note of requirements.notes) push("", note)

  const exceptions = entry.licenseExceptions
  if (exceptions.exceptions.length > 0 || exceptions.notes.length > 0) {
    push("", "List Based License Exceptions (see part 740 for a description of all license exceptions)")
    for (const exception of exceptions.exceptions) push(`${exception.label}: ${indentLines(exception.text, "  ")}`)
    for (const note of exceptions.notes) push(note)
  }

  const loic = entry.listOfItemsControlled
  push("", "List of Items Controlled")
  for (const field of loic.fields) push(`${field.label}: ${field.text}`)
  if (loic.items.length > 0) push("Items:", ...loic.items.map(itemLine))

  push(
    "",
    `Source: ${source.citation}; eCFR as of ${source.issueDate}${
      source.stale ? " (stored copy: eCFR unreachable)" : ""
    }`,
    source.url,
    ""
  )
  return lines.join("\n")
}
