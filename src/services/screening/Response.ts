import type { AffiliatesRuleStatus } from "../../domain/RegulatoryStatus.ts"
import type {
  FieldAgreement,
  MatchExplanation,
  OwnershipTrace,
  ScreeningAffiliatesRule,
  ScreeningMatch
} from "../../domain/Screening.ts"
import type { BulkAddress, BulkIdentifier } from "./BulkFile.ts"
import type { ListEntry } from "./ListEntry.ts"
import type { Alignment } from "./Scorer.ts"

/** What a screening response says besides its matches, and how a list entry is reported. */

const text = (value: string | null | undefined): string | null =>
  value === undefined || value === null || value.trim() === "" ? null : value

const texts = (values: ReadonlyArray<string | null> | null | undefined): Array<string> =>
  (values ?? []).flatMap((value) => (value === null || value.trim() === "" ? [] : [value]))

const address = (value: BulkAddress) => ({
  address: text(value.address),
  city: text(value.city),
  state: text(value.state),
  postal_code: text(value.postal_code),
  country: text(value.country)
})

const identifier = (value: BulkIdentifier) => ({
  type: text(value.type),
  number: text(value.number),
  country: text(value.country),
  issue_date: text(value.issue_date),
  expiration_date: text(value.expiration_date)
})

/** The scorer's alignment as the API reports it. */
export const toExplanation = (alignment: Alignment): typeof MatchExplanation.Type => ({
  alignment: alignment.steps,
  reordered: alignment.reordered
})

/** How an entry was found beside its name: by one of its ID numbers, how the stated fields compared, and the scorer's alignment. */
export interface MatchBasis {
  /** Index in the entry's `ids` of the ID number that matched (an id match). */
  readonly id?: number | undefined
  readonly agreement?: FieldAgreement | undefined
  readonly alignment?: Alignment | undefined
}

/** A list entry as a match; `score` is 0–100. */
export const toMatch = (entry: ListEntry, alias: number, score: number, basis: MatchBasis = {}): ScreeningMatch => {
  const record = entry.record
  const matched = entry.names[alias]!
  const vessel = {
    call_sign: text(record.call_sign),
    vessel_type: text(record.vessel_type),
    vessel_flag: text(record.vessel_flag),
    vessel_owner: text(record.vessel_owner),
    gross_tonnage: text(record.gross_tonnage),
    gross_registered_tonnage: text(record.gross_registered_tonnage)
  }
  return {
    id: text(record.id) ?? text(record.entity_number) ?? "",
    name: record.name,
    matched_name: matched.listed,
    matched_name_kind: matched.kind,
    match_type: basis.id === undefined ? "name" : "id",
    matched_id: basis.id === undefined ? null : identifier(record.ids![basis.id]!),
    field_agreement: basis.agreement ?? null,
    score,
    source: record.source,
    source_code: entry.code,
    type: text(record.type),
    programs: texts(record.programs),
    alt_names: [...entry.altNames],
    countries: [...entry.countries],
    addresses: (record.addresses ?? []).map(address),
    ids: (record.ids ?? []).map(identifier),
    remarks: text(record.remarks),
    title: text(record.title),
    dates_of_birth: texts(record.dates_of_birth),
    places_of_birth: texts(record.places_of_birth),
    nationalities: texts(record.nationalities),
    citizenships: texts(record.citizenships),
    federal_register_notice: text(record.federal_register_notice),
    start_date: text(record.start_date),
    end_date: text(record.end_date),
    license_requirement: text(record.license_requirement),
    license_policy: text(record.license_policy),
    vessel: Object.values(vessel).some((value) => value !== null) ? vessel : null,
    source_list_url: text(record.source_list_url),
    source_information_url: text(record.source_information_url),
    ...(basis.alignment === undefined ? {} : { explanation: toExplanation(basis.alignment) })
  }
}

const ofac50 = "Separately, OFAC's 50 Percent Rule treats any entity owned 50% or more, directly or indirectly, " +
  "individually or in the aggregate, by blocked persons (e.g. SDN-listed parties) as blocked even when it is not " +
  "listed itself."

const familyNote = "An entry in name_contained is listed under a name that contains every identifying word of the " +
  "query, however low it scored: typically a subsidiary, branch or affiliate of a listed group (\"Huawei " +
  "Technologies (Bolivia) S.R.L.\" for \"Huawei\"). It is not a match for the party screened, but each is a listed " +
  "party in its own right: if the party screened is one of them, owns one or is owned by one, the ownership rules " +
  "above apply; check its addresses and identifiers against the party."

/** The Affiliates Rule state with what it means for entities that listed parties own. */
export const affiliatesRule = (status: AffiliatesRuleStatus): typeof ScreeningAffiliatesRule.Type => ({
  ...status,
  owned_entities: status.state === "in_force"
    ? "In force: a foreign entity owned 50% or more, directly or indirectly, individually or in the aggregate, by " +
      "parties on the Entity List or the Military End-User List (or by certain SDN-listed parties) carries the same " +
      "EAR license requirements as its listed owners even though its own name is on no list. A name screen cannot " +
      `see ownership, so no_match does not clear such a subsidiary. ${ofac50}`
    : `Suspended through ${status.suspendedThrough}: EAR list-based restrictions currently apply only to the listed ` +
      `parties themselves, but the rule is scheduled to apply again from ${status.snapBackDate}, and ownership by a ` +
      `listed party remains a red flag to resolve before proceeding. ${ofac50}`,
  name_contained: familyNote
})

export const ownershipTrace: typeof OwnershipTrace.Type = {
  performed: false,
  summary: "Only the name was compared with the Consolidated Screening List. Owners, parent companies, " +
    "subsidiaries, directors and other related parties were not traced, so this result is not ownership due " +
    "diligence.",
  checks: [
    "Identify the party's direct and indirect owners, including ultimate beneficial owners, and screen each of " +
    "them by name.",
    "Add up the shares that listed parties hold: 50% or more in aggregate by blocked persons makes the party " +
    "blocked under OFAC's 50 Percent Rule, and by Entity List or MEU parties brings it under the Affiliates Rule " +
    "while that rule is in force (see affiliates_rule).",
    "Where ownership by a listed party is known but its share cannot be determined, resolve that red flag before " +
    "proceeding.",
    "Screen the other parties to the transaction (consignees, end users, agents, banks, vessels) and check the " +
    "transaction for diversion red flags (15 CFR part 732, Supplement No. 3).",
    "Have a qualified person adjudicate every potential match against the list entry's identifiers, addresses, " +
    "dates of birth and nationalities before deciding."
  ]
}

export const disclaimer = "Name screening against the Consolidated Screening List only. A potential match is not a " +
  "determination that the party is the listed person or entity, and no_match is not clearance: hits are for human " +
  "adjudication. Not legal advice."
