import { Schema } from "effect"
import { CountryChartColumn, ReasonForControl } from "./Eccn.ts"

/**
 * The Country Chart check of one ECCN (or one paragraph of it) for one destination: per control
 * row of the entry, whether the row applies to the asked paragraph and, if it does, whether the
 * destination has an X in the column the row cites (15 CFR 738.4(a)(2)). Field names are
 * snake_case like the rest of the MCP surface.
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
  description: "license_required: the row applies and a cited column has an X; " +
    "not_for_this_paragraph: the row is limited to other paragraphs of the entry; " +
    "depends: a cited column has an X but the row applies only under `conditions` (quoted from the entry); " +
    "no_x_in_column: no cited column has an X (whatever the row's scope); " +
    "stated_in_text: the row names no column (destinations in text) or its scope could not be read: read it; " +
    "see_part_746: the destination's chart row points to part 746; " +
    "no_chart_row: the destination has a Country Group row but no Country Chart row, so the chart cannot answer"
})
export type RowStatus = typeof RowStatus.Type

export const ControlRowCheck = Schema.Struct({
  reason: Schema.NullOr(ReasonForControl),
  applies_to: Schema.String.annotations({ description: "The row's `Control(s)` text as the CCL prints it" }),
  country_chart: Schema.String.annotations({ description: "The row's `Country chart` text as printed" }),
  columns: Schema.Array(Schema.Struct({ column: CountryChartColumn, marked: Schema.Boolean })).annotations({
    description: "The columns the row cites and whether the destination has an X in each"
  }),
  status: RowStatus,
  conditions: Schema.optional(Schema.Array(Schema.String)).annotations({
    description: "With `depends` (or `stated_in_text`): the entry's words the row's reach depends on, quoted; " +
      "an `except …` condition takes items out"
  }),
  scope_unread: Schema.optional(Schema.String).annotations({
    description: "Why the row's `Control(s)` text could not be read as a scope; nothing is concluded from it"
  })
}).annotations({ identifier: "CountryChartControlRowCheck" })
export type ControlRowCheck = typeof ControlRowCheck.Type

export const EccnCheck = Schema.Struct({
  eccn: Schema.String,
  paragraph: Schema.NullOr(Schema.String).annotations({
    description: "The paragraph asked for (`b.4.b`); null asks for the entry as a whole, where rows limited to " +
      "some paragraphs answer `depends`"
  }),
  heading: Schema.String,
  item_text_available: Schema.Boolean.annotations({
    description: "False when the parsed eCFR text holds no List of Items Controlled for the entry: the paragraph " +
      "could not be verified"
  }),
  reason_for_control: Schema.Array(ReasonForControl),
  control_rows: Schema.Array(ControlRowCheck),
  license_required_columns: Schema.Array(CountryChartColumn).annotations({
    description: "Columns of rows answering `license_required`"
  }),
  depends_columns: Schema.Array(CountryChartColumn).annotations({
    description: "Columns of rows answering `depends`: a license is required if their conditions hold"
  }),
  footnotes_naming_eccn: Schema.Array(Schema.Int).annotations({
    description: "Footnotes of this country's row that name the ECCN: they may impose a requirement the grid does not"
  }),
  summary: Schema.String.annotations({
    description: "The rows that apply, by status; rows that do not are named last"
  }),
  caveat: Schema.String
}).annotations({ identifier: "CountryChartEccnCheck" })
export type EccnCheck = typeof EccnCheck.Type
