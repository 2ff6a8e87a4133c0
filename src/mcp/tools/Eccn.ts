import { Effect, Schema } from "effect"
import { CountryChartAnswer, CountryChartParams } from "../../domain/Country.ts"
import { EccnAnswer, EccnParameter, parseEccnQuery } from "../../domain/Eccn.ts"
import { RadarParams, RadarResponse } from "../../domain/Radar.ts"
import { CclIndex } from "../../services/CclIndex.ts"
import { CountryChart } from "../../services/CountryChart.ts"
import { Radar } from "../../services/Radar.ts"
import * as Tool from "../Tool.ts"
import { withNotesBeside } from "./NotesBeside.ts"

/** REST twin: `GET /api/eccn/{eccn}?format=json`. */
export const getEccn = Tool.make({
  name: "get_eccn",
  title: "Commerce Control List entry",
  description: "One ECCN or paragraph (`0A501.f`, `5A002.a.1`) of the Commerce Control List: heading, reasons for " +
    "control with Country Chart columns, license exceptions, items controlled, citation and eCFR date. " +
    "`EAR99` explains the designation; an unknown ECCN names the nearest entries.",
  version: "1.0.0",
  annotations: Tool.readOnly("Commerce Control List entry"),
  input: Schema.Struct({ eccn: EccnParameter }),
  output: Tool.structured(EccnAnswer),
  // the parameter's pattern admits only ECCN queries, so the parse cannot fail
  run: ({ eccn }) =>
    withNotesBeside(Effect.flatMap(CclIndex, (ccl) => ccl.lookup(parseEccnQuery(eccn)!)), () => [
      { eccn: eccn.toUpperCase() }
    ])
})

/** REST twin: `GET /api/country-chart`. */
export const getCountryChartRow = Tool.make({
  name: "get_country_chart_row",
  title: "Country Chart row and Country Groups",
  description: "A destination's Country Chart row (15 CFR 738 Supp. 1), footnotes, Country Groups and embargo " +
    "notes. With `eccn` (best with paragraph, `6A003.b.4.b`) each control row answers license_required, " +
    "not_for_this_paragraph, depends (condition quoted), no_x_in_column or stated_in_text.",
  version: "1.0.0",
  annotations: Tool.readOnly("Country Chart row and Country Groups"),
  input: CountryChartParams,
  output: Tool.structured(CountryChartAnswer),
  run: (params) =>
    withNotesBeside(Effect.flatMap(CountryChart, (chart) => chart.lookup(params)), (answer) => [
      ...(answer.country.alpha2 === null ? [] : [{ country: answer.country.alpha2 }]),
      ...(params.eccn === undefined ? [] : [{ eccn: params.eccn.toUpperCase() }])
    ])
})

const RuleChangesInput = Schema.Struct({
  topic: RadarParams.fields.topic,
  eccn: Schema.optional(EccnParameter.annotations({
    description: "Only documents naming this ECCN (`3A090`; a paragraph matches its ECCN)"
  })),
  limit: Schema.optional(
    Schema.Int.pipe(Schema.between(1, 100)).annotations({
      description: "Maximum documents (default all)"
    })
  )
})

/** REST twin: `GET /api/radar` (the ECCN filter and limit narrow its answer). */
export const getRuleChanges = Tool.make({
  name: "get_rule_changes",
  title: "Recent rule changes",
  description: "Recent BIS, DDTC and OFAC Federal Register documents by topic, newest first, optionally only " +
    "those naming an ECCN. `error` or `stale: true` says when the Federal Register could not be read.",
  version: "1.0.0",
  annotations: Tool.readOnly("Recent rule changes", true),
  input: RuleChangesInput,
  output: Tool.structured(RadarResponse),
  run: ({ eccn, limit, topic }) =>
    Effect.flatMap(Radar, (radar) =>
      Effect.map(radar.recent(topic), (answer) => {
        const query = eccn === undefined ? undefined : parseEccnQuery(eccn)
        const named = query === undefined ? undefined : query._tag === "Entry" ? query.eccn : "EAR99"
        const results = answer.results
          .filter((item) => named === undefined || item.eccns.some((listed) => listed.startsWith(named)))
          .slice(0, limit)
        return { ...answer, results, count: results.length }
      }))
})

export const eccnTools = [getEccn, getCountryChartRow, getRuleChanges] as const
