import { Effect, Schema } from "effect"
import { CountryChartAnswer, CountryChartParams } from "../../domain/Country.ts"
import type { EccnAnswer } from "../../domain/Eccn.ts"
import { Ear99Answer, EccnEntryAnswer, EccnParameter, parseEccnQuery } from "../../domain/Eccn.ts"
import { RadarParams, RadarResponse } from "../../domain/Radar.ts"
import { PagedFields, PageOffset } from "../../domain/ResultBudget.ts"
import { CclIndex } from "../../services/CclIndex.ts"
import { CountryChart } from "../../services/CountryChart.ts"
import { Radar } from "../../services/Radar.ts"
import * as Budget from "../Budget.ts"
import * as Tool from "../Tool.ts"
import { withNotesBeside } from "./NotesBeside.ts"

/** An entry answer cut to the result budget names the block it starts at and how to read the rest. */
const EccnPage = Schema.Union(
  Schema.Struct({
    ...EccnEntryAnswer.fields,
    items_offset: Schema.optional(Schema.Int.annotations({ description: "Index of the first item block shown" })),
    ...PagedFields
  }),
  Ear99Answer
)

/**
 * Paragraphs among the blocks not shown that an agent can ask for by themselves: each one whose
 * enclosing paragraph is not already named (b.3, b.4 and c after a cut inside b).
 */
const paragraphsOf = (blocks: ReadonlyArray<{ readonly kind: string; readonly paragraph: string | null }>) => {
  const named: Array<string> = []
  for (const block of blocks) {
    const paragraph = block.paragraph
    if (block.kind !== "paragraph" || paragraph === null) continue
    if (!named.some((outer) => paragraph.startsWith(`${outer}.`))) named.push(paragraph)
  }
  return named
}

/**
 * A CCL entry within the result budget: the license requirements and exceptions whole, the list of
 * items from `offset` while it fits (large entries such as 3A001 or 5A002 do not), and the calls
 * that read the rest: the next page, and each paragraph not shown on its own.
 */
export const eccnPage = (answer: EccnAnswer, offset: number): typeof EccnPage.Type => {
  if (answer.kind === "ear99") return answer
  const items = answer.entry.listOfItemsControlled.items
  if (offset === 0 && Budget.jsonChars(answer) <= Budget.DefaultResultChars) return answer
  const start = Math.min(offset, items.length)
  const frame = Budget.jsonChars({ ...answer, entry: { ...answer.entry, listOfItemsControlled: { fields: [] } } })
  const room = Budget.DefaultResultChars - frame - Budget.jsonChars(answer.entry.listOfItemsControlled.fields) - 1_200
  const shown = items.slice(start, start + Budget.fittingCount(items.slice(start), room))
  const end = start + shown.length
  const entry = { ...answer.entry, listOfItemsControlled: { ...answer.entry.listOfItemsControlled, items: shown } }
  const base = { ...answer, entry, items_offset: start }
  if (end >= items.length) {
    return { ...base, rest: `Item blocks ${start + 1}-${end} of ${items.length}: the last page.` }
  }
  const paragraphs = paragraphsOf(items.slice(end))
  const stem = answer.requested.split(".")[0]!
  const byParagraph = paragraphs.length === 0 ?
    "" :
    `; or one paragraph at a time (${paragraphs.slice(0, 12).map((paragraph) => `${stem}.${paragraph}`).join(", ")}${
      paragraphs.length > 12 ? " …" : ""
    }): get_eccn {"eccn":"${stem}.${paragraphs[0]}"}`
  return {
    ...base,
    next_offset: end,
    rest: `Item blocks ${start + 1}-${end} of ${items.length} shown. Rest: ${
      Budget.callOf("get_eccn", { eccn: answer.requested, offset: end })
    }${byParagraph}`
  }
}

/** REST twin: `GET /api/eccn/{eccn}?format=json`. */
export const getEccn = Tool.make({
  name: "get_eccn",
  title: "Commerce Control List entry",
  description: "One ECCN or paragraph (`5A002.a.1`) of the Commerce Control List: heading, reasons for control " +
    "and Country Chart columns, license exceptions, items, citation, eCFR date. Unknown: the nearest ECCNs.",
  version: "1.0.0",
  annotations: Tool.readOnly("Commerce Control List entry"),
  input: Schema.Struct({ eccn: EccnParameter, offset: PageOffset }),
  output: Tool.structured(EccnPage),
  // the parameter's pattern admits only ECCN queries, so the parse cannot fail
  run: ({ eccn, offset }) =>
    withNotesBeside(
      Effect.flatMap(CclIndex, (ccl) =>
        Effect.map(ccl.lookup(parseEccnQuery(eccn)!), (answer) => eccnPage(answer, offset ?? 0))),
      () => [
        { eccn: eccn.toUpperCase() }
      ]
    )
})

/** REST twin: `GET /api/country-chart`. */
export const getCountryChartRow = Tool.make({
  name: "get_country_chart_row",
  title: "Country Chart row and Country Groups",
  description: "A destination's Country Chart row, footnotes, Country Groups and embargo notes. With `eccn` " +
    "(best with paragraph, `6A003.b.4.b`) each control row says license_required, not_for_this_paragraph, " +
    "depends (condition quoted), no_x_in_column or stated_in_text.",
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
  ),
  offset: PageOffset
})
type RuleChangesInput = typeof RuleChangesInput.Type

const RuleChangesPage = Schema.Struct({ ...RadarResponse.fields, ...PagedFields })

/** The radar's documents from `offset` while they fit the result budget, and the call for the rest. */
const ruleChangesPage = (
  answer: typeof RadarResponse.Type,
  selected: ReadonlyArray<typeof RadarResponse.Type["results"][number]>,
  input: RuleChangesInput
): typeof RuleChangesPage.Type => {
  const start = Math.min(input.offset ?? 0, selected.length)
  const frame = Budget.jsonChars({ ...answer, results: [] })
  const room = Budget.DefaultResultChars - frame - 600
  const results = selected.slice(start, start + Budget.fittingCount(selected.slice(start), room))
  const end = start + results.length
  const page = { ...answer, results, count: results.length }
  if (end >= selected.length) return page
  return {
    ...page,
    next_offset: end,
    rest: `Documents ${start + 1}-${end} of ${selected.length} shown. Rest: ${
      Budget.callOf("get_rule_changes", { ...input, offset: end })
    }`
  }
}

/** REST twin: `GET /api/radar` (the ECCN filter and limit narrow its answer). */
export const getRuleChanges = Tool.make({
  name: "get_rule_changes",
  title: "Recent rule changes",
  description: "Recent BIS, DDTC and OFAC Federal Register documents by topic, newest first, optionally naming an " +
    "ECCN. `error` or `stale: true`: the Federal Register could not be read.",
  version: "1.0.0",
  annotations: Tool.readOnly("Recent rule changes", true),
  input: RuleChangesInput,
  output: Tool.structured(RuleChangesPage),
  run: (input) =>
    Effect.flatMap(Radar, (radar) =>
      Effect.map(radar.recent(input.topic), (answer) => {
        const query = input.eccn === undefined ? undefined : parseEccnQuery(input.eccn)
        const named = query === undefined ? undefined : query._tag === "Entry" ? query.eccn : "EAR99"
        const selected = answer.results
          .filter((item) => named === undefined || item.eccns.some((listed) => listed.startsWith(named)))
          .slice(0, input.limit)
        return ruleChangesPage(answer, selected, input)
      }))
})

export const eccnTools = [getEccn, getCountryChartRow, getRuleChanges] as const
