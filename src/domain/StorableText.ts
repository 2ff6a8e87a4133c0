import { Schema } from "effect"

/**
 * Text that can reach the SQL store: PostgreSQL (and the embedded PGlite) cannot store the NUL
 * character, and a statement carrying one fails like an outage ("store unavailable"). Such input is
 * refused where it is decoded, as invalid. Carries no JSON Schema keyword of its own.
 */
export const withoutNul = <A extends string, I, R>(self: Schema.Schema<A, I, R>) =>
  self.pipe(Schema.filter((text) => !text.includes("\u0000") || "must not hold the NUL character", { jsonSchema: {} }))
