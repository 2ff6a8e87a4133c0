import { Either, Schema } from "effect"
import { CountryCode, MaxIdLength, PartyType } from "../../domain/Screening.ts"
import { MaxCsvLineChars } from "../../domain/ScreeningBatch.ts"
import type { BatchLine } from "../../services/screening/Batch.ts"

/**
 * A CSV batch body: one name per line, or a header row naming its columns (`name` first, then any
 * of `country`, `type`, `id`) followed by RFC 4180 records (fields in double quotes may hold
 * commas, doubled quotes and line breaks). Without a header a line is one name, commas included
 * ("KARIMOV, Rustam"); a line that is a single quoted field is unquoted. Blank lines are skipped;
 * each party keeps the number of the line it starts on. Values are data, never evaluated: a name
 * that begins with `=`, `+`, `-` or `@` is screened as written.
 */
export interface CsvProblem {
  readonly line: number
  readonly reason: string
}

interface CsvRecord {
  readonly line: number
  readonly raw: string
  readonly fields: ReadonlyArray<string>
  readonly wasQuoted: ReadonlyArray<boolean>
}

const Columns = ["name", "country", "type", "id"] as const
type Column = typeof Columns[number]

/** Splits the text into records; a record longer than the cap or an unterminated quote is refused. */
const recordsOf = (text: string): Either.Either<Array<CsvRecord>, CsvProblem> => {
  const records: Array<CsvRecord> = []
  let line = 1
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0
  while (at < text.length) {
    const startLine = line
    const start = at
    const fields: Array<string> = []
    const wasQuoted: Array<boolean> = []
    let field = ""
    let quoted = false
    let inQuotes = false
    let ended = false
    for (; at < text.length && !ended; at++) {
      if (at - start > MaxCsvLineChars) {
        return Either.left({ line: startLine, reason: `is longer than ${MaxCsvLineChars} characters` })
      }
      const char = text[at]!
      if (inQuotes) {
        if (char === "\"") {
          if (text[at + 1] === "\"") {
            field += "\""
            at++
          } else inQuotes = false
        } else {
          if (char === "\n") line++
          field += char
        }
      } else if (char === "\"" && field.trim() === "" && !quoted) {
        inQuotes = true
        quoted = true
        field = ""
      } else if (char === ",") {
        fields.push(field)
        wasQuoted.push(quoted)
        field = ""
        quoted = false
      } else if (char === "\n" || char === "\r") {
        if (char === "\r" && text[at + 1] === "\n") at++
        line++
        ended = true
      } else {
        field += char
      }
    }
    if (inQuotes) return Either.left({ line: startLine, reason: "has a quote that is not closed" })
    fields.push(field)
    wasQuoted.push(quoted)
    const raw = text.slice(start, at).replace(/\r?\n$|\r$/, "")
    if (raw.trim() !== "") records.push({ line: startLine, raw, fields, wasQuoted })
  }
  return Either.right(records)
}

const headerOf = (record: CsvRecord): ReadonlyArray<Column> | undefined => {
  const names = record.fields.map((field) => field.trim().toLowerCase())
  if (names[0] !== "name") return undefined
  if (!names.every((name) => (Columns as ReadonlyArray<string>).includes(name))) return undefined
  return new Set(names).size === names.length ? names as ReadonlyArray<Column> : undefined
}

const decodeCountry = Schema.decodeUnknownEither(CountryCode)
const decodeType = Schema.decodeUnknownEither(PartyType)

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1).toLowerCase()

const withColumns = (record: CsvRecord, header: ReadonlyArray<Column>): Either.Either<BatchLine, CsvProblem> => {
  if (record.fields.length > header.length) {
    return Either.left({ line: record.line, reason: `has more fields than the header (${header.length})` })
  }
  const value = (column: Column) => {
    const at = header.indexOf(column)
    const text = at < 0 ? undefined : record.fields[at]?.trim()
    return text === undefined || text === "" ? undefined : text
  }
  const country = value("country")
  const type = value("type")
  if (country !== undefined && Either.isLeft(decodeCountry(country.toUpperCase()))) {
    return Either.left({ line: record.line, reason: "has a country that is not an ISO alpha-2 code" })
  }
  if (type !== undefined && Either.isLeft(decodeType(capitalized(type)))) {
    return Either.left({ line: record.line, reason: "has a type other than Individual, Entity, Vessel or Aircraft" })
  }
  const id = value("id")
  if (id !== undefined && id.length > MaxIdLength) {
    return Either.left({ line: record.line, reason: `has an ID longer than ${MaxIdLength} characters` })
  }
  return Either.right({
    line: record.line,
    name: record.fields[0] ?? "",
    country: country?.toUpperCase(),
    type: type === undefined ? undefined : capitalized(type) as PartyType,
    id
  })
}

/** The parties of a CSV body, in order, or the first line that cannot be read. */
export const parseBatchCsv = (text: string): Either.Either<Array<BatchLine>, CsvProblem> =>
  Either.flatMap(recordsOf(text), (records) => {
    const header = records.length > 0 ? headerOf(records[0]!) : undefined
    if (header === undefined) {
      return Either.right(records.map((record) => ({
        line: record.line,
        name: record.fields.length === 1 ? record.fields[0]! : record.raw
      })))
    }
    return Either.all(records.slice(1).map((record) => withColumns(record, header)))
  })
