import { HttpApi } from "@effect/platform"
import { Option, SchemaAST } from "effect"
import { NotEntitled, Unauthenticated } from "../domain/Access.ts"
import {
  EndpointRemoved,
  InternalError,
  InvalidRequest,
  MethodNotAllowed,
  NotFound,
  type ProblemType,
  ProblemTypeAnnotation,
  RateLimited
} from "../domain/Problem.ts"

/** Problems the middleware itself produces, whatever the endpoint (the access policy's among them). */
const middlewareProblems = [
  InvalidRequest,
  NotFound,
  MethodNotAllowed,
  EndpointRemoved,
  RateLimited,
  InternalError,
  Unauthenticated,
  NotEntitled
]

const problemTypeOf = (ast: SchemaAST.AST): Array<ProblemType> => {
  if (ast._tag === "Union") return ast.types.flatMap(problemTypeOf)
  // error classes carry their annotations on the declaration side of the class transformation
  const target = ast._tag === "Transformation" ? ast.to : ast
  return Option.toArray(SchemaAST.getAnnotation<ProblemType>(target, ProblemTypeAnnotation))
}

/** Every problem type the API can answer with, by slug: derived from the endpoints' error schemas. */
export const problemTypesOf = (api: HttpApi.HttpApi.Any): ReadonlyMap<string, ProblemType> => {
  const types = new Map<string, ProblemType>()
  const add = (ast: SchemaAST.AST) => problemTypeOf(ast).forEach((type) => types.set(type.slug, type))
  middlewareProblems.forEach((schema) => add(schema.ast))
  HttpApi.reflect(api as any, {
    onGroup() {},
    onEndpoint({ errors }) {
      for (const { ast } of errors.values()) Option.map(ast, add)
    }
  })
  return types
}
