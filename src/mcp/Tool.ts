import type { Effect } from "effect"
import { Context, JSONSchema, Option, Schema, SchemaAST } from "effect"
import { DecodeIssue } from "../domain/DecodeIssues.ts"
import type { Principal } from "../domain/Principal.ts"

/** MCP tool annotations: hints for clients deciding how to present or confirm a call. */
export interface ToolAnnotations {
  readonly title?: string
  readonly readOnlyHint?: boolean
  readonly destructiveHint?: boolean
  readonly idempotentHint?: boolean
  readonly openWorldHint?: boolean
}

/** What a tool returns: a domain schema (sent as `structuredContent` plus its JSON text), or text. */
export type ToolOutput<A> =
  | { readonly _tag: "Structured"; readonly schema: Schema.Schema<A, any, never> }
  | { readonly _tag: "Text"; readonly mimeType: string; readonly render: (value: A) => string }

export const structured = <A, I>(schema: Schema.Schema<A, I, never>): ToolOutput<A> => ({ _tag: "Structured", schema })

export const text = <A>(mimeType: string, render: (value: A) => string): ToolOutput<A> => ({
  _tag: "Text",
  mimeType,
  render
})

/** A tool's value with metadata for the result's `_meta` (the eCFR issue date, staleness …). */
export class Annotated<A> {
  constructor(readonly value: A, readonly meta: Readonly<Record<string, unknown>>) {}
}

/**
 * One MCP tool, declared once: its name and description for agents, its version, the input schema
 * (a domain `Schema.Struct` of JSON-typed fields), the output, and `run`, which calls the same
 * service method as the tool's REST twin. `enterprise` tools are disclosed to authenticated callers
 * only.
 */
export interface Tool<I, O, E, R> {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly version: string
  /** Why and what replaces it, when the tool is deprecated. */
  readonly deprecated?: string
  readonly enterprise: boolean
  /**
   * false: callable but left out of `tools/list` (a published name kept as an alias of a listed
   * tool, so agents do not pay for near-duplicates). Discovery still names it.
   */
  readonly listed: boolean
  readonly annotations: ToolAnnotations
  readonly input: Schema.Schema<I, any, never>
  readonly output: ToolOutput<O>
  readonly run: (input: I) => Effect.Effect<O | Annotated<O>, E, R>
}

export type Any = Tool<any, any, any, any>

/** Who called: the principal of the `tools/call` being run, for tools that bill or authorize per caller. */
export class Caller extends Context.Tag("app/mcp/Caller")<Caller, Principal>() {}

/** The services the tools of a list need from the catalogue (the caller comes with each call). */
export type Requirements<T extends Any> = T extends Tool<any, any, any, infer R> ? Exclude<R, Caller> : never

/**
 * A tool failure the caller can act on, answered as an error result whose `structuredContent` says
 * what to do (purchase information when a paid tool cannot be paid for).
 */
export class StructuredFailure {
  constructor(readonly message: string, readonly content: Readonly<Record<string, unknown>>) {}
}

/**
 * Arguments a tool's own validation refused after they passed its input schema (a document payload
 * is checked against the contract its `document` argument names): answered exactly as the
 * catalogue answers arguments its schema refuses, paths counted from the arguments.
 */
export class InvalidArguments extends Schema.TaggedError<InvalidArguments>()("InvalidArguments", {
  issues: Schema.Array(DecodeIssue)
}) {}

/** Read-only lookups of public regulatory data: the annotations nearly every tool here carries. */
export const readOnly = (title: string, openWorld = false): ToolAnnotations => ({
  title,
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: openWorld
})

export const make = <I, II, O, E, R>(
  tool: Omit<Tool<I, O, E, R>, "input" | "enterprise" | "listed"> & {
    readonly input: Schema.Schema<I, II, never>
    readonly enterprise?: boolean
    readonly listed?: boolean
  }
): Tool<I, O, E, R> => ({ ...tool, enterprise: tool.enterprise ?? false, listed: tool.listed ?? true })

