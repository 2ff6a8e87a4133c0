import { Option, type ParseResult, Schema, SchemaAST } from "effect"
import { distance } from "fastest-levenshtein"

/**
 * Decode failures phrased for the people and agents who sent the input: a path (`per_page`,
 * `payload.items[2].name`, "" for the input as a whole) and what is wrong with it ("must be an
 * integer between 1 and 20", "is required", "is not a known parameter"). No Effect type names, and
 * never the rejected value: inputs may hold party names, and the caller already has them.
 */
export const DecodeIssue = Schema.Struct({
  path: Schema.String.annotations({
    description: "Where in the input, e.g. `per_page` or `items[2].name`; empty for the whole input"
  }),
  message: Schema.String.annotations({ description: "What is wrong, e.g. `must be an integer between 1 and 20`" })
}).annotations({ identifier: "DecodeIssue" })
export type DecodeIssue = typeof DecodeIssue.Type

/** The issues of a failed decode, in input order, each path reported once per message. */
export const fromParseError = (error: ParseResult.ParseError): ReadonlyArray<DecodeIssue> => fromIssue(error.issue)

export const fromIssue = (issue: ParseResult.ParseIssue): ReadonlyArray<DecodeIssue> => {
  const found: Array<DecodeIssue> = []
  const seen = new Set<string>()
  walk(issue, [], undefined, undefined, (path, message) => {
    const text = pathText(path)
    const key = `${text}\u0000${message}`
    if (seen.has(key)) return
    seen.add(key)
    found.push({ path: text, message })
  })
  return found
}

/**
 * One line for an error message: "`per_page` must be an integer between 1 and 20; `foo` is not a
 * known parameter". `whole` names the input when the issue is about all of it ("arguments must be
 * an object").
 */
