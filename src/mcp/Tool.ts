import type { Effect, Schema } from "effect"
import { JSONSchema, SchemaAST } from "effect"

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
  readonly annotations: ToolAnnotations
  readonly input: Schema.Schema<I, any, never>
  readonly output: ToolOutput<O>
  readonly run: (input: I) => Effect.Effect<O, E, R>
}

export type Any = Tool<any, any, any, any>

/** The services the tools of a list need. */
export type Requirements<T extends Any> = T extends Tool<any, any, any, infer R> ? R : never

/** Read-only lookups of public regulatory data: the annotations nearly every tool here carries. */
export const readOnly = (title: string, openWorld = false): ToolAnnotations => ({
  title,
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: openWorld
})

export const make = <I, II, O, E, R>(
  tool: Omit<Tool<I, O, E, R>, "input" | "enterprise"> & {
    readonly input: Schema.Schema<I, II, never>
    readonly enterprise?: boolean
  }
): Tool<I, O, E, R> => ({ ...tool, enterprise: tool.enterprise ?? false })

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
  return Object.keys(definitions).length === 0 ? root : { ...root, $defs: definitions }
}

/** The entry of a tool in `tools/list`. */
export const describe = (tool: Any): Record<string, unknown> => ({
  name: tool.name,
  title: tool.title,
  description: tool.deprecated === undefined ? tool.description : `Deprecated: ${tool.deprecated} ${tool.description}`,
  inputSchema: jsonSchemaOf(tool.input),
  ...(tool.output._tag === "Structured" ? { outputSchema: jsonSchemaOf(tool.output.schema) } : {}),
  annotations: tool.annotations,
  _meta: { "svc/version": tool.version, "svc/deprecated": tool.deprecated !== undefined }
})
