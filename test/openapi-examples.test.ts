import { HttpApi, HttpApiSchema, OpenApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Validator } from "@seriousme/openapi-schema-validator"
import { Option, Schema, SchemaAST as AST } from "effect"
import { EccnEntryAnswer } from "../src/domain/Eccn.ts"
import { renderEccnText } from "../src/domain/EccnText.ts"
import { Api } from "../src/http/Api.ts"

/**
 * The OpenAPI document's examples come from the domain schemas' `examples` annotations. Effect's
 * JSON Schema silently drops an example its schema cannot encode, so each annotation is checked
 * here against its schema, and each example the document shows is decoded with the schema of the
 * endpoint and status it is shown for.
 */
interface Declared {
  readonly path: string
  readonly method: string
  readonly status: number
  readonly ast: AST.AST
}

const declared: Array<Declared> = []
/** Request body schemas, by `<method> <path>`. */
const payloads = new Map<string, AST.AST>()
HttpApi.reflect(Api, {
  onGroup: () => {},
  onEndpoint: ({ endpoint, errors, successes }) => {
    const path = endpoint.path.replace(/:(\w+)/g, "{$1}")
    for (const [status, response] of [...successes, ...errors]) {
      if (Option.isSome(response.ast)) {
        declared.push({ path, method: endpoint.method.toLowerCase(), status, ast: response.ast.value })
      }
    }
    if (Option.isSome(endpoint.payloadSchema)) {
      payloads.set(`${endpoint.method.toLowerCase()} ${path}`, endpoint.payloadSchema.value.ast)
    }
  }
})

/** Every annotated example below an AST, with the node it annotates. */
const annotatedExamples = (root: AST.AST) => {
  const found: Array<{ readonly node: AST.AST; readonly example: unknown }> = []
  const seen = new Set<AST.AST>()
  const visit = (ast: AST.AST): void => {
    if (seen.has(ast)) return
    seen.add(ast)
    for (const example of Option.getOrElse(AST.getExamplesAnnotation(ast), () => [])) found.push({ node: ast, example })
    switch (ast._tag) {
      case "TypeLiteral":
        ast.propertySignatures.forEach((property) => visit(property.type))
        ast.indexSignatures.forEach((index) => visit(index.type))
        return
      case "Union":
        return ast.types.forEach(visit)
      case "TupleType":
        ast.elements.forEach((element) => visit(element.type))
        return ast.rest.forEach((rest) => visit(rest.type))
      case "Refinement":
        return visit(ast.from)
      case "Transformation":
        visit(ast.from)
        return visit(ast.to)
      case "Suspend":
        return visit(ast.f())
      case "Declaration":
        return ast.typeParameters.forEach(visit)
    }
  }
  visit(root)
  return found
}

/** The `_tag`s a problem body may stand for: its classes' tags (a status can carry several errors). */
const tagsOf = (ast: AST.AST): Array<string> => {
  if (ast._tag === "Union") return ast.types.flatMap(tagsOf)
  const encoded = AST.encodedAST(ast)
  if (encoded._tag !== "TypeLiteral") return []
  const tag = encoded.propertySignatures.find((property) => property.name === "_tag")?.type
  return tag?._tag === "Literal" && typeof tag.literal === "string" ? [tag.literal] : []
}

interface Operation {
  readonly requestBody?: { readonly content?: Record<string, any> }
  readonly responses: Record<string, { content?: Record<string, any> }>
}

const document = OpenApi.fromApi(Api) as unknown as {
  readonly paths: Record<string, Record<string, Operation>>
  readonly components: { readonly schemas: Record<string, { readonly examples?: ReadonlyArray<unknown> }> }
}

/** Every example the document shows for a response body, with where it is shown. */
const shown = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).flatMap(([method, operation]) =>
    Object.entries(operation.responses ?? {}).flatMap(([status, response]) =>
      Object.entries(response.content ?? {}).flatMap(([mediaType, media]) =>
        media.example === undefined ? [] : [{ path, method, status: Number(status), mediaType, example: media.example }]
      )
    )
  )
)

