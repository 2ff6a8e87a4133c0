import type { ChartRow } from "../../domain/Country.ts"
import { type ControlRow, type CountryChartColumn, ear99Answer, type EccnEntry } from "../../domain/Eccn.ts"
import type { ControlRowCheck, EccnCheck, RowStatus } from "../../domain/LicenseCheck.ts"
import { type ControlScope, parseControlScope } from "../ccl/scope/ControlScope.ts"
import { type Coverage, coverageOf } from "../ccl/scope/ScopeCoverage.ts"

/**
 * 15 CFR 738.4(a)(2): for each reason for control of the entry, find the Country Chart column it
 * names and look for an X in the destination's row — but only for the control rows whose scope
 * ("NP applies to cameras controlled by 6A003.a.3 or a.4 …") reaches the item. An X means a
 * license is required for that reason unless a license exception applies; no X settles only that
 * reason, and only when no other part of the EAR requires a license.
 */
export const caveat = "No X in a column means no license is required for that reason for control only; a license " +
  "may still be required by another reason, by the entry's own text, by a country footnote, or by the general " +
  "prohibitions (part 736), end-use and end-user controls (part 744) and embargoes (part 746). A license " +
  "exception may overcome a requirement (part 740). This is not legal advice."

const mentionsEccn = (text: string, eccn: string) => new RegExp(`\\b${eccn}\\b`).test(text)

// control rows are immutable per eCFR snapshot: each is read once
const scopes = new WeakMap<ControlRow, ControlScope>()
const scopeOf = (row: ControlRow, eccn: string) => {
  let scope = scopes.get(row)
  if (scope === undefined) scopes.set(row, scope = parseControlScope(row.appliesTo, eccn))
  return scope
}

const statusOf = (
  coverage: Coverage | undefined,
  chart: ChartRow | null,
  columns: ControlRowCheck["columns"]
): RowStatus => {
  if (coverage?._tag === "NotApplies") return "not_for_this_paragraph"
  if (chart === null) return "no_chart_row"
  if (chart.kind === "embargoed") return "see_part_746"
  if (columns.length === 0) return "stated_in_text"
  // no X in any cited column holds whatever the row's reach
  if (!columns.some((c) => c.marked)) return "no_x_in_column"
  if (coverage === undefined) return "stated_in_text"
  return coverage._tag === "Applies" ? "license_required" : "depends"
}

const checkRow = (row: ControlRow, eccn: string, paragraph: string | null, chart: ChartRow | null): ControlRowCheck => {
  const scope = scopeOf(row, eccn)
  const coverage = coverageOf(scope, paragraph)
  const columns = row.columns.map((column) => ({
    column,
    marked: chart?.kind === "graded" ? chart.columns[column] : false
  }))
  const status = statusOf(coverage, chart, columns)
  const quoted = (status === "depends" || status === "stated_in_text") && coverage?._tag === "Depends"
  return {
    reason: row.reason,
    appliesTo: row.appliesTo,
    countryChart: row.countryChart,
    columns,
    result: status,
    ...(quoted ? { conditions: coverage.conditions } : {}),
    ...(scope._tag === "Unparsed" ? { scopeUnread: scope.problem } : {})
  }
}

/** How a row is named in the summary: its columns, else its reason and place ("RS (row 4)"). */
const labelOf = (row: ControlRowCheck, index: number) => {
  if (row.columns.length > 0) return row.columns.map((c) => c.column).join("/")
  return row.reason === null ? `row ${index + 1}` : `${row.reason} (row ${index + 1})`
}

