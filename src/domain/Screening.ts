import { Schema } from "effect"
import * as Examples from "./examples/Screening.ts"
import { AffiliatesRuleStatus } from "./RegulatoryStatus.ts"

/**
 * Denied-party screening against the Consolidated Screening List: the request both REST
 * (`GET /api/csl`) and MCP (`search_csl`) accept, and the response they return.
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

/** The request as it was applied, defaults filled in. */
export const ScreeningQuery = Schema.Struct({
  name: Schema.String,
  fuzzy_name: Schema.Boolean,
  sources: Schema.Array(Schema.String).annotations({ description: "Lists searched (codes)" }),
  countries: Schema.NullOr(Schema.Array(Schema.String)),
  type: Schema.NullOr(PartyType),
  country: Schema.NullOr(Schema.String),
  id: Schema.NullOr(Schema.String),
  min_score: Schema.Number,
  size: Schema.Int,
  offset: Schema.Int
}).annotations({ identifier: "ScreeningQuery" })

export const ScreenedList = Schema.Struct({
  code: Schema.String,
  name: Schema.String.annotations({ description: "Full list name and agency, as published" }),
  entries: Schema.Int,
  source_last_updated: Schema.NullOr(Schema.String),
  last_imported: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ScreenedList" })

export const ScreeningDataset = Schema.Struct({
  published_at: Schema.NullOr(Schema.String).annotations({
    description: "When trade.gov generated the bulk file (`search_performed_at`)"
  }),
  loaded_at: Schema.String.annotations({ description: "When this service indexed it" }),
  entries: Schema.Int,
  stale: Schema.Boolean.annotations({
    description: "true when the latest refresh failed and the last good list answers"
  })
}).annotations({ identifier: "ScreeningDataset" })

export const MatchAddress = Schema.Struct({
  address: Schema.NullOr(Schema.String),
  city: Schema.NullOr(Schema.String),
  state: Schema.NullOr(Schema.String),
  postal_code: Schema.NullOr(Schema.String),
  country: Schema.NullOr(Schema.String)
}).annotations({ identifier: "CslAddress" })

export const MatchIdentifier = Schema.Struct({
  type: Schema.NullOr(Schema.String),
  number: Schema.NullOr(Schema.String),
  country: Schema.NullOr(Schema.String),
  issue_date: Schema.NullOr(Schema.String),
  expiration_date: Schema.NullOr(Schema.String)
}).annotations({ identifier: "CslIdentifier" })

export const MatchVessel = Schema.Struct({
  call_sign: Schema.NullOr(Schema.String),
  vessel_type: Schema.NullOr(Schema.String),
  vessel_flag: Schema.NullOr(Schema.String),
  vessel_owner: Schema.NullOr(Schema.String),
  gross_tonnage: Schema.NullOr(Schema.String),
  gross_registered_tonnage: Schema.NullOr(Schema.String)
}).annotations({ identifier: "CslVessel" })

/**
 * How a query word relates to a listed word in a match's alignment: spelled alike (`exact`,
 * `typo`), sounding alike (`phonetic`), another romanization or script (`transliteration`), a cut,
 * conventional abbreviation or acronym (`abbreviation`), a legal form in another spelling or
 * language (`legal_form`), digits against words (`number`), an initial (`initial`), words
 * written joined or split (`joined`); on one side only: a `title` or `legal_form`, a query word
 * the listed name lacks (`added`), a listed word the query lacks (`dropped`).
 */
/** Kinds of a query word paired with a listed word (the scorer's codes index this list). */
export const PairKinds = [
  "exact",
  "typo",
  "phonetic",
  "transliteration",
  "abbreviation",
  "legal_form",
  "number",
  "initial",
  "joined"
] as const

export const AlignmentKinds = [...PairKinds, "title", "added", "dropped"] as const

export const AlignmentStep = Schema.Struct({
  query: Schema.NullOr(Schema.String).annotations({ description: "Query words (normalized); null: dropped" }),
  listed: Schema.NullOr(Schema.String).annotations({ description: "Listed words (normalized); null: added" }),
  kind: Schema.Literal(...AlignmentKinds),
  similarity: Schema.Number.annotations({ description: "0-1; 0 for a word on one side only" }),
  weight: Schema.Number.annotations({
    description: "What the step weighs in the score: rare words most; titles, legal forms, left-out listed words little"
  })
}).annotations({ identifier: "CslAlignmentStep" })

/** Why an entry scored as it did: the scorer's own alignment of the query with `matched_name`. */
export const MatchExplanation = Schema.Struct({
  alignment: Schema.Array(AlignmentStep).annotations({
    description: "Query words in order with the listed words they paired with, then listed words the query lacks"
  }),
  reordered: Schema.Boolean.annotations({
    description: "A person's names paired in another order than listed: the score was multiplied by 0.8"
  })
}).annotations({ identifier: "CslMatchExplanation" })

/** How a list field compares with what the caller said about the party. */
export const Agreement = Schema.Literal("agrees", "disagrees", "unknown").annotations({
  identifier: "CslFieldAgreement",
  description: "unknown: the entry does not state the field"
})
export type Agreement = typeof Agreement.Type

/** The `country` and `type` the caller gave, compared with the entry, and what that did to the score. */
export const FieldAgreement = Schema.Struct({
  country: Schema.NullOr(Agreement).annotations({ description: "null: no country was given" }),
  type: Schema.NullOr(Agreement).annotations({ description: "null: no type was given" }),
  name_score: Schema.Number.annotations({ description: "The name's score before the adjustment" }),
  adjustment: Schema.Number.annotations({ description: "Points added to (or taken from) name_score" })
}).annotations({ identifier: "CslFieldAgreementReport" })
export type FieldAgreement = typeof FieldAgreement.Type

/** One list entry that scored at or above `min_score`. */
export const ScreeningMatch = Schema.Struct({
  id: Schema.String.annotations({ description: "Record id in the list (OFAC entity number or trade.gov hash)" }),
  name: Schema.String,
  matched_name: Schema.String.annotations({
    description: "The name or alternate name, as listed, that scored best"
  }),
  matched_name_kind: Schema.Literal("name", "alt_name"),
  match_type: Schema.Literal("name", "id").annotations({
    description: "id: the entry lists the ID number asked for (`matched_id`); name: its name or alias matched"
  }),
  matched_id: Schema.NullOr(MatchIdentifier).annotations({ description: "The listed ID that matched (id matches)" }),
  field_agreement: Schema.NullOr(FieldAgreement).annotations({
    description: "How the entry's country and type compare with the ones given (null when neither was given)"
  }),
  score: Schema.Number.annotations({
    description: "0-100; 100 is the same normalized name. A score is a similarity, not a determination"
  }),
  source: Schema.String.annotations({ description: "Full list name and agency" }),
  source_code: Schema.String,
  type: Schema.NullOr(Schema.String),
  programs: Schema.Array(Schema.String),
  alt_names: Schema.Array(Schema.String),
  countries: Schema.Array(Schema.String).annotations({
    description: "Countries from addresses, nationalities and citizenships (ISO alpha-2 as listed)"
  }),
  addresses: Schema.Array(MatchAddress),
  ids: Schema.Array(MatchIdentifier),
  remarks: Schema.NullOr(Schema.String),
  title: Schema.NullOr(Schema.String),
  dates_of_birth: Schema.Array(Schema.String),
  places_of_birth: Schema.Array(Schema.String),
  nationalities: Schema.Array(Schema.String),
  citizenships: Schema.Array(Schema.String),
  federal_register_notice: Schema.NullOr(Schema.String),
  start_date: Schema.NullOr(Schema.String),
  end_date: Schema.NullOr(Schema.String),
  license_requirement: Schema.NullOr(Schema.String),
  license_policy: Schema.NullOr(Schema.String),
  vessel: Schema.NullOr(MatchVessel),
  source_list_url: Schema.NullOr(Schema.String),
  source_information_url: Schema.NullOr(Schema.String),
  explanation: Schema.optional(MatchExplanation)
}).annotations({
  identifier: "ScreeningMatch",
  examples: [{
    id: "a3c1f0e2d4b5c6a7e8f9012345678901abcdef12",
    name: "Huawei Technologies Co., Ltd.",
    matched_name: "Huawei Technologies Co., Ltd.",
    matched_name_kind: "name",
    match_type: "name",
    matched_id: null,
    field_agreement: null,
    score: 96.4,
    source: "Entity List (EL) - Bureau of Industry and Security",
    source_code: "EL",
    type: "Entity",
    programs: [],
    alt_names: ["Huawei"],
    countries: ["CN"],
    addresses: [{
      address: "Bantian Huawei Base, Longgang District",
      city: "Shenzhen",
      state: null,
      postal_code: null,
      country: "CN"
    }],
    ids: [],
    remarks: null,
    title: null,
    dates_of_birth: [],
    places_of_birth: [],
    nationalities: [],
    citizenships: [],
    federal_register_notice: "84 FR 22963, 5/21/19",
    start_date: "2019-05-16",
    end_date: null,
    license_requirement: "For all items subject to the EAR, see §§ 734.9(e) and 744.11(a)(2) of the EAR.",
    license_policy: "Presumption of denial for items subject to the EAR.",
    vessel: null,
    source_list_url: "https://www.bis.gov/entity-list",
    source_information_url: "https://www.bis.gov/entity-list"
  }]
})
export type ScreeningMatch = typeof ScreeningMatch.Type

/** The Affiliates Rule as it stands today, and what it means for entities a listed party owns. */
export const ScreeningAffiliatesRule = Schema.Struct({
  ...AffiliatesRuleStatus.fields,
  owned_entities: Schema.String.annotations({
    description: "What the current state means for entities owned by listed parties"
  }),
  name_contained: Schema.String.annotations({
    description: "What an entry in the name_contained group (a listed corporate family member) means"
  })
}).annotations({ identifier: "ScreeningAffiliatesRule" })

/**
 * The query's corporate family: listed entries whose names contain every identifying word of the
 * query ("Huawei" → "Huawei Technologies (Bolivia) S.R.L."), whatever they scored, apart from the
 * matches. Paged by the request's `size` and `offset`, ranked by score.
 */
export const NameContainedGroup = Schema.Struct({
  match_type: Schema.Literal("name_contained"),
  words: Schema.Array(Schema.String).annotations({
    description:
      "The query words (normalized) every entry's name contains; titles, legal forms and very common words are not required"
  }),
  total: Schema.Int.annotations({ description: "Entries in the group (all pages), those in matches not counted" }),
  too_broad: Schema.Boolean.annotations({
    description: "More than 2,000 listed names contain the words: not listed (total counts them all); narrow the query"
  }),
  matches: Schema.Array(ScreeningMatch)
}).annotations({ identifier: "ScreeningNameContained" })

export const OwnershipTrace = Schema.Struct({
  performed: Schema.Literal(false),
  summary: Schema.String,
  checks: Schema.Array(Schema.String).annotations({ description: "What a person should check next" })
}).annotations({ identifier: "OwnershipTrace" })

export const ScreeningResponse = Schema.Struct({
  query: ScreeningQuery,
  total: Schema.Int.annotations({ description: "Entries at or above min_score (all pages)" }),
  result: Schema.Literal("potential_match", "no_match").annotations({
    description: "potential_match when any entry scored at or above min_score; hits need human adjudication"
  }),
  lists: Schema.Array(ScreenedList).annotations({ description: "The lists searched" }),
  dataset: ScreeningDataset,
  matches: Schema.Array(ScreeningMatch),
  name_contained: Schema.optional(NameContainedGroup).annotations({
    description: "Listed names containing the query (corporate family), apart from matches; absent when the " +
      "query has no identifying word"
  }),
  affiliates_rule: ScreeningAffiliatesRule,
  ownership_trace: OwnershipTrace,
  disclaimer: Schema.String
}).annotations({ identifier: "ScreeningResponse", examples: [Examples.screeningResponse] })
export type ScreeningResponse = typeof ScreeningResponse.Type

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
