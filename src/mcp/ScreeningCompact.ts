import type { MatchExplanation, ScreeningMatch, ScreeningResponse } from "../domain/Screening.ts"
import type { CompactMatch, CompactScreeningAnswer } from "../domain/ScreeningCompact.ts"
import { words } from "../services/screening/Normalize.ts"

/** Remarks are free text of any length; the start is what an analyst needs to decide whether to read on. */
const RemarksChars = 300

/** The words of a listed name without its parenthesized short form: `Huawei Technologies Co., Ltd. (Huawei)`. */
const nameWords = (name: string) => words(name.replace(/\([^)]*\)/g, " "))

const containsRun = (haystack: ReadonlyArray<string>, needle: ReadonlyArray<string>) => {
  if (needle.length === 0 || needle.length >= haystack.length) return false
  for (let i = 0; i + needle.length <= haystack.length; i++) {
    if (needle.every((word, j) => haystack[i + j] === word)) return true
  }
  return false
}

/**
 * Presentation order for one query: an entry whose name is the query ranks first; an entry whose
 * whole name appears inside another's (the parent in "Huawei Technologies Co., Ltd. … Affiliated
 * Entity: …", "Chengdu Huawei Technologies Co., Ltd.") ranks at or above it. Scores are left as
 * the engine computed them; only the order changes, so a parent is never read after its
 * subsidiaries.
 */
export const rankParentsFirst = (
  matches: ReadonlyArray<ScreeningMatch>,
  query: string
): ReadonlyArray<ScreeningMatch> => {
  const queryWords = words(query).join(" ")
  const entries = matches.map((match, index) => ({
    match,
    index,
    words: nameWords(match.name),
    exact: words(match.matched_name).join(" ") === queryWords || nameWords(match.name).join(" ") === queryWords
  }))
  const effective = entries.map((entry) =>
    entries.reduce(
      (best, other) => containsRun(other.words, entry.words) ? Math.max(best, other.match.score) : best,
      entry.match.score
    )
  )
  return [...entries]
    .sort((a, b) =>
      Number(b.exact) - Number(a.exact) ||
      effective[b.index]! - effective[a.index]! ||
      a.words.length - b.words.length ||
      a.index - b.index
    )
    .map((entry) => entry.match)
}

const present = <A>(values: ReadonlyArray<A>) => values.length > 0 ? values : undefined

const text = (value: string | null) => value === null || value.trim() === "" ? undefined : value

const line = (parts: ReadonlyArray<string | null>) =>
  parts.filter((part): part is string => part !== null && part.trim() !== "").join(", ")

/**
 * The alignment in one short line: `igor`, `sech1n→sechin typo`, `+haji title` (a query word the
 * name lacks), `-ivanovich` (a listed word the query lacks); `order x0.8` when a person's names
 * came in another order.
 */
export const why = (explanation: typeof MatchExplanation.Type): string => {
  const steps = explanation.alignment.map((step) =>
    step.listed === null
      ? `+${step.query}${step.kind === "added" ? "" : ` ${step.kind}`}`
      : step.query === null
      ? `-${step.listed}${step.kind === "dropped" ? "" : ` ${step.kind}`}`
      : step.kind === "exact"
      ? step.query
      : `${step.query}→${step.listed} ${step.kind}`
  )
  return [...steps, ...(explanation.reordered ? ["order x0.8"] : [])].join(", ")
}

/** A hit as an analyst adjudicates it: who, which list, why, where; empty fields omitted. */
export const compactMatch = (match: ScreeningMatch): CompactMatch => {
  const remarks = text(match.remarks)
  const fields: Record<string, unknown> = {
    id: match.id,
    name: match.name,
    matched_name: match.matched_name === match.name ? undefined : match.matched_name,
    score: match.score,
    why: match.explanation === undefined ? undefined : why(match.explanation),
    matched_id: match.matched_id === null ? undefined : line([match.matched_id.type, match.matched_id.number]),
    field_agreement: match.field_agreement ?? undefined,
    list: match.source_code,
    type: text(match.type),
    programs: present(match.programs),
    countries: present(match.countries),
    addresses: present(
      match.addresses.slice(0, 3).map((a) => line([a.address, a.city, a.state, a.postal_code, a.country])).filter((
        a
      ) => a !== "")
    ),
    ids: present(match.ids.slice(0, 5).map((id) => line([id.type, id.number, id.country]))),
    dates_of_birth: present(match.dates_of_birth),
    alt_names: match.alt_names.length > 0 ? match.alt_names.length : undefined,
    federal_register_notice: text(match.federal_register_notice),
    start_date: text(match.start_date),
    license_requirement: text(match.license_requirement),
    license_policy: text(match.license_policy),
    remarks: remarks === undefined || remarks.length <= RemarksChars
      ? remarks
      : `${remarks.slice(0, RemarksChars)}…`
  }
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as CompactMatch
}

const affiliatesLine = (response: ScreeningResponse) => {
  const rule = response.affiliates_rule
  const state = rule.state === "in_force"
    ? `In force (as of ${rule.asOf})`
    : `Suspended through ${rule.suspendedThrough}, snap-back ${rule.snapBackDate} (as of ${rule.asOf})`
  return `${state}. A name screen cannot see ownership: entities 50%+ owned by listed parties may be restricted ` +
    "though unlisted; trace owners (get_regulatory_status, format: \"full\" for the checklist). name_contained: " +
    "listed names containing the screened name (subsidiaries, affiliates), not matches; if the party is one of " +
    "them, owns or is owned by one, these rules apply."
}

export const compactNote = "Matches are leads for human adjudication; no_match is neither clearance nor " +
  "ownership diligence. Not legal advice. format: \"full\" gives every field of one name."

/**
 * The engine page to ask for so that ranking is stable across pages: from the top, when the pages
 * up to the one asked for (and one more, where a parent may wait) fit in the engine's largest page.
 */
export const enginePage = (offset: number, size: number, maxPageSize: number) =>
  offset + 2 * size <= maxPageSize ? { offset: 0, size: offset + 2 * size } : { offset, size }

/** Several names' screening answers as one compact answer: per name its hits, shared facts once. */
export const compactAnswer = (
  screened: ReadonlyArray<{ readonly name: string; readonly response: ScreeningResponse }>,
  page: { readonly offset: number; readonly size: number }
): CompactScreeningAnswer => {
  const first = screened[0]!.response
  const parties = screened.map(({ name, response }) => {
    const skip = page.offset - response.query.offset
    const ranked = rankParentsFirst(response.matches, name).slice(skip, skip + page.size)
    const shown = page.offset + ranked.length
    const family = response.name_contained
    return {
      name,
      result: response.result,
      total: response.total,
      matches: ranked.map(compactMatch),
      ...(ranked.length > 0 && shown < response.total ? { next_offset: shown } : {}),
      ...(family === undefined || family.total === 0 ? {} : {
        name_contained: {
          total: family.total,
          matches: family.matches.slice(skip, skip + page.size).map((member) => ({
            id: member.id,
            name: member.name,
            score: member.score,
            list: member.source_code
          }))
        }
      })
    }
  })
  return {
    result: parties.some((party) => party.result === "potential_match") ? "potential_match" : "no_match",
    parties,
    lists: first.query.sources,
    dataset: { published_at: first.dataset.published_at, entries: first.dataset.entries, stale: first.dataset.stale },
    affiliates_rule: affiliatesLine(first),
    note: compactNote
  }
}
