import { makeCompiler } from "@effect/sql-pg/PgClient"
import * as Statement from "@effect/sql/Statement"
import { String } from "effect"

/**
 * One naming rule for both engines: columns are snake_case in SQL and camelCase in TypeScript.
 * Identifiers written through `sql(...)`/`sql.insert(...)` are turned to snake_case, result columns
 * to camelCase. JSON values are left alone (`transformJson` off): stored documents such as OAuth
 * client metadata keep their own keys.
 */
export const sqlNames = {
  compiler: makeCompiler(String.camelToSnake, false),
  transformRows: Statement.defaultTransforms(String.snakeToCamel, false).array,
  transformQueryNames: String.camelToSnake,
  transformResultNames: String.snakeToCamel
} as const
