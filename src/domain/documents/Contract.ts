import { Either, Option, Schema, SchemaAST } from "effect"
import * as DecodeIssues from "../DecodeIssues.ts"
import type { DocumentContract, DocumentSlug } from "../Documents.ts"
import type { InvalidParameterIssue } from "../Problem.ts"
import { type FieldMeta, FieldMetaId, fieldSchema, type FieldSpec, openStruct } from "./Fields.ts"

/** Graphics the layout engine can draw for a section (see `src/render/graphics/`). */
export type GraphicName = "review-flow" | "risk-summary"

export interface PartDef {
  /** Sub-heading; a section's single untitled part has none. */
  readonly title?: string
  readonly fields: Readonly<Record<string, FieldSpec>>
  /** The part's other fields apply only when `key` holds `equals`; else `otherwise` is printed. */
  readonly gate?: { readonly key: string; readonly equals: string; readonly otherwise: string }
}

export interface SectionDef {
  readonly id: string
  readonly title: string
  readonly parts: ReadonlyArray<PartDef>
  /** Drawn at the top of the section from the payload. */
  readonly graphic?: GraphicName
}

/** A section of one untitled part. */
export const section = (
  id: string,
  title: string,
  fields: Readonly<Record<string, FieldSpec>>,
  options: { readonly graphic?: GraphicName } = {}
): SectionDef => ({ id, title, parts: [{ fields }], ...options })

export const part = (
  title: string,
  fields: Readonly<Record<string, FieldSpec>>,
  gate?: PartDef["gate"]
): PartDef => ({ title, fields, ...(gate ? { gate } : {}) })

export interface Presentation {
  /** `report`: cover, contents, numbered sections. `certificate`: one compact page. */
  readonly layout: "report" | "certificate"
  /** Shown above the title on the cover and in the running header. */
  readonly documentType: string
  /** The key whose value is the cover title (the item, the transaction, the program…). */
  readonly subjectKey: string
  /** Keys shown in the cover's summary card, in order. */
  readonly coverFacts: ReadonlyArray<string>
  /** The key naming the author (PDF metadata and the cover). */
  readonly authorKey: string
  /** An enumeration key whose value colours the cover card (overall risk, result…). */
  readonly statusKey?: string
}

/** A part of the analysis a document cannot stand without: missing when none of its keys has a value. */
export interface Judgement {
  readonly label: string
  readonly keys: ReadonlyArray<string>
}

export interface ContractDef {
  readonly slug: DocumentSlug
  readonly title: string
  readonly version: string
  readonly description: string
  readonly sections: ReadonlyArray<SectionDef>
  readonly authoringNotes: ReadonlyArray<string>
  readonly presentation: Presentation
  /** Defaults to every section but document control, approvals, certifications and version history. */
  readonly judgements?: ReadonlyArray<Judgement>
}

export interface Contract extends ContractDef {
  readonly judgements: ReadonlyArray<Judgement>
  readonly schema: Schema.Schema<Record<string, unknown>, Record<string, unknown>>
  /** Every key in declaration order, read back from the schema's annotations. */
  readonly fields: ReadonlyArray<FieldMeta>
  readonly fieldsByKey: ReadonlyMap<string, FieldMeta>
}

/** Where a key belongs, as the document shows it: the section, and the step or part inside it. */
export const whereOf = (section: SectionDef, part: PartDef): string =>
  part.title === undefined ? section.title : `${section.title} › ${part.title}`

const pascal = (slug: string) => slug.split("-").map((part) => part[0]!.toUpperCase() + part.slice(1)).join("")

const metaOf = (property: SchemaAST.PropertySignature): FieldMeta =>
  Option.getOrThrowWith(
    SchemaAST.getAnnotation<FieldMeta>(property.type, FieldMetaId),
    () => new Error(`contract key ${String(property.name)} has no field annotation`)
  )

export const defineContract = (def: ContractDef): Contract => {
  const properties: Record<string, ReturnType<typeof fieldSchema>> = {}
  for (const section of def.sections) {
    for (const part of section.parts) {
      for (const [key, field] of Object.entries(part.fields)) {
        if (Object.hasOwn(properties, key)) throw new Error(`${def.slug}: key ${key} is declared twice`)
        properties[key] = fieldSchema(key, section.id, field, whereOf(section, part))
      }
    }
  }
  // the placeholders make a complete payload: the example `/docs` shows for the request body
  const example = Object.fromEntries(
    def.sections.flatMap((section) =>
      section.parts.flatMap((part) => Object.entries(part.fields).map(([key, field]) => [key, field.placeholder]))
    )
  )
  const schema = openStruct(properties).annotations({
    identifier: `${pascal(def.slug)}Payload`,
    examples: [example],
    title: def.title,
    description: `${def.description} Additional keys, here and in table rows, are accepted and ignored (each ` +
      "counts as a render warning naming its path)."
  }) as unknown as Contract["schema"]
  const ast = SchemaAST.isTypeLiteral(schema.ast) ? schema.ast : undefined
  if (ast === undefined) throw new Error(`${def.slug}: contract schema is not a struct`)
  const fields = ast.propertySignatures.map(metaOf)
  const judgements = def.judgements ?? def.sections.filter((section) => !formalSections.has(section.id)).map((
    section
  ) => ({ label: section.title, keys: section.parts.flatMap((part) => Object.keys(part.fields)) }))
  return { ...def, schema, fields, fieldsByKey: new Map(fields.map((field) => [field.key, field])), judgements }
}

