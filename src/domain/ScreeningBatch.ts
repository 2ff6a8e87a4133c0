import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import * as Examples from "./examples/Screening.ts"
import { problem } from "./Problem.ts"
import {
  CountryCode,
  IdNumber,
  MinScore,
  Offset,
  OwnershipTrace,
  PageSize,
  PartyType,
  ScreenedList,
  ScreeningAffiliatesRule,
  ScreeningDataset,
  ScreeningMatch,
  ScreeningQuery,
  SourceCode
} from "./Screening.ts"

/**
 * `POST /api/csl/batch`: many parties screened with the options of `GET /api/csl`, one result per
 * input line, in order. The body is JSON (`BatchRequest`) or CSV; the answer is JSON, or NDJSON
 * streamed line by line when the client accepts `application/x-ndjson`.
 */

/** Most parties one batch request takes. */
export const MaxBatchNames = 1000
/** Largest body accepted: 1,000 names of the longest length with their country and type fit. */
export const MaxBatchBytes = 1_048_576
/** Longest CSV line (record) accepted. */
export const MaxCsvLineChars = 2048

export const CsvContentType = "text/csv"
export const NdjsonContentType = "application/x-ndjson"

/** One party of a JSON batch with what is known of it. Its name is checked per line, like a CSV line's. */
export const BatchParty = Schema.Struct({
  name: Schema.String.annotations({ description: "Name of the party (1-512 characters)" }),
  country: Schema.optional(CountryCode).annotations({ description: "The party's country (ISO alpha-2)" }),
  type: Schema.optional(PartyType),
  id: Schema.optional(IdNumber).annotations({ description: "An ID number of the party" })
}).annotations({ identifier: "CslBatchParty" })
export type BatchParty = typeof BatchParty.Type

const nonEmpty = <A, I>(item: Schema.Schema<A, I>) =>
  Schema.Array(item).pipe(Schema.minItems(1, { message: () => "must name at least one value" }))

/** The options every party of a batch is screened with: those of `GET /api/csl` but the name. */
export const BatchOptions = Schema.Struct({
  sources: Schema.optional(nonEmpty(SourceCode)).annotations({ description: "Search only these lists" }),
  fuzzy_name: Schema.optional(Schema.Boolean),
  countries: Schema.optional(nonEmpty(CountryCode)).annotations({
    description: "Keep entries linked to one of these countries (or to none)"
  }),
  type: Schema.optional(PartyType).annotations({ description: "Default type of every party" }),
  country: Schema.optional(CountryCode).annotations({ description: "Default country of every party" }),
  min_score: Schema.optional(MinScore),
  size: Schema.optional(PageSize),
  offset: Schema.optional(Offset)
})
export type BatchOptions = typeof BatchOptions.Type

/** The JSON body: the parties (names, or objects with a name and what is known of the party) and the options. */
export const BatchRequest = Schema.Struct({
  names: Schema.Array(
    Schema.Union(Schema.String.annotations({ description: "A party's name" }), BatchParty)
  ).pipe(
    Schema.minItems(1, { message: () => "must name at least one party" }),
    Schema.maxItems(MaxBatchNames, { message: () => `must name at most ${MaxBatchNames} parties` })
  ),
  ...BatchOptions.fields
}).annotations({ identifier: "CslBatchRequest", examples: [Examples.batchRequest] })
export type BatchRequest = typeof BatchRequest.Type

/** The CSV body: one name per line, or a header row naming the columns `name`, `country`, `type`, `id`. */
export const BatchCsv = HttpApiSchema.Text({ contentType: CsvContentType }).annotations({
  description: `One name per line, or a header row (name,country,type,id) and RFC 4180 quoting; ` +
    `at most ${MaxBatchNames} lines of ${MaxCsvLineChars} characters. Options as query parameters`,
  examples: [Examples.batchCsv]
})

/** One input line's result: its matches, or why that line could not be screened. */
export const BatchResult = Schema.Struct({
  line: Schema.Int.annotations({
    description: "Position of the party in the input: the array index + 1 (JSON), the line number (CSV)"
  }),
  name: Schema.String.annotations({ description: "The name as given (trimmed)" }),
  result: Schema.Literal("potential_match", "no_match", "invalid"),
  total: Schema.Int.annotations({ description: "Entries at or above min_score" }),
  matches: Schema.Array(ScreeningMatch),
  error: Schema.optional(Schema.String).annotations({ description: "Why the line was not screened (invalid)" })
}).annotations({ identifier: "CslBatchResult" })
export type BatchResult = typeof BatchResult.Type

/** What holds for every line of a batch, said once. */
export const BatchSummary = Schema.Struct({
  count: Schema.Int.annotations({ description: "Parties screened (lines with a result)" }),
  potential_matches: Schema.Int.annotations({ description: "Lines whose result is potential_match" }),
  invalid: Schema.Int.annotations({ description: "Lines that could not be screened" }),
  query: ScreeningQuery.pipe(Schema.omit("name", "country", "type", "id")),
  lists: Schema.Array(ScreenedList),
  dataset: ScreeningDataset,
  affiliates_rule: ScreeningAffiliatesRule,
  ownership_trace: OwnershipTrace,
  disclaimer: Schema.String
}).annotations({ identifier: "CslBatchSummary" })
export type BatchSummary = typeof BatchSummary.Type

export const BatchResponse = Schema.Struct({
  ...BatchSummary.fields,
  results: Schema.Array(BatchResult).annotations({ description: "One per input line, in input order" })
}).annotations({ identifier: "CslBatchResponse", examples: [Examples.batchResponse] })
export type BatchResponse = typeof BatchResponse.Type

const batchTooLarge = problem({
  slug: "batch-too-large",
  status: 413,
  title: "Batch too large",
  description: `A screening batch body is limited to ${MaxBatchBytes} bytes.`
})
export class BatchTooLarge extends Schema.TaggedError<BatchTooLarge>()("BatchTooLarge", {
  ...batchTooLarge.fields,
  limitBytes: Schema.Int
}, batchTooLarge.annotations) {}
