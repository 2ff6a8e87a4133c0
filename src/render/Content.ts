import type { Contract } from "../domain/documents/Contract.ts"
import type { Tone } from "../domain/documents/Fields.ts"
import { type Block, proseBlocks, sanitizeHtml } from "./Html.ts"
import type { Fallback } from "./pdf/FallbackFonts.ts"
import { unprintable } from "./pdf/TextRuns.ts"

/**
 * A validated payload turned into what the layout draws: display strings, enum labels and tones,
 * sanitized rich text. Non-fatal issues found on the way become warnings (never with values).
 */
export interface Content {
  readonly contract: Contract
  readonly text: (key: string) => string | undefined
  readonly display: (key: string) => { readonly value: string; readonly tone?: Tone } | undefined
  readonly blocks: (key: string) => ReadonlyArray<Block>
  readonly rows: (key: string) => ReadonlyArray<Readonly<Record<string, string>>>
  readonly has: (key: string) => boolean
  readonly warnings: Array<string>
}

const longDate = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" })

const formatDate = (iso: string): string => longDate.format(new Date(`${iso}T00:00:00Z`))

/** Control characters other than line breaks and tabs have no place in a document. */
const clean = (value: string) => value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "")

export const prepareContent = (
  contract: Contract,
  values: Readonly<Record<string, unknown>>,
  warnings: ReadonlyArray<string>,
  fallback: Fallback
): Content => {
  const notes = [...warnings]
  const strings = new Map<string, string>()
  const tables = new Map<string, Array<Record<string, string>>>()
  const rich = new Map<string, ReadonlyArray<Block>>()

  const check = (value: string, where: string) => {
    // only what no embedded face can draw is reported: the draft warning must not cry wolf
    const missing = Math.max(unprintable(value, "serif", fallback), unprintable(value, "sans", fallback))
    if (missing > 0) notes.push(`${where}: ${missing} character(s) the embedded fonts cannot draw`)
    return clean(value)
  }

  for (const field of contract.fields) {
    const value = values[field.key]
    if (value === undefined) continue
    if (field.kind === "table") {
      const rows = (value as ReadonlyArray<Record<string, string>>).map((row, index) =>
        Object.fromEntries(
          Object.entries(row).map(([key, cell]) => [key, check(cell, `${field.key}[${index}].${key}`)])
        )
      )
      if (rows.length > 0) tables.set(field.key, rows)
      continue
    }
    const text = check(value as string, field.key)
    if (text.trim() === "") continue
    strings.set(field.key, text)
    if (field.kind === "html") {
      const sanitized = sanitizeHtml(text)
      if (sanitized.dropped > 0) {
        notes.push(`${field.key}: ${sanitized.dropped} HTML element(s) or attribute(s) dropped`)
      }
      rich.set(field.key, sanitized.blocks)
    } else if (field.kind === "prose") {
      rich.set(field.key, proseBlocks(text))
    }
  }

  const display = (key: string) => {
    const value = strings.get(key)
    const field = contract.fieldsByKey.get(key)
    if (value === undefined || field === undefined) return undefined
    if (field.choice) {
      return { value: field.choice.labels[value] ?? value, tone: field.choice.tones[value] ?? "neutral" }
    }
    if (field.kind === "date") return { value: formatDate(value) }
    return { value }
  }
  return {
    contract,
    text: (key) => strings.get(key),
    display,
    blocks: (key) => rich.get(key) ?? [],
    rows: (key) => tables.get(key) ?? [],
    has: (key) => strings.has(key) || tables.has(key),
    warnings: notes
  }
}