const baseOf = (ast: SchemaAST.AST): SchemaAST.AST => SchemaAST.isRefinement(ast) ? baseOf(ast.from) : ast

const isStringLike = (ast: SchemaAST.AST): boolean => {
  const base = baseOf(ast)
  return SchemaAST.isStringKeyword(base) || SchemaAST.isTemplateLiteral(base) ||
    (SchemaAST.isLiteral(base) && typeof base.literal === "string") ||
    (SchemaAST.isUnion(base) &&
      base.types.every((member) => isStringLike(member) || SchemaAST.isUndefinedKeyword(member)))
}

/**
 * A string refined after a string transformation (`Trim` then lengths) documents its encoded side
 * only ("a string that will be trimmed"); restate the refinements' own description and limits.
 */
const documentRefinements = (ast: SchemaAST.AST): SchemaAST.AST => {
  const documented: Record<string, unknown> = { type: "string" }
  for (let node = ast; SchemaAST.isRefinement(node); node = node.from) {
    for (
      const [key, value] of Object.entries(SchemaAST.getJSONSchemaAnnotation(node).pipe(Option.getOrElse(() => ({}))))
    ) {
      if (!(key in documented)) documented[key] = value
    }
  }
  const description = SchemaAST.getDescriptionAnnotation(ast)
  if (Option.isSome(description)) documented.description = description.value
  return SchemaAST.annotations(ast, { [SchemaAST.JSONSchemaAnnotationId]: documented })
}

/** A field sent as a string in a URL (`NumberFromString` …) becomes its typed form in JSON arguments. */
const jsonField = (ast: SchemaAST.AST): SchemaAST.AST => {
  if (SchemaAST.isUnion(ast)) return SchemaAST.Union.make(ast.types.map(jsonField), ast.annotations)
  if (!isStringLike(SchemaAST.encodedAST(ast))) return ast
  if (!isStringLike(SchemaAST.typeAST(ast))) return SchemaAST.typeAST(ast)
  return SchemaAST.isRefinement(ast) && ast !== SchemaAST.typeAST(ast) ? documentRefinements(ast) : ast
}

/**
 * The JSON-arguments form of a domain parameter struct written for URLs: same fields, same
 * decoded type, but numbers and booleans are JSON numbers and booleans instead of strings.
 */
export const jsonArguments = <Fields extends Schema.Struct.Fields>(
  params: Schema.Struct<Fields>
): Schema.Schema<Schema.Struct.Type<Fields>, unknown> => {
  const ast = params.ast as SchemaAST.TypeLiteral
  const fields = ast.propertySignatures.map((field) =>
    new SchemaAST.PropertySignature(
      field.name,
      jsonField(field.type),
      field.isOptional,
      field.isReadonly,
      field.annotations
    )
  )
  return Schema.make(new SchemaAST.TypeLiteral(fields, ast.indexSignatures, ast.annotations))
}

/** A JSON Schema (2020-12, MCP's default dialect) with the object at the root, shared definitions under `$defs`. */
export const jsonSchemaOf = (schema: Schema.Schema.Any): Record<string, unknown> => {
  // Effect renders `{}` as "any non-nullish value"; MCP wants an object schema at the root
  const ast = SchemaAST.encodedAST(schema.ast)
  if (SchemaAST.isTypeLiteral(ast) && ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0) {
    return { type: "object", properties: {}, additionalProperties: false }
  }
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  const root = JSONSchema.fromAST(schema.ast, {
    definitions,
    target: "jsonSchema2020-12",
    topLevelReferenceStrategy: "skip"
  }) as unknown as Record<string, unknown>
  // a union of objects (an answer that comes in kinds) is still an object, as MCP requires at the root
  const typed = root.type === undefined && Array.isArray(root.anyOf) ? { type: "object", ...root } : root
  return Object.keys(definitions).length === 0 ? typed : { ...typed, $defs: definitions }
}

