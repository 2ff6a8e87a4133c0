import { Schema } from "effect"
import {
  CountryCode,
  FieldAgreement,
  MinScore,
  Offset,
  PageSize,
  PartyName,
  PartyType,
  ScreeningResponse,
  SourceCodes
} from "./Screening.ts"

/** Most names one MCP screening call takes (each is a full screen; the answer stays within budget). */
export const MaxNamesPerCall = 10

/** Matches per name in the compact form unless `size` says otherwise: enough to adjudicate, little to read. */
export const CompactPageSize = 5

const nonEmpty = <A, I>(item: Schema.Schema<A, I>) =>
  Schema.Array(item).pipe(Schema.minItems(1, { message: () => "must name at least one value" }))

const commaSeparated = Schema.transform(Schema.String, Schema.Array(Schema.String), {
  strict: true,
  decode: (text) => text.split(",").map((part) => part.trim().toUpperCase()).filter((part) => part !== ""),
  encode: (parts) => parts.join(",")
})

/**
 * A list of codes as an array (`["EL","SDN"]`) or as the comma-separated text the REST query and
 * the skills write (`"EL,SDN"`, any case).
 */
const codes = <A extends string, I extends string>(item: Schema.Schema<A, I>) =>
  Schema.Union(nonEmpty(item), Schema.compose(commaSeparated, nonEmpty(item), { strict: false }))

/** `search_csl` arguments: the REST request's fields, several names, and the answer's form. */
export const CompactScreeningRequest = Schema.Struct({
  name: Schema.optional(PartyName).annotations({ description: "Party to screen" }),
  names: Schema.optional(
    Schema.Array(PartyName).pipe(
      Schema.minItems(1, { message: () => "must name at least one party" }),
      Schema.maxItems(MaxNamesPerCall, { message: () => `must name at most ${MaxNamesPerCall} parties` })
    )
  ).annotations({ description: "Several parties, each screened" }),
  sources: Schema.optional(codes(Schema.Literal(...SourceCodes))).annotations({
    description: "Lists (default all): array or \"EL,SDN\""
  }),
  countries: Schema.optional(codes(CountryCode)).annotations({
    description: "ISO alpha-2 (entries without a country stay)"
  }),
  fuzzy_name: Schema.optional(Schema.Boolean).annotations({ description: "false: exact normalized name" }),
  type: Schema.optional(PartyType.annotations({ description: "Same type scores higher, other lower" })),
  country: Schema.optional(CountryCode.annotations({ description: "The party's; moves scores" })),
  min_score: Schema.optional(MinScore),
  size: Schema.optional(PageSize.annotations({ description: `Matches per name (default ${CompactPageSize})` })),
  offset: Schema.optional(Offset),
  format: Schema.optional(Schema.Literal("compact", "full")).annotations({
    description: "full: the REST answer, every field (one name)"
  })
}).pipe(
  Schema.filter((request) =>
    (request.name !== undefined || request.names !== undefined) ||
    { path: ["name"], message: "is required unless `names` is given" }
  ),
  Schema.filter((request) =>
    request.format !== "full" || (request.names?.length ?? 0) + (request.name === undefined ? 0 : 1) === 1 ||
    { path: ["format"], message: "must be compact for several names (`full` takes one)" }
  )
)
export type CompactScreeningRequest = typeof CompactScreeningRequest.Type

/** One hit with the fields an analyst adjudicates on; empty fields are left out. */
export const CompactMatch = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  matched_name: Schema.optional(Schema.String).annotations({ description: "The alias that matched, when not `name`" }),
  score: Schema.Number,
  why: Schema.optional(Schema.String).annotations({
    description: "Alignment: `a→b kind` pairs, `+word` only in the query, `-word` only in the listed name"
  }),
  matched_id: Schema.optional(Schema.String).annotations({ description: "The listed ID number that matched" }),
  field_agreement: Schema.optional(FieldAgreement),
  list: Schema.String.annotations({ description: "List code (EL, SDN …)" }),
  type: Schema.optional(Schema.String),
  programs: Schema.optional(Schema.Array(Schema.String)),
  countries: Schema.optional(Schema.Array(Schema.String)),
  addresses: Schema.optional(Schema.Array(Schema.String)),
  ids: Schema.optional(Schema.Array(Schema.String)),
  dates_of_birth: Schema.optional(Schema.Array(Schema.String)),
  alt_names: Schema.optional(Schema.Int).annotations({ description: "How many aliases the entry has" }),
  federal_register_notice: Schema.optional(Schema.String),
  start_date: Schema.optional(Schema.String),
  license_requirement: Schema.optional(Schema.String),
  license_policy: Schema.optional(Schema.String),
  remarks: Schema.optional(Schema.String)
}).annotations({ identifier: "CompactScreeningMatch" })
export type CompactMatch = typeof CompactMatch.Type

/** A corporate family member: who and where, for the analyst to decide whether to look closer. */
export const CompactFamilyMember = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  score: Schema.Number,
  list: Schema.String
}).annotations({ identifier: "CompactFamilyMember" })

export const CompactScreenedParty = Schema.Struct({
  name: Schema.String,
  result: Schema.Literal("potential_match", "no_match"),
  total: Schema.Int.annotations({ description: "Entries at or above min_score" }),
  matches: Schema.Array(CompactMatch),
  next_offset: Schema.optional(Schema.Int),
  name_contained: Schema.optional(Schema.Struct({
    total: Schema.Int,
    matches: Schema.Array(CompactFamilyMember)
  })).annotations({
    description: "Other listed names containing this name (corporate family), not matches; see affiliates_rule"
  })
}).annotations({ identifier: "CompactScreenedParty" })

/** The compact answer: per name its matches, and what holds for every name said once. */
export const CompactScreeningAnswer = Schema.Struct({
  result: Schema.Literal("potential_match", "no_match"),
  parties: Schema.Array(CompactScreenedParty),
  lists: Schema.Array(Schema.String).annotations({ description: "List codes searched" }),
  dataset: Schema.Struct({
    published_at: Schema.NullOr(Schema.String),
    entries: Schema.Int,
    stale: Schema.Boolean
  }),
  affiliates_rule: Schema.String,
  note: Schema.String
}).annotations({ identifier: "CompactScreeningAnswer" })
export type CompactScreeningAnswer = typeof CompactScreeningAnswer.Type

/** What `search_csl` answers: the compact form, or with `format: "full"` the REST response. */
export const SearchCslAnswer = Schema.Union(CompactScreeningAnswer, ScreeningResponse)
export type SearchCslAnswer = typeof SearchCslAnswer.Type
