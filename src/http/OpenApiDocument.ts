import type { OpenApi } from "@effect/platform"
import { problemCodeFields, ProblemContentType } from "../domain/Problem.ts"

/**
 * HttpApi declares its built-in decode failure on every endpoint; the problem middleware restates
 * it as `InvalidRequest` (application/problem+json), so the document says that instead.
 */
export const describeDecodeFailuresAsProblems = (document: Record<string, any>): Record<string, any> => {
  const spec = document as OpenApi.OpenAPISpec
  const { HttpApiDecodeError: _dropped, ...schemas } = spec.components.schemas
  for (const item of Object.values(spec.paths)) {
    for (const operation of Object.values(item)) {
      const bad = (operation as OpenApi.OpenAPISpecOperation | undefined)?.responses?.[400]
      if (bad === undefined) continue
      // endpoint-specific 400 problems (e.g. UnsupportedPart) stay listed beside InvalidRequest
      const declared = [...refsIn(bad.content, new Set())].filter((name) =>
        name !== "HttpApiDecodeError" && name !== "InvalidRequest"
      )
      const refs = ["InvalidRequest", ...declared].map((name) => ({ $ref: `#/components/schemas/${name}` }))
      ;(operation as any).responses[400] = {
        description: "Invalid request: `invalidParams` names each rejected parameter",
        content: { "application/problem+json": { schema: refs.length === 1 ? refs[0] : { anyOf: refs } } }
      }
    }
  }
  const published = Object.fromEntries(Object.entries(schemas).map(publishedProblem))
  return withExamples(pruneUnreferencedSchemas(declareProblemMediaType({
    ...spec,
    components: { ...spec.components, schemas: published }
  })))
}

/**
 * Each problem class declares `application/problem+json`, and the server sends it so; but when two
 * problems of an endpoint share a status, HttpApi joins them into one union without that encoding,
 * and the document would say `application/json`. Such a response is declared as it is sent.
 */
const declareProblemMediaType = (spec: OpenApi.OpenAPISpec): OpenApi.OpenAPISpec => {
  const schemas = spec.components.schemas as Record<string, unknown>
  for (const item of Object.values(spec.paths)) {
    for (const operation of Object.values(item) as Array<any>) {
      for (const [status, response] of Object.entries(operation?.responses ?? {}) as Array<[string, any]>) {
        const content = response?.content
        if (Number(status) < 400 || content === undefined || Object.keys(content).join() !== "application/json") {
          continue
        }
        const refs = [...refsIn(content, new Set())]
        if (refs.length > 0 && refs.every((name) => isProblemSchema(schemas[name]))) {
          response.content = { [ProblemContentType]: content["application/json"] }
        }
      }
    }
  }
  return spec
}

const problemFields = ["type", "title", "status", "detail"]

/**
 * A problem document as it is sent (see the problem middleware): without the error class's
 * internal `_tag`, with SPEC's `error` (short code) and `message` (explanation) fields.
 */
const publishedProblem = ([name, schema]: [string, any]): [string, any] => {
  const properties = schema?.properties
  if (typeof properties !== "object" || !problemFields.every((field) => field in properties)) return [name, schema]
  const { _tag: _internal, ...published } = properties
  const required = (schema.required as Array<string> | undefined ?? []).filter((field) => field !== "_tag")
  return [name, {
    ...schema,
    properties: {
      ...published,
      error: { type: "string", description: "Short code of the problem type (its slug in snake case)" },
      message: { type: "string", description: "The explanation; the same text as `detail`" }
    },
    required: [...required, "error", "message"]
  }]
}

const refsIn = (value: unknown, into: Set<string>): Set<string> => {
  if (Array.isArray(value)) value.forEach((item) => refsIn(item, into))
  else if (typeof value === "object" && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string") into.add(child.replace("#/components/schemas/", ""))
      else refsIn(child, into)
    }
  }
  return into
}

/** Keeps only the component schemas reachable from the paths. */
export const pruneUnreferencedSchemas = (spec: OpenApi.OpenAPISpec): OpenApi.OpenAPISpec => {
  const all = spec.components.schemas
  const reachable = new Set<string>()
  const pending = [...refsIn(spec.paths, new Set())]
  while (pending.length > 0) {
    const name = pending.pop()!
    if (reachable.has(name) || all[name] === undefined) continue
    reachable.add(name)
    pending.push(...refsIn(all[name], new Set()))
  }
  const schemas = Object.fromEntries(Object.entries(all).filter(([name]) => reachable.has(name)))
  return { ...spec, components: { ...spec.components, schemas } }
}

const isProblemSchema = (schema: any): boolean =>
  typeof schema?.properties === "object" &&
  [...problemFields, "error", "message"].every((field) => field in schema.properties)

/**
 * The example of a schema, from the domain schemas' `examples` annotations (which the JSON Schema
 * carries): its own first example, else one assembled from its parts' examples when every required
 * property has one (problem bodies: each field's value, plus the published `error` and `message`).
 */
const exampleOf = (schema: any, schemas: Record<string, any>, depth = 0): unknown => {
  if (depth > 12 || typeof schema !== "object" || schema === null) return undefined
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0]
  if (typeof schema.$ref === "string") {
    return exampleOf(schemas[schema.$ref.replace("#/components/schemas/", "")], schemas, depth + 1)
  }
  if (Array.isArray(schema.anyOf)) {
    for (const option of schema.anyOf) {
      const example = exampleOf(option, schemas, depth + 1)
      if (example !== undefined) return example
    }
    return undefined
  }
  if (schema.type === "array") {
    const item = exampleOf(schema.items, schemas, depth + 1)
    return item === undefined ? undefined : [item]
  }
  if (typeof schema.properties !== "object") return undefined
  const problem = isProblemSchema(schema)
  const required = new Set<string>(schema.required ?? [])
  const example: Record<string, unknown> = {}
  for (const [key, property] of Object.entries(schema.properties as Record<string, unknown>)) {
    if (problem && (key === "error" || key === "message")) continue
    const value = exampleOf(property, schemas, depth + 1)
    if (value !== undefined) example[key] = value
    else if (required.has(key)) return undefined
  }
  if (Object.keys(example).length === 0) return undefined
  return problem ? { ...example, ...problemCodeFields(example) } : example
}

/** Gives every request and response body whose schema has an example that example (shown by `/docs`). */
export const withExamples = (spec: OpenApi.OpenAPISpec): OpenApi.OpenAPISpec => {
  const schemas = spec.components.schemas as Record<string, any>
  const annotate = (content: Record<string, any> | undefined) => {
    for (const media of Object.values(content ?? {})) {
      if (media?.schema === undefined || media.example !== undefined) continue
      const example = exampleOf(media.schema, schemas)
      if (example !== undefined) media.example = example
    }
  }
  for (const item of Object.values(spec.paths)) {
    for (const operation of Object.values(item) as Array<any>) {
      if (typeof operation !== "object" || operation === null) continue
      annotate(operation.requestBody?.content)
      for (const response of Object.values(operation.responses ?? {}) as Array<any>) annotate(response?.content)
    }
  }
  return spec
}
