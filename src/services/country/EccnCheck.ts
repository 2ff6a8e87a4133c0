import type { ChartRow, ControlCheck, EccnCheck } from "../../domain/Country.ts"
import { type CountryChartColumn, ear99Answer, type EccnEntry } from "../../domain/Eccn.ts"

/**
 * 15 CFR 738.4(a)(2): for each reason for control of the entry, find the Country Chart column it
 * names and look for an X in the destination's row. An X means a license is required for that
 * reason unless a license exception applies; no X settles only that reason, and only when no other
 * part of the EAR (general prohibitions 4–10, part 744, part 746) requires a license.
 */
export const caveat = "No X in a column means no license is required for that reason for control only; a license " +
  "may still be required by another reason, by the entry's own text, by a country footnote, or by the general " +
  "prohibitions (part 736), end-use and end-user controls (part 744) and embargoes (part 746). A license " +
  "exception may overcome a requirement (part 740). This is not legal advice."

const mentionsEccn = (text: string, eccn: string) => new RegExp(`\\b${eccn}\\b`).test(text)

const checkControl = (control: EccnEntry["licenseRequirements"]["controls"][number], chart: ChartRow | null) => {
  const columns = control.columns.map((column) => ({
    column,
    marked: chart?.kind === "graded" ? chart.columns[column] : false
  }))
  const result: ControlCheck["result"] = chart?.kind === "embargoed"
    ? "see_part_746"
    : columns.length === 0
    ? "stated_in_text"
    : columns.some((c) => c.marked)
    ? "license_required"
    : "no_x_in_column"
  return { ...control, columns, result }
}

const summarize = (
  entry: EccnEntry,
  country: string,
  chart: ChartRow | null,
  controls: ReadonlyArray<ControlCheck>,
  required: ReadonlyArray<CountryChartColumn>,
  footnotes: ReadonlyArray<number>
) => {
  if (chart === null) return `The Country Chart has no row for ${country}; it cannot answer for ${entry.eccn}.`
  if (chart.kind === "embargoed") {
    return `${country} is not graded on the Country Chart: its row reads "${chart.pointer}" Determine the license ` +
      `requirement for ${entry.eccn} under part 746; the absence of X marks means nothing here.`
  }
  const parts: Array<string> = []
  if (required.length > 0) {
    parts.push(
      `A license is required to ${country} for ${entry.eccn} for ${required.join(", ")} (X in the chart), ` +
        "to the extent the control rows naming those columns apply to the item."
    )
  } else if (controls.some((c) => c.result === "no_x_in_column")) {
    parts.push(`No column cited by ${entry.eccn} has an X for ${country}.`)
  }
  const inText = controls.filter((c) => c.result === "stated_in_text")
  if (inText.length > 0) {
    parts.push(
      `${inText.length} control row(s) state their destinations in text (${
        inText.map((c) => c.reason ?? c.appliesTo).join(", ")
      }); read them.`
    )
  }
  if (footnotes.length > 0) {
    parts.push(`Footnote(s) ${footnotes.join(", ")} of ${country}'s row name ${entry.eccn} and may require a license.`)
  }
  if (controls.length === 0) parts.push(`${entry.eccn} lists no control rows; read its License Requirements.`)
  return parts.join(" ")
}

export const checkEccn = (
  entry: EccnEntry,
  paragraph: string | null,
  country: string,
  chart: ChartRow | null
): EccnCheck => {
  const controls = entry.licenseRequirements.controls.map((control) => checkControl(control, chart))
  const required = [...new Set(controls.flatMap((c) => c.columns.filter((col) => col.marked).map((col) => col.column)))]
  const footnotes = (chart?.footnotes ?? []).filter((f) => mentionsEccn(f.text, entry.eccn)).map((f) => f.number)
  return {
    eccn: entry.eccn,
    paragraph,
    heading: entry.heading,
    reasonForControl: entry.licenseRequirements.reasonForControl,
    controls,
    licenseRequiredColumns: required,
    footnotesNamingEccn: footnotes,
    summary: summarize(entry, country, chart, controls, required, footnotes),
    caveat
  }
}

export const ear99Check: EccnCheck = {
  eccn: "EAR99",
  paragraph: null,
  heading: "Items subject to the EAR that are not listed on the Commerce Control List",
  reasonForControl: [],
  controls: [],
  licenseRequiredColumns: [],
  footnotesNamingEccn: [],
  summary: ear99Answer.explanation,
  caveat
}