/** Schema keywords whose values are schemas or lists of schemas (everything an agent-facing walk must enter). */
const schemaValued = new Set(["items", "additionalProperties", "not", "contains", "propertyNames"])
const schemaListValued = new Set(["anyOf", "oneOf", "allOf", "prefixItems"])
const schemaMapValued = new Set(["properties", "$defs", "patternProperties"])

/**
 * Effect's generated descriptions restate the keywords beside them ("a string matching the pattern
 * …", "an array of at least 1 item(s)"); authored ones start with a capital, a backtick or a digit.
 */
const isGeneratedDescription = (value: unknown) =>
  typeof value === "string" &&
  /^an? (?:string|array|number|integer|non[ -]empty|positive|negative|non-negative|finite|boolean)\b/.test(value)

/**
 * A JSON Schema as an agent reads it: without the titles Effect generates from refinements
 * (`between(1, 100)`, `maxLength(32)`), descriptions that only restate a pattern, examples beside a
 * description that gives them, or an empty `required`; a date pattern becomes `format: "date"`. Every agent pays for these characters on every `tools/list`; they say nothing the
 * keywords beside them do not.
 */
export const leanSchema = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(leanSchema)
  if (typeof schema !== "object" || schema === null) return schema
  const lean: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === "title" || (key === "description" && isGeneratedDescription(value))) continue
    // the descriptions here carry their examples in backticks; the keyword would repeat them
    if (key === "examples" && typeof (schema as Record<string, unknown>).description === "string") continue
    if (key === "required" && Array.isArray(value) && value.length === 0) continue
    // a calendar date says so in two words instead of a regular expression
    if (key === "pattern" && value === "^\\d{4}-\\d{2}-\\d{2}$") {
      lean.format = "date"
      continue
    }
    if (schemaValued.has(key) || schemaListValued.has(key)) lean[key] = leanSchema(value)
    else if (schemaMapValued.has(key) && typeof value === "object" && value !== null) {
      lean[key] = Object.fromEntries(Object.entries(value).map(([name, member]) => [name, leanSchema(member)]))
    } else lean[key] = value
  }
  return lean
}

/**
 * The entry of a tool in `tools/list`, kept lean because agents pay for it before any work: no
 * display title (agents read the name and description; `/.well-known/mcp` carries the title for
 * interfaces), the input schema without generated noise, the annotations without hints that
 * mean nothing for a read-only tool, `_meta` only when a tool is past 1.0.0 or deprecated, and no output
 * schema (structured results have the shapes of their REST twins, published in `/openapi.json`;
 * listing them here was most of the catalogue's size).
 */
export const describe = (tool: Any): Record<string, unknown> => {
  const { destructiveHint, idempotentHint, title: _title, ...hints } = tool.annotations
  // MCP: the destructive and idempotent hints mean something only when a tool is not read-only;
  // hints equal to MCP's defaults (not read-only, destructive, not idempotent, open world) say nothing
  const given = hints.readOnlyHint === true ? hints : { ...hints, destructiveHint, idempotentHint }
  const defaults: Record<string, boolean> = {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true
  }
  const effects = Object.fromEntries(
    Object.entries(given).filter(([key, value]) => value !== undefined && defaults[key] !== value)
  )
  return {
    name: tool.name,
    description: tool.deprecated === undefined
      ? tool.description
      : `Deprecated: ${tool.deprecated} ${tool.description}`,
    inputSchema: leanSchema(jsonSchemaOf(tool.input)),
    annotations: effects,
    // defaults are left out (every tool starts at 1.0.0, not deprecated); discovery lists both for every tool
    ...(tool.version === "1.0.0" && tool.deprecated === undefined
      ? {}
      : {
        _meta: {
          ...(tool.version === "1.0.0" ? {} : { "svc/version": tool.version }),
          ...(tool.deprecated === undefined ? {} : { "svc/deprecated": true })
        }
      })
  }
}
