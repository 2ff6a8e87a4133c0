import type { OpenApi } from "@effect/platform"

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
  return pruneUnreferencedSchemas({
    ...spec,
    components: { ...spec.components, schemas: Object.fromEntries(Object.entries(schemas).map(publishedProblem)) }
  })
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