/** Every success response and request body, with its media type, JSON schema and example (if any). */
const bodies = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).flatMap(([method, operation]) => [
    ...Object.entries(operation.requestBody?.content ?? {}).map(([mediaType, media]) => ({
      where: `${method} ${path} request ${mediaType}`,
      path,
      method,
      mediaType,
      media
    })),
    ...Object.entries(operation.responses ?? {}).filter(([status]) => Number(status) < 300).flatMap((
      [status, response]
    ) =>
      Object.entries(response.content ?? {}).map(([mediaType, media]) => ({
        where: `${method} ${path} ${status} ${mediaType}`,
        path,
        method,
        mediaType,
        media
      }))
    )
  ])
)

/** Bodies that cannot carry a meaningful example: file downloads, and the OpenAPI document itself. */
const exempt = (body: (typeof bodies)[number]) =>
  body.media.schema?.format === "binary" || body.path === "/openapi.json"

describe("OpenAPI examples", () => {
  it("leave the document a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(JSON.parse(JSON.stringify(document)))
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
  })

  it("declares each error response with the media type its problems are sent with", () => {
    // several problems of one status (the Country Chart's unknown country and unknown paragraph)
    // are joined by HttpApi into one union that carries no encoding of its own
    // HttpApi's own decode failure is sent as the InvalidRequest problem (see the problem middleware)
    const members = (ast: AST.AST): Array<AST.AST> =>
      ast._tag === "Union"
        ? ast.types.flatMap(members)
        : tagsOf(ast).includes("HttpApiDecodeError")
        ? []
        : [ast]
    const errors = declared.filter((entry) => entry.status >= 400)
    expect(errors.filter((entry) => members(entry.ast).length > 1).length).toBeGreaterThan(3)
    const wrong = errors.flatMap((entry) => {
      const types = new Set(members(entry.ast).map((member) => HttpApiSchema.getEncoding(member).contentType))
      const mediaTypes = Object.keys(document.paths[entry.path]![entry.method]!.responses[entry.status]!.content ?? {})
      return types.size === 1 && mediaTypes.join() === [...types].join()
        ? []
        : [`${entry.method} ${entry.path} ${entry.status}: ${mediaTypes.join()} for ${[...types].join()}`]
    })
    expect(wrong).toEqual([])
    expect(Object.keys(document.paths["/api/country-chart"]!.get!.responses[404]!.content!)).toEqual([
      "application/problem+json"
    ])
  })

  it("every examples annotation of a request or response schema is a value of its schema", () => {
    const annotated = [...declared.map((entry) => entry.ast), ...payloads.values()].flatMap(annotatedExamples)
    // the realistic ones this document is expected to show: 3A090, Germany, the problems
    expect(annotated.length).toBeGreaterThan(20)
    const invalid = annotated.filter(({ example, node }) => !Schema.is(Schema.make(node))(example))
    expect(invalid.map(({ example, node }) => `${String(node)}: ${JSON.stringify(example)}`)).toEqual([])
  })

  it("every example shown decodes with the schema declared for that endpoint and status", () => {
    const failures: Array<string> = []
    for (const entry of shown) {
      const schemas = declared.filter((d) =>
        d.path === entry.path && d.method === entry.method && d.status === entry.status
      )
      // the ECCN endpoint's text/plain alternative is checked against its JSON example below
      if (entry.path === "/api/eccn/{eccn}" && entry.mediaType === "text/plain") continue
      const decodes = schemas.some(({ ast }) => {
        const schema = Schema.make(ast)
        const isObject = typeof entry.example === "object" && entry.example !== null
        const { error: _code, message: _message, ...problem } = isObject ? entry.example as Record<string, unknown> : {}
        const isProblem = entry.mediaType === "application/problem+json" || (isObject && "error" in problem) ||
          (isObject && "error" in (entry.example as object) && "type" in problem)
        const candidates = isProblem ? tagsOf(ast).map((_tag) => ({ ...problem, _tag })) : [entry.example]
        return candidates.some((candidate) => Schema.decodeUnknownEither(schema)(candidate)._tag === "Right")
      })
      if (!decodes) failures.push(`${entry.method} ${entry.path} ${entry.status} ${entry.mediaType}`)
    }
    expect(failures).toEqual([])
  })

  it("every success response and request body shows an example, except file downloads", () => {
    const missing = bodies.filter((body) => !exempt(body) && body.media.example === undefined)
    expect(missing.map((body) => body.where)).toEqual([])
    // the exemption is narrow: three PDF downloads and the document itself
    expect(bodies.filter(exempt).map((body) => body.where).sort()).toEqual([
      "get /api/enforcement/docs/{id}/file 200 application/pdf",
      "get /openapi.json 200 application/json",
      "get /pdf/files/{id} 200 application/pdf",
      "post /pdf/{slug} 200 application/pdf"
    ])
  })

  it("every request body example decodes with the endpoint's payload schema", () => {
    const requests = bodies.filter((body) => body.where.includes(" request "))
    expect(requests.map((body) => body.where).sort()).toEqual([
      "post /api/csl/batch request application/json",
      "post /api/csl/batch request text/csv",
      "post /pdf/{slug} request application/json"
    ])
    for (const body of requests) {
      const payload = payloads.get(`${body.method} ${body.path}`)!
      const decoded = Schema.decodeUnknownEither(Schema.make(payload))(body.media.example)
      expect(decoded._tag, body.where).toBe("Right")
    }
  })

  it("shows the ECCN text answer as the endpoint renders the JSON example", () => {
    const content = document.paths["/api/eccn/{eccn}"]!.get!.responses[200]!.content!
    expect(content["application/json"].example).toMatchObject({ kind: "entry", requested: "3A090" })
    const json = Schema.decodeUnknownSync(EccnEntryAnswer)(content["application/json"].example)
    expect(content["text/plain"].example).toBe(renderEccnText(json))
    expect(content["text/plain"].example).toContain("3A090")
  })

  it("shows realistic answers and problems on the main endpoints", () => {
    const example = (path: string, status: number) =>
      shown.find((entry) =>
        entry.path === path && entry.method === "get" && entry.status === status && entry.mediaType !== "text/plain"
      )?.example
    expect(example("/api/eccn/{eccn}", 200)).toMatchObject({ kind: "entry", entry: { eccn: "3A090" } })
    expect(example("/api/eccn/{eccn}", 404)).toMatchObject({
      type: "/problems/eccn-not-found",
      status: 404,
      error: "eccn_not_found",
      nearest: ["3A090", "3A901", "3A991"]
    })
    expect(example("/api/country-chart", 200)).toMatchObject({
      country: { name: "Germany" },
      chart: { kind: "graded", marked: ["CB1", "NS1", "MT1", "RS1", "CC1"] }
    })
    expect(example("/api/ecfr/{part}", 503)).toMatchObject({ error: "upstream_unavailable", upstream: "ecfr" })
    expect(example("/api/ecfr/{part}", 200)).toMatchObject({ identifier: "740", label: "Part 740—License Exceptions" })
    expect(example("/api/csl", 200)).toMatchObject({
      result: "potential_match",
      matches: [{ name: "Huawei Technologies Co., Ltd. (Huawei)", source_code: "EL" }]
    })
    expect(example("/api/federal-register/{document_number}", 200)).toMatchObject({
      document: { document_number: "2025-00636", citation: "90 FR 4544" }
    })
    // every endpoint shows the shape of a rejected parameter
    const bad = Object.keys(document.paths).filter((path) => {
      const get = document.paths[path]!.get
      return get?.responses[400] !== undefined && example(path, 400) === undefined
    })
    expect(bad).toEqual([])
  })
})
