import { Schema } from "effect"

/**
 * What a search's empty answer means: `ok` (the data was there and searched), `empty` (the store
 * holds nothing yet), `not_configured` (this deployment has no such source), `stale` (an older copy
 * or a fallback answered), `error` (the source failed). An agent must not read "no hits" as
 * "nothing found" unless the state is `ok`.
 */
export const DataStateValue = Schema.Literal("ok", "empty", "not_configured", "stale", "error")
export type DataStateValue = typeof DataStateValue.Type

export const DataStateFields = {
  data_state: DataStateValue.annotations({
    description: "ok, empty, not_configured, stale or error: no hits mean \"nothing found\" only when ok"
  }),
  data_note: Schema.optional(Schema.String.annotations({ description: "Why the state is not ok, or what to try" }))
}

export interface DataState {
  readonly data_state: DataStateValue
  readonly data_note?: string | undefined
}