/** Sections that frame a document rather than carry its analysis. */
const formalSections = new Set(["control", "approval", "certification", "history"])

const provided = (value: unknown) =>
  typeof value === "string" ? value.trim() !== "" : Array.isArray(value) ? value.length > 0 : value !== undefined

/** Labels of the contract's judgements with no value in the payload, in contract order. */
export const missingJudgements = (contract: Contract, values: Readonly<Record<string, unknown>>): Array<string> =>
  contract.judgements.filter((judgement) => !judgement.keys.some((key) => provided(values[key])))
    .map((judgement) => judgement.label)

/** The `GET /pdf/<slug>/contract` document, derived from the contract schema. */
export const contractDocument = (contract: Contract): DocumentContract => {
  const enums: Record<string, { values: Array<string>; fields: Array<string> }> = {}
  const useEnum = (name: string, values: ReadonlyArray<string>, key: string) => {
    const entry = enums[name] ??= { values: [...values], fields: [] }
    entry.fields.push(key)
  }
  for (const field of contract.fields) {
    if (field.choice) useEnum(field.choice.name, field.choice.values, field.key)
    for (const column of field.columns ?? []) {
      if (column.choice) useEnum(column.choice.name, column.choice.values, `${field.key}[].${column.key}`)
    }
  }
  return {
    template: contract.slug,
    version: contract.version,
    title: contract.title,
    required: contract.fields.filter((field) => field.required).map((field) => field.key),
    raw_html_fields: contract.fields.filter((field) => field.kind === "html").map((field) => field.key),
    enums,
    authoring_notes: contract.authoringNotes,
    judgement_sections: contract.judgements.map((judgement) => judgement.label),
    sections: contract.sections.flatMap((section) =>
      section.parts.map((part) => ({ title: whereOf(section, part), keys: Object.keys(part.fields) }))
    ),
    fields: Object.fromEntries(contract.fields.map((field) => [field.key, field.placeholder]))
  }
}

export interface ValidPayload {
  readonly values: Readonly<Record<string, unknown>>
  /** Non-fatal issues found while validating (unknown keys), named without their values. */
  readonly warnings: ReadonlyArray<string>
}

/** Unknown keys listed one by one; beyond this a single warning counts the rest (a 1 MB payload holds thousands). */
export const MaxUnknownKeyWarnings = 50

const unknownKey = (path: string) => `unknown key ${JSON.stringify(path)} ignored`

/**
 * The decoded payload without the keys its contract does not know, at the top and in table rows
 * alike, each of those named by its path (`EXTRA`, `PARTIES[1].NOTE`) in the warnings.
 */
const knownKeys = (contract: Contract, decoded: Readonly<Record<string, unknown>>): ValidPayload => {
  const unknown: Array<string> = []
  const values: Record<string, unknown> = {}
  // decoded order (the contract's keys, then the others), the same whether the input was decoded before or not
  for (const [key, value] of Object.entries(decoded)) {
    const field = contract.fieldsByKey.get(key)
    if (field === undefined) unknown.push(key.slice(0, 80))
    else if (field.columns === undefined) values[key] = value
    else {
      const columns = new Set(field.columns.map((column) => column.key))
      values[key] = (value as ReadonlyArray<Record<string, unknown>>).map((row, index) =>
        Object.fromEntries(
          Object.entries(row).filter(([column]) => {
            if (!columns.has(column)) unknown.push(`${key}[${index}].${column.slice(0, 80)}`)
            return columns.has(column)
          })
        )
      )
    }
  }
  const listed = unknown.slice(0, MaxUnknownKeyWarnings).map(unknownKey)
  const rest = unknown.length - listed.length
  return { values, warnings: rest > 0 ? [...listed, `${rest} more unknown keys ignored`] : listed }
}

/**
 * Decodes a parsed JSON body against the contract, for REST and MCP alike: every bad key is
 * reported (phrased as every other input's decode failure), unknown keys at any depth are warnings.
 */
export const validatePayload = (
  contract: Contract,
  body: unknown
): Either.Either<ValidPayload, ReadonlyArray<InvalidParameterIssue>> => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return Either.left([{ name: "body", in: "body", reason: "must be a JSON object of template variables" }])
  }
  return Either.match(Schema.decodeUnknownEither(contract.schema, { errors: "all" })(body), {
    onLeft: (error) =>
      Either.left(
        DecodeIssues.fromParseError(error).map((issue) => ({
          name: issue.path === "" ? "body" : issue.path,
          in: "body" as const,
          reason: issue.message
        }))
      ),
    onRight: (decoded) => Either.right(knownKeys(contract, decoded))
  })
}
