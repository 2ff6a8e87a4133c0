import { Schema } from "effect"
import { withoutNul } from "../StorableText.ts"
import { Country, CursorField, Eccn, exact, Instant, Limit, Text } from "./Fields.ts"

/**
 * Regulatory notes: a team's own notes pinned to a CFR citation, an ECCN or a country. `get_eccn`
 * and `get_country_chart_row` return the caller's notes that apply in the result's `_meta`
 * (`svc/workspace_notes`), beside the official text and never inside it.
 */

export const NotesMetaKey = "svc/workspace_notes"

/** `15 CFR 740.17(b)(2)`: title, CFR, section with optional paragraphs. */
export const CfrCitation = Schema.compose(Schema.String, Schema.Trim).pipe(
  Schema.filter((value) =>
    /^\d{1,2} CFR \d{1,4}(?:\.\d+[a-z]?)?(?:\([A-Za-z0-9]+\))*$/.test(value) ||
    "must be a CFR citation such as 15 CFR 740.17(b)(2)"
  )
)

/** Exactly one of the three: a single struct (not a union) so a decode error names the field at fault. */
export const NoteTarget = Schema.Struct({
  cfr: Schema.optionalWith(CfrCitation, exact),
  eccn: Schema.optionalWith(Eccn, exact),
  country: Schema.optionalWith(Country, exact)
}).pipe(
  Schema.filter((target) =>
    [target.cfr, target.eccn, target.country].filter((value) => value !== undefined).length === 1 ||
    "must name exactly one of `cfr`, `eccn` or `country`"
  )
)
export type NoteTarget = typeof NoteTarget.Type

export const NoteInput = Schema.Struct({
  target: NoteTarget,
  text: Text(4000),
  author: Schema.optionalWith(Text(200), exact)
})
export type NoteInput = typeof NoteInput.Type

export const Note = Schema.Struct({
  id: Schema.String,
  target: NoteTarget,
  text: Schema.String,
  author: Schema.optionalWith(Schema.String, exact),
  created_at: Instant
})
export type Note = typeof Note.Type

export const NoteListParams = Schema.Struct({
  target: Schema.optionalWith(NoteTarget, exact),
  limit: Schema.optionalWith(Limit(100), exact),
  cursor: Schema.optionalWith(CursorField, exact)
})
export type NoteListParams = typeof NoteListParams.Type

export const NotePage = Schema.Struct({
  notes: Schema.Array(Note),
  count: Schema.Int,
  next_cursor: Schema.NullOr(Schema.String)
})
export type NotePage = typeof NotePage.Type

export const NoteRef = Schema.Struct({
  id: withoutNul(Schema.String.pipe(Schema.maxLength(64)))
})

export const NoteDeleted = Schema.Struct({ id: Schema.String, deleted: Schema.Boolean })

/** The kind and key a note is filed under; ECCN notes are filed under the five-character entry. */
export const targetKey = (target: NoteTarget): { readonly kind: string; readonly key: string } =>
  target.cfr !== undefined
    ? { kind: "cfr", key: target.cfr }
    : target.eccn !== undefined
    ? { kind: "eccn", key: target.eccn.slice(0, 5) }
    : { kind: "country", key: target.country ?? "" }
