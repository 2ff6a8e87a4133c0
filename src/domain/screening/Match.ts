import { Schema } from "effect"

/** One list entry that matched, with the explanation of its score: the items of a screening answer. */

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
