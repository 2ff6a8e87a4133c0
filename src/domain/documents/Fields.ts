import { Schema } from "effect"

/**
 * The vocabulary contracts are written in. Each builder returns an Effect Schema annotated with
 * what the contract document and the layout need (label, kind, placeholder, section), so the
 * payload validation, the OpenAPI/MCP schemas, the contract document and the rendered sections
 * all derive from one declaration per key.
 */
export const FieldMetaId: unique symbol = Symbol.for("app/domain/FieldMeta")

export type Tone = "good" | "caution" | "warning" | "danger" | "neutral"

export interface Enumeration {
  readonly name: string
  readonly values: ReadonlyArray<string>
  readonly labels: Readonly<Record<string, string>>
  readonly tones: Readonly<Record<string, Tone>>
}

/** A named value set, e.g. `risk`: `risk-low` … `risk-critical`, with display labels and tones. */
export const enumeration = (
  name: string,
  entries: Readonly<Record<string, readonly [label: string, tone: Tone]>>
): Enumeration => ({
  name,
  values: Object.keys(entries),
  labels: Object.fromEntries(Object.entries(entries).map(([value, [label]]) => [value, label])),
  tones: Object.fromEntries(Object.entries(entries).map(([value, [, tone]]) => [value, tone]))
})

export type FieldKind = "text" | "date" | "prose" | "html" | "choice" | "table"

export interface ColumnMeta {
  readonly key: string
  readonly label: string
  readonly placeholder: string
  /** Relative width of the column in the rendered table. */
  readonly width: number
  readonly required: boolean
  readonly choice?: Enumeration
}

export interface FieldMeta {
  readonly key: string
  readonly label: string
  readonly kind: FieldKind
  readonly section: string
  readonly placeholder: unknown
  readonly required: boolean
  readonly choice?: Enumeration
  readonly columns?: ReadonlyArray<ColumnMeta>
}

/**
 * A payload object (the payload itself, a table row): SPEC allows additional keys, so besides its
 * fields it accepts any other key, and says so where it is published (`additionalProperties: true`;
 * Effect would describe the unknown value with an `$id` of its own). `validatePayload` reports each
 * such key as a warning naming its path.
 */
export const openStruct = <Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.Struct(fields, Schema.Record({ key: Schema.String, value: Schema.Unknown }))
    .annotations({ jsonSchema: { additionalProperties: true } })

/** Size caps per value: the whole payload is capped at 1 MB, these keep one value from being absurd. */
export const Limits = { text: 2_000, prose: 20_000, html: 100_000, cell: 4_000, rows: 300 } as const

const nonBlank = <S extends Schema.Schema<string>>(schema: S) =>
  schema.pipe(Schema.filter((value) => value.trim().length > 0, { message: () => "must not be blank" }))

const boundedString = (max: number) =>
  Schema.String.pipe(Schema.maxLength(max, { message: () => `must be at most ${max} characters` }))

const isoDate = Schema.String.pipe(
  Schema.filter((value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), {
    message: () => "must be a date written YYYY-MM-DD"
  })
)

const choiceSchema = (choice: Enumeration) =>
  Schema.Literal(...(choice.values as [string, ...Array<string>])).annotations({
    message: () => `must be one of ${choice.values.join(", ")}`
  })

/** A field before it is placed in a section. */
export interface FieldSpec {
  readonly kind: FieldKind
  readonly label: string
  readonly placeholder: unknown
  readonly description?: string
  readonly required: boolean
  readonly choice?: Enumeration
  readonly columns?: ReadonlyArray<ColumnMeta>
  readonly maxRows?: number
}

interface Options {
  readonly description?: string
  readonly required?: boolean
}

const spec = (kind: FieldKind, label: string, placeholder: unknown, options: Options = {}): FieldSpec => ({
  kind,
  label,
  placeholder,
  required: options.required ?? false,
  ...(options.description === undefined ? {} : { description: options.description })
})

