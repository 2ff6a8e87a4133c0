import { Schema } from "effect"
import { withoutNul } from "../StorableText.ts"

/**
 * Field types shared by the workspace records. Every string is trimmed and bounded; decode errors
 * name the limit, never the value (records carry party names).
 */

/*
 * Refinements here are plain filters carrying only their JSON Schema keyword: the built-in ones add
 * a generated title and description to every field, which costs `tools/list` space and says nothing.
 */

/**
 * A string matching `regex`. The pattern stays out of the JSON Schema (`tools/list` has a size
 * budget): the decode error states the rule, e.g. "must be a date such as 2026-03-31".
 */
export const matching = (regex: RegExp, message: string) =>
  Schema.String.pipe(Schema.filter((value) => regex.test(value) || message, { jsonSchema: {} }))

/** An array of at most `max` elements. */
export const upTo = <A, I>(item: Schema.Schema<A, I, never>, max: number) =>
  Schema.Array(item).pipe(
    Schema.filter((values) => values.length <= max || `must list at most ${max}`, { jsonSchema: { maxItems: max } })
  )

/** A number from `min` to `max`. */
export const numberIn = (min: number, max: number) =>
  Schema.Number.pipe(
    Schema.filter((value) => (value >= min && value <= max) || `must be a number from ${min} to ${max}`, {
      jsonSchema: { minimum: min, maximum: max }
    })
  )

/** Trimmed text of 1 to `max` characters, storable (see `withoutNul`). */
export const Text = (max: number) =>
  Schema.compose(Schema.String.annotations({ message: () => "must be text" }), Schema.Trim).pipe(
    Schema.minLength(1, { message: () => "must not be blank" }),
    Schema.maxLength(max, { message: () => `must be at most ${max} characters` }),
    withoutNul
  )

/** A calendar day, `YYYY-MM-DD`. */
export const Day = matching(
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/,
  "must be a date such as 2026-03-31"
)

/** An instant as the service writes it (`Date#toISOString`). */
export const Instant = Schema.String

export const Country = matching(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 code such as DE")

/** An ECCN as classified (`3A001`, `5A992.c`, `EAR99`): the entry upper-cased, paragraphs as written. */
export const Eccn = Schema.transform(
  Schema.String,
  Schema.String.pipe(
    Schema.filter((value) =>
      /^(?:EAR99|[0-9][A-E][0-9]{3}(?:\.[A-Za-z0-9]+)*)$/.test(value) ||
      "must be an ECCN such as 3A001, 5A992.c or EAR99"
    )
  ),
  { strict: true, decode: (value) => value.slice(0, 5).toUpperCase() + value.slice(5), encode: (value) => value }
)

export const HttpUrl = matching(
  /^https?:\/\/[^\s\u0000]{1,2040}$/,
  "must be an http(s) URL of at most 2048 characters"
)

/** Page size of the list tools. */
export const Limit = (max: number) =>
  Schema.Number.pipe(
    Schema.filter(
      (value) => (Number.isInteger(value) && value >= 1 && value <= max) || `must be an integer from 1 to ${max}`,
      {
        jsonSchema: { type: "integer", minimum: 1, maximum: max }
      }
    )
  )

export const CursorField = Schema.String.pipe(
  Schema.filter((value) => (value.length <= 512 && !value.includes("\u0000")) || "is not a cursor of this list")
)

/** Optional fields are exact: absent, never `undefined`. */
export const exact = { exact: true } as const

/** `YYYY-MM-DD` of an instant in UTC. */
export const dayOf = (millis: number): string => new Date(millis).toISOString().slice(0, 10)
