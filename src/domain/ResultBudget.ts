import { Schema } from "effect"

/**
 * What an MCP answer cut to its result budget adds: where the next page starts and the next call
 * itself, so an agent reads on without guessing arguments. Both are absent when the answer is whole.
 */
export const PagedFields = {
  next_offset: Schema.optional(Schema.Int.annotations({ description: "`offset` of the next page; absent at the end" })),
  rest: Schema.optional(Schema.String.annotations({
    description: "What was left out and the exact next call that reads it"
  }))
}

export interface Paged {
  readonly next_offset?: number | undefined
  readonly rest?: string | undefined
}

/** The MCP-only `offset` argument of a paged tool (the REST twins answer whole). */
export const PageOffset = Schema.optional(
  Schema.Int.pipe(Schema.between(0, 2_000_000)).annotations({ description: "`next_offset` of the previous page" })
)
