import { Schema } from "effect"
import { CountryChartColumn, ReasonForControl } from "./Eccn.ts"

/**
 * The Country Chart check of one ECCN (or one paragraph of it) for one destination: per control
 * row of the entry, whether the row applies to the asked paragraph and, if it does, whether the
 * destination has an X in the column the row cites (15 CFR 738.4(a)(2)). Field names are
 * camelCase like the rest of the REST answer they belong to.
 */

export const RowStatus = Schema.Literal(
  "license_required",
  "not_for_this_paragraph",
  "depends",
  "no_x_in_column",
  "stated_in_text",
  "see_part_746",
  "no_chart_row"
).annotations({
  description: "license_required: reaches the item, X in a cited column; not_for_this_paragraph: limited to other " +
    "paragraphs; depends: X, but reaches the item only under `conditions`; no_x_in_column: no X (whatever the " +
    "reach); stated_in_text: no column cited, or scope unreadable: read the row; see_part_746: embargoed " +
    "destination; no_chart_row: the destination has no chart row"
})
export type RowStatus = typeof RowStatus.Type

export const ControlRowCheck = Schema.Struct({
  reason: Schema.NullOr(ReasonForControl),
  appliesTo: Schema.String.annotations({ description: "The `Control(s)` cell as printed" }),
  countryChart: Schema.String.annotations({ description: "The `Country chart` cell as printed" }),
  columns: Schema.Array(Schema.Struct({ column: CountryChartColumn, marked: Schema.Boolean })).annotations({
    description: "Cited columns; marked: the destination has an X"
  }),
  result: RowStatus,
  conditions: Schema.optional(Schema.Array(Schema.String)).annotations({
    description: "The entry's words the row's reach depends on, quoted; `except …` ones take items out"
  }),
  scopeUnread: Schema.optional(Schema.String).annotations({
    description: "Why the `Control(s)` text could not be read; nothing is concluded from it"
  })
}).annotations({ identifier: "CountryChartControlRowCheck" })
export type ControlRowCheck = typeof ControlRowCheck.Type

export const EccnCheck = Schema.Struct({
  eccn: Schema.String,
  paragraph: Schema.NullOr(Schema.String).annotations({
    description: "The paragraph asked for; null: the whole entry (paragraph-limited rows answer `depends`)"
  }),
  heading: Schema.String,
  itemTextAvailable: Schema.Boolean.annotations({
    description: "False: no item text was parsed for the entry, so the paragraph is unverified"
  }),
  reasonForControl: Schema.Array(ReasonForControl),
  controls: Schema.Array(ControlRowCheck),
  licenseRequiredColumns: Schema.Array(CountryChartColumn),
  dependsColumns: Schema.Array(CountryChartColumn),
  footnotesNamingEccn: Schema.Array(Schema.Int).annotations({
    description: "Footnotes of the destination's row naming the ECCN (they may require a license)"
  }),
  summary: Schema.String,
  caveat: Schema.String
}).annotations({ identifier: "CountryChartEccnCheck" })
export type EccnCheck = typeof EccnCheck.Type
