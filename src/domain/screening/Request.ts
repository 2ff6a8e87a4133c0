import { Schema } from "effect"

/**
 * What a screening asks: the request as JSON (MCP `search_csl`) and as the query parameters of
 * `GET /api/csl`, the same fields with the same limits.
 */

/** Short codes of the lists in the consolidated file (query code `MBS` is the list named "NS-MBS"). */
export const SourceCodes = [
  "CAP",
  "CMIC",
  "DPL",
  "DTC",
  "EL",
  "FSE",
  "ISN",
  "MBS",
  "MEU",
  "PLC",
  "SDN",
  "SSI",
  "UVL"
] as const
export const SourceCode = Schema.Literal(...SourceCodes).annotations({
  identifier: "CslSourceCode",
  description: "List code: EL, MEU, UVL, DPL (Commerce/BIS); SDN, SSI, FSE, MBS (NS-MBS), CMIC, CAP, PLC " +
    "(Treasury/OFAC); ISN, DTC (State)"
})
export type SourceCode = typeof SourceCode.Type

export const PartyTypes = ["Individual", "Entity", "Vessel", "Aircraft"] as const
export const PartyType = Schema.Literal(...PartyTypes).annotations({ identifier: "CslPartyType" })
export type PartyType = typeof PartyType.Type

export const CountryCode = Schema.String.pipe(
  Schema.pattern(/^[A-Z]{2}$/, { message: () => "must be ISO 3166-1 alpha-2 country codes, e.g. CN,RU" })
).annotations({ identifier: "CountryCode" })

/** Longest name accepted (the longest on the list is under 400 characters). */
export const MaxNameLength = 512
/** Only this many words of a name are compared. */
export const MaxNameTokens = 24
/** Score from which a list entry counts as a potential match unless the caller sets `min_score`. */
export const DefaultMinScore = 85
export const DefaultPageSize = 10
export const MaxPageSize = 50
export const MaxOffset = 200

/**
 * The party name. Decode failures never echo the value: it is a party name, and problem details
 * are logged and shown.
 */
export const PartyName = Schema.compose(
  Schema.String.annotations({ message: () => "must be given once, as text" }),
  Schema.Trim
).pipe(
  Schema.minLength(1, { message: () => "must not be blank" }),
  Schema.maxLength(MaxNameLength, { message: () => `must be at most ${MaxNameLength} characters` })
).annotations({ description: "Name of the party to screen (person, company, vessel or aircraft)" })

export const MinScore = Schema.Number.pipe(
  Schema.between(0, 100, { message: () => "must be a number from 0 to 100" })
).annotations({ description: `Lowest score reported as a match (default ${DefaultMinScore})` })

export const PageSize = Schema.Int.pipe(
  Schema.between(1, MaxPageSize, { message: () => `must be an integer from 1 to ${MaxPageSize}` })
).annotations({ description: `Matches per page (default ${DefaultPageSize})` })

export const Offset = Schema.Int.pipe(
  Schema.between(0, MaxOffset, { message: () => `must be an integer from 0 to ${MaxOffset}` })
).annotations({ description: "Matches to skip (default 0)" })

const nonEmpty = <A, I>(item: Schema.Schema<A, I>) =>
  Schema.Array(item).pipe(Schema.minItems(1, { message: () => "must name at least one value" }))

/** What the optional request fields mean, for both the JSON request and the query parameters. */
const described = {
  sources: "Search only these lists (default: all)",
  fuzzy_name: "true (default): fuzzy matching; false: exact match of the normalized name",
  countries: "Keep entries linked to one of these ISO alpha-2 countries (address, nationality, citizenship); " +
    "entries without any country (e.g. ISN, DTC) are kept, since they cannot be ruled out",
  type: "The party's type: an entry of the same type scores higher, of another type lower (reason in " +
    "field_agreement); entries of unknown type (BIS and State lists) are unchanged",
  country: "The party's country (ISO alpha-2): an entry linked to it scores higher, to other countries only lower " +
    "(reason in field_agreement)",
  id: "An ID number (passport, IMO, registration …): entries listing it are returned as match_type id"
}

/** Longest ID number accepted (the list's longest is under 100 characters). */
export const MaxIdLength = 64

export const IdNumber = Schema.compose(
  Schema.String.annotations({ message: () => "must be given once, as text" }),
  Schema.Trim
).pipe(
  Schema.minLength(1, { message: () => "must not be blank" }),
  Schema.maxLength(MaxIdLength, { message: () => `must be at most ${MaxIdLength} characters` })
)

/** What to screen. Omitted fields take the documented defaults. */
export const ScreeningRequest = Schema.Struct({
  name: PartyName,
  sources: Schema.optional(nonEmpty(SourceCode)).annotations({ description: described.sources }),
  fuzzy_name: Schema.optional(Schema.Boolean).annotations({ description: described.fuzzy_name }),
  countries: Schema.optional(nonEmpty(CountryCode)).annotations({ description: described.countries }),
  type: Schema.optional(PartyType).annotations({ description: described.type }),
  country: Schema.optional(CountryCode).annotations({ description: described.country }),
  id: Schema.optional(IdNumber).annotations({ description: described.id }),
  min_score: Schema.optional(MinScore),
  size: Schema.optional(PageSize),
  offset: Schema.optional(Offset)
}).annotations({ identifier: "ScreeningRequest" })
export type ScreeningRequest = typeof ScreeningRequest.Type

/** Comma-separated values of a query parameter (`sources=EL,SDN`), blanks ignored. */
const commaSeparated = <A>(item: Schema.Schema<A, string>) =>
  Schema.compose(
    Schema.transform(Schema.String, Schema.Array(Schema.String), {
      strict: true,
      decode: (text) => text.split(",").map((part) => part.trim()).filter((part) => part !== ""),
      encode: (parts) => parts.join(",")
    }),
    nonEmpty(item)
  )

const capitalized = Schema.transform(Schema.String, Schema.String, {
  strict: true,
  decode: (text) => text.charAt(0).toUpperCase() + text.slice(1).toLowerCase(),
  encode: (text) => text
})

/**
 * `GET /api/csl` query parameters: the same fields as `ScreeningRequest`, as text. List codes,
 * country codes and the type are case-insensitive.
 */
export const ScreeningUrlParams = Schema.Struct({
  name: PartyName,
  sources: Schema.optional(commaSeparated(Schema.compose(Schema.Uppercase, SourceCode))).annotations({
    description: `${described.sources}; comma-separated`
  }),
  fuzzy_name: Schema.optional(Schema.BooleanFromString).annotations({ description: described.fuzzy_name }),
  countries: Schema.optional(commaSeparated(Schema.compose(Schema.Uppercase, CountryCode))).annotations({
    description: `${described.countries}; comma-separated`
  }),
  type: Schema.optional(Schema.compose(capitalized, PartyType)).annotations({ description: described.type }),
  country: Schema.optional(Schema.compose(Schema.Uppercase, CountryCode)).annotations({
    description: described.country
  }),
  id: Schema.optional(IdNumber).annotations({ description: described.id }),
  min_score: Schema.optional(Schema.compose(Schema.NumberFromString, MinScore)),
  size: Schema.optional(Schema.compose(Schema.NumberFromString, PageSize)),
  offset: Schema.optional(Schema.compose(Schema.NumberFromString, Offset))
})