const summarize = (
  entry: EccnEntry,
  paragraph: string | null,
  itemTextAvailable: boolean,
  country: string,
  chart: ChartRow | null,
  rows: ReadonlyArray<ControlRowCheck>,
  footnotes: ReadonlyArray<number>
) => {
  const asked = paragraph === null ? entry.eccn : `${entry.eccn}.${paragraph}`
  if (chart === null) return `The Country Chart has no row for ${country}; it cannot answer for ${asked}.`
  const parts: Array<string> = []
  if (rows.length === 0) parts.push(`${entry.eccn} lists no control rows; read its License Requirements.`)
  const labeled = rows.map((row, i) => ({ row, label: labelOf(row, i) }))
  const applying = labeled.filter(({ row }) => row.result !== "not_for_this_paragraph")
  if (rows.length > 0) {
    parts.push(
      `${applying.length} of ${rows.length} control row${rows.length === 1 ? "" : "s"} of ${entry.eccn} ` +
        `reach${applying.length === 1 ? "es" : ""} ${asked}.`
    )
  }
  if (chart.kind === "embargoed") {
    parts.push(
      `${country} is not graded on the Country Chart: its row reads "${chart.pointer}" Determine the license ` +
        `requirement under part 746; the absence of X marks means nothing here.`
    )
  }
  const named = (status: RowStatus) =>
    applying.filter(({ row }) => row.result === status).map(({ label }) => label).join(", ")
  const say = (status: RowStatus, sentence: (labels: string) => string) => {
    const labels = named(status)
    if (labels !== "") parts.push(sentence(labels))
  }
  say("license_required", (l) => `License required to ${country} for ${l} (X in the chart).`)
  say("depends", (l) => `License required for ${l} only if the row's quoted conditions hold.`)
  say("stated_in_text", (l) => `${l}: destinations or scope stated in the row's text; read it.`)
  say("no_x_in_column", (l) => `No X for ${country} in ${l}.`)
  const elsewhere = labeled.filter(({ row }) => row.result === "not_for_this_paragraph").map(({ label }) => label)
  if (elsewhere.length > 0) parts.push(`Not for this paragraph: ${elsewhere.join(", ")}.`)
  if (paragraph === null && rows.some((row) => row.result === "depends")) {
    parts.push(`Ask for a paragraph (${entry.eccn}.a …) to settle rows limited to some paragraphs.`)
  }
  if (paragraph !== null && !itemTextAvailable) {
    parts.push(`The entry's item text is unavailable here, so paragraph .${paragraph} could not be verified.`)
  }
  if (footnotes.length > 0) {
    parts.push(`Footnote(s) ${footnotes.join(", ")} of ${country}'s row name ${entry.eccn} and may require a license.`)
  }
  return parts.join(" ")
}

const columnsWith = (rows: ReadonlyArray<ControlRowCheck>, status: RowStatus): Array<CountryChartColumn> => [
  ...new Set(rows.filter((row) => row.result === status).flatMap((row) => row.columns.map((c) => c.column)))
]

export const checkEccn = (
  entry: EccnEntry,
  paragraph: string | null,
  itemTextAvailable: boolean,
  country: string,
  chart: ChartRow | null
): EccnCheck => {
  const rows = entry.licenseRequirements.controls.map((row) => checkRow(row, entry.eccn, paragraph, chart))
  const footnotes = (chart?.footnotes ?? []).filter((f) => mentionsEccn(f.text, entry.eccn)).map((f) => f.number)
  return {
    eccn: entry.eccn,
    paragraph,
    heading: entry.heading,
    itemTextAvailable: itemTextAvailable,
    reasonForControl: entry.licenseRequirements.reasonForControl,
    controls: rows,
    licenseRequiredColumns: columnsWith(rows, "license_required"),
    dependsColumns: columnsWith(rows, "depends"),
    footnotesNamingEccn: footnotes,
    summary: summarize(entry, paragraph, itemTextAvailable, country, chart, rows, footnotes),
    caveat
  }
}

export const ear99Check: EccnCheck = {
  eccn: "EAR99",
  paragraph: null,
  heading: "Items subject to the EAR that are not listed on the Commerce Control List",
  itemTextAvailable: true,
  reasonForControl: [],
  controls: [],
  licenseRequiredColumns: [],
  dependsColumns: [],
  footnotesNamingEccn: [],
  summary: ear99Answer.explanation,
  caveat
}
