import { Either, Option, ParseResult, Schema, SchemaAST } from "effect"
import type { DocumentContract, DocumentSlug } from "../Documents.ts"
import type { InvalidParameterIssue } from "../Problem.ts"
import { type FieldMeta, FieldMetaId, fieldSchema, type FieldSpec } from "./Fields.ts"

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
  const schema = Schema.Struct(properties).annotations({
    identifier: `${pascal(def.slug)}Payload`,
    examples: [example],
    title: def.title,
    description: `${def.description} Additional keys are accepted and ignored (each counts as a render warning).`
  }) as unknown as Contract["schema"]
  const ast = SchemaAST.isTypeLiteral(schema.ast) ? schema.ast : undefined
  if (ast === undefined) throw new Error(`${def.slug}: contract schema is not a struct`)
  const fields = ast.propertySignatures.map(metaOf)
  const judgements = def.judgements ?? def.sections.filter((section) => !formalSections.has(section.id)).map((
    section
  ) => ({ label: section.title, keys: section.parts.flatMap((part) => Object.keys(part.fields)) }))
  return { ...def, schema, fields, fieldsByKey: new Map(fields.map((field) => [field.key, field])), judgements }
}

/** Any value, published as the empty JSON Schema (Effect names the unknown type with an `$id` of its own). */
const AnyValue = Schema.Unknown.annotations({ jsonSchema: {} })

/**
 * The contract's schema with other keys accepted, as a tool argument (MCP `create_<slug>_pdf`): its
 * keys are checked as `validatePayload` checks them, an unknown key passes to become a render
 * warning, as over REST, instead of refusing the call.
 */
export const openPayloadSchema = (contract: Contract): Schema.Schema<Record<string, unknown>> => {
  const ast = contract.schema.ast as SchemaAST.TypeLiteral
  return Schema.make(
    new SchemaAST.TypeLiteral(
      ast.propertySignatures,
      [new SchemaAST.IndexSignature(SchemaAST.stringKeyword, AnyValue.ast, true)],
      ast.annotations
    )
  )
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

const issueName = (path: ReadonlyArray<PropertyKey>) =>
  path.reduce<string>(
    (name, part) =>
      typeof part === "number" ? `${name}[${part}]` : name === "" ? String(part) : `${name}.${String(part)}`,
    ""
  )

/** Effect's messages end by echoing the offending value; the caller has it, the problem body need not. */
const reasonOf = (issue: ParseResult.ArrayFormatterIssue) => {
  if (issue._tag === "Missing") return "is required"
  const message = issue.message.replace(/,? actual [\s\S]*$/, "")
  if (message.startsWith("Expected ReadonlyArray<")) return "must be an array of row objects"
  if (message.startsWith("Expected {")) return "must be an object"
  return message.slice(0, 300)
}

/** Decodes a parsed JSON body against the contract: every bad key is reported, unknown keys are warnings. */
export const validatePayload = (
  contract: Contract,
  body: unknown
): Either.Either<ValidPayload, ReadonlyArray<InvalidParameterIssue>> => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return Either.left([{ name: "body", in: "body", reason: "must be a JSON object of template variables" }])
  }
  const decoded = Schema.decodeUnknownEither(contract.schema, { errors: "all", onExcessProperty: "ignore" })(body)
  if (Either.isLeft(decoded)) {
    const issues = ParseResult.ArrayFormatter.formatErrorSync(decoded.left)
    return Either.left(issues.map((issue) => ({ name: issueName(issue.path), in: "body", reason: reasonOf(issue) })))
  }
  const warnings = Object.keys(body)
    .filter((key) => !contract.fieldsByKey.has(key))
    .map((key) => `unknown key ${JSON.stringify(key.slice(0, 80))} ignored`)
  return Either.right({ values: decoded.right, warnings })
}
