import { Context, Effect, Layer } from "effect"
import type { ChartRow, CountryChartAnswer, EmbargoNote } from "../domain/Country.ts"
import { CountryNotFound } from "../domain/Country.ts"
import { type EccnNotFound, parseEccnQuery } from "../domain/Eccn.ts"
import type { UpstreamUnavailable } from "../domain/Problem.ts"
import { CclIndex } from "./CclIndex.ts"
import { parseChart, type ParsedChart } from "./country/ChartParser.ts"
import {
  type CountryCodes,
  countryOfName,
  normalizedNamesOf,
  normalizeName,
  resolveCountry
} from "./country/CountryNames.ts"
import { checkEccn, ear99Check } from "./country/EccnCheck.ts"
import { type EmbargoSection, parseEmbargoSections } from "./country/EmbargoSections.ts"
import { type ParsedGroups, parseGroups } from "./country/GroupsParser.ts"
import type { DataGeneration } from "./DataGeneration.ts"
import * as ParsedParts from "./ecfr/ParsedParts.ts"
import type { XmlElement } from "./ecfr/Xml.ts"
import type { EcfrSource } from "./EcfrSource.ts"

export interface CountryChartShape {
  readonly lookup: (params: {
    readonly country: string
    readonly eccn?: string | undefined
  }) => Effect.Effect<CountryChartAnswer, CountryNotFound | EccnNotFound | UpstreamUnavailable>
}

export class CountryChart extends Context.Tag("app/CountryChart")<CountryChart, CountryChartShape>() {}

interface Tables {
  readonly chart: ParsedChart
  readonly groups: ParsedGroups
  readonly sections: ReadonlyArray<EmbargoSection>
  /** ISO alpha-2 → row label, for the chart and the group tables (their labels differ: "China" / "China (PRC)"). */
  readonly chartRowByCode: ReadonlyMap<string, string>
  readonly groupRowByCode: ReadonlyMap<string, string>
}

const byCode = (labels: Iterable<string>) => {
  const out = new Map<string, string>()
  for (const label of labels) {
    const codes = countryOfName(label)
    if (codes !== undefined && !out.has(codes.alpha2)) out.set(codes.alpha2, label)
  }
  return out
}

const parseTables = ([part738, part740, part746]: ReadonlyArray<XmlElement>): Tables => {
  const chart = parseChart(part738!)
  const groups = parseGroups(part740!)
  return {
    chart,
    groups,
    sections: parseEmbargoSections(part746!),
    chartRowByCode: byCode(chart.rows.keys()),
    groupRowByCode: byCode(groups.memberships.keys())
  }
}

/**
 * Destinations the chart has no row for but the EAR assigns to another row. Only what the EAR
 * itself says belongs here; anything else without a row is answered as "no row", never guessed.
 */
const territories: Record<string, { readonly alpha2: string; readonly note: string }> = {
  HK: {
    alpha2: "CN",
    note: "Hong Kong has no row of its own: BIS removed it as a separate destination under the EAR in December " +
      "2020, so the entries for China apply."
  }
}

interface ResolvedRows {
  readonly codes: CountryCodes | undefined
  readonly chartLabel: string | undefined
  readonly groupLabel: string | undefined
  readonly matchedBy: CountryChartAnswer["country"]["matchedBy"]
  readonly note?: string
}

/** The chart and group rows for user input: by ISO country (names, aliases, codes), else by row label. */
const resolveRows = (tables: Tables, input: string): ResolvedRows | undefined => {
  const resolved = resolveCountry(input)
  if (resolved !== undefined) {
    const { alpha2 } = resolved.codes
    const territory = territories[alpha2]
    if (territory !== undefined && !tables.chartRowByCode.has(alpha2)) {
      return {
        codes: resolved.codes,
        chartLabel: tables.chartRowByCode.get(territory.alpha2),
        groupLabel: tables.groupRowByCode.get(territory.alpha2),
        matchedBy: "territory",
        note: territory.note
      }
    }
    return {
      codes: resolved.codes,
      chartLabel: tables.chartRowByCode.get(alpha2),
      groupLabel: tables.groupRowByCode.get(alpha2),
      matchedBy: resolved.by
    }
  }
  // A row label that is no ISO name (should the tables gain one) is still reachable by its own spelling.
  const wanted = normalizeName(input)
  const byLabel = (labels: Iterable<string>) => [...labels].find((label) => normalizeName(label) === wanted)
  const chartLabel = byLabel(tables.chart.rows.keys())
  const groupLabel = byLabel(tables.groups.memberships.keys())
  return chartLabel === undefined && groupLabel === undefined
    ? undefined
    : { codes: undefined, chartLabel, groupLabel, matchedBy: "name" }
}