export const summarize = (issues: ReadonlyArray<DecodeIssue>, whole = "the input"): string =>
  issues.map((issue) => `${issue.path === "" ? whole : `\`${issue.path}\``} ${issue.message}`).join("; ")

/** The phrase a schema accepts, e.g. "an integer between 1 and 100" or `one of "EL", "SDN"`. */
export const expected = (schema: Schema.Schema.Any): string => describe(schema.ast)

/** One issue as `ParseResult.ArrayFormatter` states it: all HttpApi keeps of a failed request decode. */
export interface FormattedIssue {
  readonly _tag: string
  readonly message: string
}

// Effect's own wording: names type internals and echoes the rejected value
const effectWording = /^Expected |, actual |^Unable to decode |^is (missing|unexpected|forbidden)\b/

/**
 * The reason for one input from its formatted issues: the messages the schema's author wrote, else
 * what `field` (the input's schema, when known) accepts. Effect's wording is never passed on.
 */
export const reasonOf = (issues: ReadonlyArray<FormattedIssue>, field: SchemaAST.AST | undefined): string => {
  const authored = [...new Set(issues.map((issue) => issue.message).filter((message) => !effectWording.test(message)))]
  if (authored.length > 0) return authored.map(phrased).join("; ")
  if (issues.every((issue) => issue._tag === "Missing")) return "is required"
  if (issues.some((issue) => issue._tag === "Unexpected")) return "is not a known parameter"
  return field === undefined ? "is not valid" : `must be ${describe(field)}`
}

/** The schema of the value at `path` inside an input of schema `ast`, when the path leads to one. */
export const fieldAt = (ast: SchemaAST.AST, path: ReadonlyArray<PropertyKey>): SchemaAST.AST | undefined => {
  let current: SchemaAST.AST | undefined = ast
  for (const key of path) {
    if (current === undefined) return undefined
    current = memberAt(unwrap(current, {}), key)
  }
  return current
}

const memberAt = (ast: SchemaAST.AST, key: PropertyKey): SchemaAST.AST | undefined => {
  if (SchemaAST.isTypeLiteral(ast)) return ast.propertySignatures.find((p) => p.name === key)?.type
  if (SchemaAST.isTupleType(ast) && typeof key === "number") return (ast.elements[key] ?? ast.rest[0])?.type
  if (SchemaAST.isUnion(ast)) {
    for (const member of ast.types) {
      const found = memberAt(unwrap(member, {}), key)
      if (found !== undefined) return found
    }
  }
  return undefined
}

// ---- walking the issue tree ----

type Path = ReadonlyArray<PropertyKey>
type Report = (path: Path, message: string) => void

const pathText = (path: Path) =>
  path.reduce<string>((text, key) => {
    if (typeof key === "number") return `${text}[${key}]`
    const name = String(key).slice(0, 80)
    return text === "" ? name : `${text}.${name}`
  }, "")

/**
 * `field` is the outermost schema of the value at `path` (a refinement chain reports against all
 * of it: "an integer between 1 and 100", not just "between 1 and 100"); `siblings` are the keys of
 * the object holding it, to suggest the intended name for an unknown one.
 */
const walk = (
  issue: ParseResult.ParseIssue,
  path: Path,
  field: SchemaAST.AST | undefined,
  siblings: ReadonlyArray<string> | undefined,
  report: Report
): void => {
  switch (issue._tag) {
    case "Pointer": {
      const keys = Array.isArray(issue.path) ? issue.path : [issue.path]
      return walk(issue.issue, [...path, ...keys], undefined, siblings, report)
    }
    case "Missing":
      return report(path, issue.message ?? "is required")
    case "Unexpected":
      return report(path, unknownKey(path, siblings))
    case "Forbidden":
      return report(path, "could not be checked")
    case "Type":
      return report(path, typeMessage(issue, field ?? issue.ast))
    case "Refinement": {
      const outer = field ?? issue.ast
      if (issue.kind === "From") return walk(issue.issue, path, outer, siblings, report)
      const own = ownMessage(issue.ast, issue)
      // a filter over a struct that names the field it is about reports at that field
      if (own === undefined && issue.issue._tag === "Pointer") {
        return walk(issue.issue, path, undefined, siblings, report)
      }
      return report(path, own ?? predicateMessage(issue, outer))
    }
    case "Transformation":
      // a failed conversion (text that is no number) is phrased as what the value must be
      if (issue.kind === "Transformation") return report(path, `must be ${describe(field ?? issue.ast)}`)
      return walk(issue.issue, path, issue.kind === "Encoded" ? field : undefined, siblings, report)
    case "Composite": {
      const issues = Array.isArray(issue.issues) ? issue.issues : [issue.issues]
      const ast = issue.ast
      if (SchemaAST.isUnion(ast)) {
        // the value matched no member's kind: say what the members accept; else report inside the member it chose
        const within = issues.filter((inner) => inner._tag !== "Type")
        if (within.length !== 1) return report(path, `must be ${describe(field ?? ast)}`)
        return walk(within[0]!, path, undefined, siblings, report)
      }
      const keys = SchemaAST.isTypeLiteral(ast) ? ast.propertySignatures.map((p) => String(p.name)) : siblings
      for (const inner of issues) walk(inner, path, undefined, keys, report)
      return
    }
  }
}

/** A message the schema author wrote for this refinement (`{ message: () => "must …" }`). */
const ownMessage = (ast: SchemaAST.AST, issue: ParseResult.ParseIssue): string | undefined => {
  const annotation = SchemaAST.getMessageAnnotation(ast)
  if (Option.isNone(annotation)) return undefined
  const result = annotation.value(issue)
  const text = typeof result === "string"
    ? result
    : typeof result === "object" && "message" in result && typeof result.message === "string"
    ? result.message
    : undefined
  return text === undefined ? undefined : phrased(text)
}

/** An author's reason as a predicate of the path: "expected an ECCN" reads "must be an ECCN". */
const phrased = (reason: string) =>
  /^(must|is|should|cannot) /.test(reason)
    ? reason
    : /^expected /i.test(reason)
    ? `must be ${reason.slice("expected ".length)}`
    : `is ${reason}`

const typeMessage = (issue: ParseResult.Type, field: SchemaAST.AST): string => {
  const own = ownMessage(issue.ast, issue)
  if (own !== undefined) return own
  // a filter that answers with a reason ("not a calendar date") states it; Effect's own messages echo the value
  if (issue.message !== undefined && SchemaAST.isRefinement(issue.ast) && !/actual|Expected/.test(issue.message)) {
    return phrased(issue.message)
  }
  return `must be ${describe(field)}`
}

const predicateMessage = (issue: ParseResult.Refinement, field: SchemaAST.AST): string => {
  if (issue.issue._tag === "Type" && issue.issue.message !== undefined) return typeMessage(issue.issue, field)
  const own = SchemaAST.getJSONSchemaAnnotation(issue.ast)
  const isPattern = Option.isSome(own) && "pattern" in own.value
  if (isPattern && issue.ast.annotations[SchemaAST.IdentifierAnnotationId] !== "Trimmed") {
    const written = authoredDescription(field)
    return written === undefined
      ? `must match the pattern ${String((own.value as { pattern: unknown }).pattern)}`
      : `is not in the expected form (${written})`
  }
  return `must be ${describe(field)}`
}

const nearest = (name: string, candidates: ReadonlyArray<string>): string | undefined => {
  let best: string | undefined
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1
  for (const candidate of candidates) {
    const d = distance(name.toLowerCase(), candidate.toLowerCase())
    if (d < bestDistance) {
      best = candidate
      bestDistance = d
    }
  }
  return best
}

const unknownKey = (path: Path, siblings: ReadonlyArray<string> | undefined): string => {
  const name = path.length === 0 ? "" : String(path[path.length - 1])
  if (siblings === undefined || siblings.length === 0) return "is not a known parameter"
  const guess = nearest(name, siblings)
  if (guess !== undefined) return `is not a known parameter; did you mean \`${guess}\`?`
  return siblings.length <= 12
    ? `is not a known parameter (known: ${siblings.map((key) => `\`${key}\``).join(", ")})`
    : "is not a known parameter"
}

// ---- what a schema accepts, in words ----

/** Effect's generated descriptions ("a string at most 32 character(s) long") versus ones written here. */
const authoredDescription = (ast: SchemaAST.AST): string | undefined => {
  const description = SchemaAST.getDescriptionAnnotation(ast)
  return Option.isSome(description) && !/^an? /.test(description.value) ? description.value : undefined
}

interface Limits {
  integer?: boolean
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  minLength?: number
  maxLength?: number
  minItems?: number
  maxItems?: number
}

const limitKeys = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems"
] as const

/** Follows refinements (collecting their limits, outermost wins) down to the schema they refine. */
const unwrap = (ast: SchemaAST.AST, limits: Limits): SchemaAST.AST => {
  if (SchemaAST.isRefinement(ast)) {
    const schema = SchemaAST.getJSONSchemaAnnotation(ast)
    if (Option.isSome(schema)) {
      const value = schema.value as Record<string, unknown>
      if (value.type === "integer") limits.integer = true
      for (const key of limitKeys) {
        const limit = value[key]
        if (typeof limit === "number" && limits[key] === undefined) limits[key] = limit
      }
    }
    return unwrap(ast.from, limits)
  }
  // decoding yields the target of a conversion (NumberFromString is a number to whoever reads the message)
  if (SchemaAST.isTransformation(ast)) return unwrap(ast.to, limits)
  if (SchemaAST.isSuspend(ast)) return unwrap(ast.f(), limits)
  return ast
}

const range = (low: number | undefined, high: number | undefined, unit = "") => {
  const u = unit === "" ? "" : ` ${unit}`
  if (low !== undefined && high !== undefined) return low === high ? `exactly ${low}${u}` : `${low} to ${high}${u}`
  if (low !== undefined) return `at least ${low}${u}`
  return high === undefined ? "" : `at most ${high}${u}`
}

const numberPhrase = (limits: Limits) => {
  const noun = limits.integer === true ? "an integer" : "a number"
  const { exclusiveMaximum, exclusiveMinimum, maximum, minimum } = limits
  if (minimum !== undefined && maximum !== undefined) return `${noun} between ${minimum} and ${maximum}`
  const bounds = [
    minimum === undefined ? undefined : `at least ${minimum}`,
    exclusiveMinimum === undefined ? undefined : `greater than ${exclusiveMinimum}`,
    maximum === undefined ? undefined : `at most ${maximum}`,
    exclusiveMaximum === undefined ? undefined : `less than ${exclusiveMaximum}`
  ].filter((bound) => bound !== undefined)
  return bounds.length === 0 ? noun : `${noun} ${bounds.join(" and ")}`
}

const stringPhrase = (limits: Limits) => {
  if (limits.minLength === 1 && limits.maxLength === undefined) return "a non-empty string"
  const size = range(limits.minLength, limits.maxLength, "characters")
  return size === "" ? "a string" : `a string of ${size}`
}

const listPhrase = (limits: Limits, element: SchemaAST.AST | undefined) => {
  const size = range(limits.minItems, limits.maxItems, "items")
  const of = element === undefined ? "" : `, each ${describe(element)}`
  return size === "" ? `a list${of}` : `a list of ${size}${of}`
}

const literalText = (literal: SchemaAST.LiteralValue) =>
  typeof literal === "bigint" ? literal.toString() : JSON.stringify(literal)

const literalsOf = (ast: SchemaAST.AST): ReadonlyArray<SchemaAST.LiteralValue> | undefined => {
  const base = unwrap(ast, {})
  if (SchemaAST.isLiteral(base)) return [base.literal]
  if (SchemaAST.isEnums(base)) return base.enums.map(([, value]) => value)
  if (!SchemaAST.isUnion(base)) return undefined
  const values: Array<SchemaAST.LiteralValue> = []
  for (const member of base.types) {
    const inner = literalsOf(member)
    if (inner === undefined) return undefined
    values.push(...inner)
  }
  return values
}

const oneOf = (values: ReadonlyArray<SchemaAST.LiteralValue>) => {
  if (values.length === 1) return literalText(values[0]!)
  const shown = values.slice(0, 30).map(literalText).join(", ")
  return `one of ${shown}${values.length > 30 ? ` … (${values.length} values)` : ""}`
}

const describe = (ast: SchemaAST.AST): string => {
  const literals = literalsOf(ast)
  if (literals !== undefined) {
    return literals.length === 2 && literals.includes(true) && literals.includes(false)
      ? "true or false"
      : oneOf(literals)
  }
  const limits: Limits = {}
  const base = unwrap(ast, limits)
  switch (base._tag) {
    case "StringKeyword":
      return stringPhrase(limits)
    case "NumberKeyword":
      return numberPhrase(limits)
    case "BooleanKeyword":
      return "true or false"
    case "BigIntKeyword":
      return "an integer"
    case "TemplateLiteral":
      return "a string of the expected form"
    case "TypeLiteral":
      return "an object"
    case "ObjectKeyword":
      return "an object"
    case "TupleType":
      return listPhrase(limits, base.elements.length === 0 ? base.rest[0]?.type : undefined)
    case "UndefinedKeyword":
    case "VoidKeyword":
      return "absent"
    case "Union": {
      const members = base.types.filter((member) => !SchemaAST.isUndefinedKeyword(member)).map(describe)
      return [...new Set(members)].join(" or ")
    }
    default:
      return authoredDescription(ast) ?? "a valid value"
  }
}
