import { makeCompiler } from "@effect/sql-pg/PgClient"
import * as Statement from "@effect/sql/Statement"
import { String } from "effect"

/** Result column names kept turned; past this many a name is turned on each use. */
const MaxCamelNames = 1000
const camelNames = new Map<string, string>()

/**
 * snake_case to camelCase, each name turned once: rows bring the same few column names on every
 * call, and turning one builds it character by character, a string per character.
 */
const snakeToCamel = (name: string): string => {
  let camel = camelNames.get(name)
  if (camel === undefined) {
    camel = String.snakeToCamel(name)
    if (camelNames.size < MaxCamelNames) camelNames.set(name, camel)
  }
  return camel
}

/**
 * One naming rule for both engines: columns are snake_case in SQL and camelCase in TypeScript.
 * Identifiers written through `sql(...)`/`sql.insert(...)` are turned to snake_case, result columns
 * to camelCase. JSON values are left alone (`transformJson` off): stored documents such as OAuth
 * client metadata keep their own keys.
 */
export const sqlNames = {
  compiler: makeCompiler(String.camelToSnake, false),
  transformRows: Statement.defaultTransforms(snakeToCamel, false).array,
  transformQueryNames: String.camelToSnake,
  transformResultNames: snakeToCamel
} as const
