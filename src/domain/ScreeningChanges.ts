import { Schema } from "effect"
import * as Examples from "./examples/Screening.ts"

/**
 * `GET /api/csl/changes`: what each refresh of the Consolidated Screening List added, changed and
 * removed since a moment, as recorded in the shared store (every instance sees the same history).
 */

export const DefaultChangesLimit = 100
export const MaxChangesLimit = 500

/** An ISO 8601 date or date-time, as the lower bound of the refreshes reported. */
export const ChangesSince = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/, {
    message: () => "must be an ISO 8601 date or date-time, e.g. 2026-11-01 or 2026-11-01T00:00:00Z"
  }),
  Schema.filter((text) => !Number.isNaN(Date.parse(text)) || "must be a real date")
).annotations({ description: "Refreshes recorded after this ISO 8601 date or date-time" })

export const ChangesUrlParams = Schema.Struct({
  since: ChangesSince,
  limit: Schema.optional(
    Schema.compose(
      Schema.NumberFromString,
      Schema.Int.pipe(
        Schema.between(1, MaxChangesLimit, { message: () => `must be an integer from 1 to ${MaxChangesLimit}` })
      )
    )
  ).annotations({ description: `Changed entries per page (default ${DefaultChangesLimit})` }),
  cursor: Schema.optional(Schema.String.pipe(Schema.maxLength(200))).annotations({
    description: "next_cursor of the previous page"
  })
})
export type ChangesUrlParams = typeof ChangesUrlParams.Type

export const ChangeKind = Schema.Literal("added", "changed", "removed")
export type ChangeKind = typeof ChangeKind.Type

/** One refresh that was recorded: when, which list, how many entries it changed. */
export const ListRefresh = Schema.Struct({
  recorded_at: Schema.String.annotations({ description: "When an instance of this service recorded it" }),
  published_at: Schema.NullOr(Schema.String).annotations({ description: "When trade.gov generated the list" }),
  entries: Schema.Int,
  added: Schema.Int,
  changed: Schema.Int,
  removed: Schema.Int,
  baseline: Schema.Boolean.annotations({
    description: "true for the first list recorded: the starting point, whose entries are not listed as added"
  })
}).annotations({ identifier: "CslListRefresh" })
export type ListRefresh = typeof ListRefresh.Type

export const ChangedEntry = Schema.Struct({
  id: Schema.String.annotations({ description: "Entry id in the list (as in a match's `id`)" }),
  name: Schema.String.annotations({ description: "The entry's name (for removed entries: as last listed)" }),
  source_code: Schema.String,
  source: Schema.String,
  recorded_at: Schema.String.annotations({ description: "The refresh that brought the change" })
}).annotations({ identifier: "CslChangedEntry" })
export type ChangedEntry = typeof ChangedEntry.Type

export const ListChangesResponse = Schema.Struct({
  since: Schema.String,
  refreshes: Schema.Array(ListRefresh).annotations({ description: "Refreshes recorded after `since`, oldest first" }),
  added: Schema.Array(ChangedEntry),
  changed: Schema.Array(ChangedEntry).annotations({ description: "Entries whose listed content changed" }),
  removed: Schema.Array(ChangedEntry),
  next_cursor: Schema.NullOr(Schema.String).annotations({ description: "More changes: pass as `cursor`" })
}).annotations({ identifier: "CslListChanges", examples: [Examples.listChanges] })
export type ListChangesResponse = typeof ListChangesResponse.Type