const embargoNotesFor = (
  tables: Tables,
  codes: CountryCodes | undefined,
  label: string,
  issueDate: string
): Array<EmbargoNote> => {
  const names = codes === undefined ? [normalizeName(label)] : normalizedNamesOf(codes.alpha2)
  return tables.sections
    .filter((section) => {
      const heading = ` ${normalizeName(section.heading)} `
      return names.some((name) => heading.includes(` ${name} `))
    })
    .map((section) => ({
      section: section.section,
      heading: section.heading,
      citation: `15 CFR ${section.section}`,
      url: `${ParsedParts.publicEcfrSite}/on/${issueDate}/title-15/section-${section.section}`
    }))
}

const suggestionsFor = (tables: Tables, query: string): Array<string> => {
  const wanted = normalizeName(query)
  const labels = [...new Set([...tables.chart.rows.keys(), ...tables.groups.memberships.keys()])]
  return labels
    .filter((label) => {
      const name = normalizeName(label)
      return wanted.length >= 3 &&
        (name.includes(wanted) || wanted.includes(name) || name.startsWith(wanted.slice(0, 3)))
    })
    .slice(0, 8)
}

export const make: Effect.Effect<CountryChartShape, never, EcfrSource | DataGeneration | CclIndex> = Effect.gen(
  function*() {
    const ccl = yield* CclIndex
    const parsed = yield* ParsedParts.make({
      name: "Country Chart and Country Groups",
      parts: [738, 740, 746],
      parse: parseTables
    })

    const lookup: CountryChartShape["lookup"] = ({ country, eccn }) =>
      Effect.gen(function*() {
        const { origins, stale, value: tables } = yield* parsed.get
        const rows = resolveRows(tables, country)
        if (rows === undefined) {
          const suggestions = suggestionsFor(tables, country)
          return yield* new CountryNotFound({
            query: country,
            suggestions,
            detail: `No country matches "${country}".` +
              (suggestions.length > 0 ? ` Did you mean: ${suggestions.join("; ")}?` : "")
          })
        }
        const { chartLabel, codes, groupLabel } = rows
        if (chartLabel === undefined && groupLabel === undefined) {
          return yield* new CountryNotFound({
            query: country,
            suggestions: [],
            detail: `${codes?.name ?? country} has no row in the Commerce Country Chart or the Country Group ` +
              `tables (eCFR ${origins[0]!.issueDate}). The EAR may assign it to another country's row ` +
              "(15 CFR 738.3(b)); determine that before relying on any answer."
          })
        }
        const chart: ChartRow | null = chartLabel === undefined ? null : tables.chart.rows.get(chartLabel)!
        const memberships = (groupLabel === undefined ? [] : tables.groups.memberships.get(groupLabel) ?? []).map((
          group
        ) => ({ group, title: tables.groups.titles.get(group) ?? group }))
        const issue746 = origins[2]!.issueDate
        const answer: CountryChartAnswer = {
          query: country,
          country: {
            name: chartLabel ?? groupLabel!,
            alpha2: codes?.alpha2 ?? null,
            alpha3: codes?.alpha3 ?? null,
            matchedBy: rows.matchedBy,
            ...(rows.note === undefined ? {} : { note: rows.note })
          },
          chart,
          countryGroups: { rowLabel: groupLabel ?? null, memberships },
          embargoNotes: embargoNotesFor(tables, codes, chartLabel ?? groupLabel!, issue746),
          sources: origins.map((origin) => ({
            citation: {
              738: "15 CFR part 738, Supplement No. 1 (Commerce Country Chart)",
              740: "15 CFR part 740, Supplement No. 1 (Country Groups)",
              746: "15 CFR part 746 (Embargoes and Other Special Controls)"
            }[origin.part as 738 | 740 | 746],
            issueDate: origin.issueDate,
            fetchedAt: origin.fetchedAt,
            stale: stale || origin.stale
          }))
        }
        if (eccn === undefined) return answer
        const query = parseEccnQuery(eccn)
        if (query === undefined || query._tag === "Ear99") return { ...answer, eccnCheck: ear99Check }
        const found = yield* ccl.entry(query.eccn, query.paragraph)
        return {
          ...answer,
          eccnCheck: checkEccn(
            found.entry,
            query.paragraph ?? null,
            found.itemTextAvailable,
            answer.country.name,
            chart
          )
        }
      })
    return { lookup }
  }
)

export const layer: Layer.Layer<CountryChart, never, EcfrSource | DataGeneration | CclIndex> = Layer.effect(
  CountryChart,
  make
)
