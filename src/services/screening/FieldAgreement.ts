import type { Agreement, FieldAgreement, PartyType } from "../../domain/Screening.ts"
import type { ListEntry } from "./ListEntry.ts"

/**
 * What the caller knows about the party beside its name (`country`, `type`) moves an entry's
 * score: a listed field that agrees adds a little, one that disagrees takes more away (a vessel is
 * not the person of the same name; a company of another country is less likely the listed one,
 * though lists record only some of an entity's countries), and a field the entry does not state
 * changes nothing. The name's score and the change are reported with the match.
 */
export const Points = {
  typeAgrees: 3,
  typeDisagrees: -20,
  countryAgrees: 3,
  countryDisagrees: -10
} as const

export interface Stated {
  readonly country?: string | undefined
  readonly type?: PartyType | undefined
}

const typeAgreement = (entry: ListEntry, type: PartyType): Agreement => {
  const listed = entry.record.type
  if (listed === undefined || listed === null || listed.trim() === "") return "unknown"
  return listed.trim().toLowerCase() === type.toLowerCase() ? "agrees" : "disagrees"
}

const countryAgreement = (entry: ListEntry, country: string): Agreement =>
  entry.countries.length === 0 ? "unknown" : entry.countries.includes(country) ? "agrees" : "disagrees"

const pointsOf = (agreement: Agreement | null, agrees: number, disagrees: number) =>
  agreement === "agrees" ? agrees : agreement === "disagrees" ? disagrees : 0

/** The comparison for one entry and its adjusted score (0–100, one decimal); `undefined` when nothing was stated. */
export const compare = (
  entry: ListEntry,
  nameScore: number,
  stated: Stated
): { readonly score: number; readonly report: FieldAgreement } | undefined => {
  if (stated.country === undefined && stated.type === undefined) return undefined
  const country = stated.country === undefined ? null : countryAgreement(entry, stated.country)
  const type = stated.type === undefined ? null : typeAgreement(entry, stated.type)
  const adjustment = pointsOf(country, Points.countryAgrees, Points.countryDisagrees) +
    pointsOf(type, Points.typeAgrees, Points.typeDisagrees)
  const score = Math.round(Math.min(100, Math.max(0, nameScore + adjustment)) * 10) / 10
  return {
    score,
    report: { country, type, name_score: nameScore, adjustment: Math.round((score - nameScore) * 10) / 10 }
  }
}