/** A short value shown in a facts grid (a name, a number, a citation). */
export const text = (label: string, placeholder: string, options?: Options) => spec("text", label, placeholder, options)
/** A calendar date, `YYYY-MM-DD`. */
export const date = (label: string, placeholder: string, options?: Options) => spec("date", label, placeholder, options)
/** Plain text of one or more paragraphs (blank lines separate paragraphs). */
export const prose = (label: string, placeholder: string, options?: Options) =>
  spec("prose", label, placeholder, options)
/** A raw HTML field: the sanitized subset is rendered, anything else dropped and counted. */
export const html = (label: string, placeholder: string, options?: Options) => spec("html", label, placeholder, options)
/** One value of an enumeration. */
export const choice = (label: string, of: Enumeration, placeholder: string, options?: Options): FieldSpec => ({
  ...spec("choice", label, placeholder, options),
  choice: of
})

/**
 * The same value set, recoloured where the question gives the values another meaning (a red flag
 * present is bad news; an exception that applies is not). Its values and name do not change.
 */
export const retoned = (of: Enumeration, tones: Readonly<Record<string, Tone>>): Enumeration => ({
  ...of,
  tones: { ...of.tones, ...tones }
})

export interface ColumnOptions {
  readonly width?: number
  readonly required?: boolean
  readonly choice?: Enumeration
}

export const column = (label: string, placeholder: string, options: ColumnOptions = {}) => ({
  label,
  placeholder,
  options
})
type ColumnSpec = ReturnType<typeof column>

/** An array of row objects, rendered as a table whose header repeats on every page it spans. */
export const table = (
  label: string,
  columns: Readonly<Record<string, ColumnSpec>>,
  options: Options & { readonly maxRows?: number } = {}
): FieldSpec => {
  const metas = Object.entries(columns).map(([key, c]): ColumnMeta => ({
    key,
    label: c.label,
    placeholder: c.placeholder,
    width: c.options.width ?? 1,
    required: c.options.required ?? false,
    ...(c.options.choice ? { choice: c.options.choice } : {})
  }))
  return {
    ...spec("table", label, [Object.fromEntries(metas.map((c) => [c.key, c.placeholder]))], options),
    columns: metas,
    maxRows: options.maxRows ?? Limits.rows
  }
}

const cellSchema = (column: ColumnMeta): Schema.Schema<string> => {
  const base = column.choice ? choiceSchema(column.choice) : boundedString(Limits.cell)
  return column.required ? nonBlank(base) : base
}

const valueSchema = (field: FieldSpec): Schema.Schema<any, any> => {
  switch (field.kind) {
    case "text":
      return boundedString(Limits.text)
    case "prose":
      return boundedString(Limits.prose)
    case "html":
      return boundedString(Limits.html)
    case "date":
      return isoDate
    case "choice":
      return choiceSchema(field.choice!)
    case "table": {
      const row = openStruct(Object.fromEntries(field.columns!.map((c) => [
        c.key,
        c.required ? cellSchema(c) : Schema.optionalWith(cellSchema(c), { exact: true })
      ])))
      return Schema.Array(row).pipe(
        Schema.maxItems(field.maxRows!, { message: () => `must have at most ${field.maxRows} rows` })
      )
    }
  }
}

/**
 * The annotated schema of one key; the property is optional unless the field is required. Its
 * description says where the key belongs (`where`: the section, and the step or part within it)
 * and what to write (the field's own description, else its label), so a payload can be written
 * from the schema alone.
 */
export const fieldSchema = (key: string, section: string, field: FieldSpec, where: string = section) => {
  const meta: FieldMeta = {
    key,
    label: field.label,
    kind: field.kind,
    section,
    placeholder: field.placeholder,
    required: field.required,
    ...(field.choice ? { choice: field.choice } : {}),
    ...(field.columns ? { columns: field.columns } : {})
  }
  const base = valueSchema(field)
  const schema = (field.required && field.kind !== "table" && field.kind !== "choice" ? nonBlank(base) : base)
    .annotations({
      title: field.label,
      description: `${where}: ${field.description ?? field.label}`,
      examples: [field.placeholder],
      [FieldMetaId]: meta
    })
  return field.required ? schema : Schema.optionalWith(schema, { exact: true })
}
