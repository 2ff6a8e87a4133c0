import { Schema } from "effect"
import { CountryChartColumn, EccnParameter } from "./Eccn.ts"
import { EccnCheck } from "./LicenseCheck.ts"
import { problem } from "./Problem.ts"

/**
 * Commerce Country Chart rows (Supplement No. 1 to 15 CFR part 738), Country Group memberships
 * (Supplement No. 1 to part 740) and the part 746 sections that name a destination: the answer of
 * `GET /api/country-chart` and of the MCP tool `get_country_chart_row`, with an optional ECCN check
 * (see LicenseCheck.ts).
 */

export const CountryChartParams = Schema.Struct({
  country: Schema.String.pipe(Schema.minLength(2), Schema.maxLength(100)).annotations({
    description: "Name or ISO code (\"UK\", \"South Korea\", \"Burma\", \"DE\")"
  }),
  eccn: Schema.optional(EccnParameter.annotations({
    description: "ECCN, best with its paragraph (`6A003.b.4.b`): each control row answered for it"
  }))
})

export const Footnote = Schema.Struct({
  number: Schema.Int,
  text: Schema.String
}).annotations({ identifier: "CountryChartFootnote" })
export type Footnote = typeof Footnote.Type

export const ChartRow = Schema.Union(
  Schema.Struct({
    kind: Schema.Literal("graded"),
    columns: Schema.Record({ key: CountryChartColumn, value: Schema.Boolean }).annotations({
      description: "All 16 columns CB1…AT2; true where the chart has an X (a license is required for that reason)"
    }),
    marked: Schema.Array(CountryChartColumn),
    footnotes: Schema.Array(Footnote)
  }),
  Schema.Struct({
    kind: Schema.Literal("embargoed"),
    pointer: Schema.String.annotations({
      description: "The row's text in place of marks (a pointer to part 746); the empty grid says nothing"
    }),
    footnotes: Schema.Array(Footnote)
  })
).annotations({ identifier: "CountryChartRowCells" })
export type ChartRow = typeof ChartRow.Type

export const CountryGroupMembership = Schema.Struct({
  group: Schema.String.annotations({ description: "A:1 … A:6, B, D:1 … D:5, E:1, E:2" }),
  title: Schema.String.annotations({ description: "The column heading of Supplement No. 1 to part 740" })
}).annotations({ identifier: "CountryGroupMembership" })

export const EmbargoNote = Schema.Struct({
  section: Schema.String,
  heading: Schema.String,
  citation: Schema.String,
  url: Schema.String
}).annotations({ identifier: "EmbargoNote" })
export type EmbargoNote = typeof EmbargoNote.Type

export const PartSource = Schema.Struct({
  citation: Schema.String,
  issueDate: Schema.String,
  fetchedAt: Schema.String,
  stale: Schema.Boolean
}).annotations({ identifier: "PartSource" })

export const CountryChartAnswer = Schema.Struct({
  query: Schema.String,
  country: Schema.Struct({
    name: Schema.String.annotations({
      description: "The Country Chart row label (or the ISO name when there is none)"
    }),
    alpha2: Schema.NullOr(Schema.String),
    alpha3: Schema.NullOr(Schema.String),
    matchedBy: Schema.Literal("name", "alpha2", "alpha3", "territory"),
    note: Schema.optional(Schema.String)
  }),
  chart: Schema.NullOr(ChartRow).annotations({ description: "Null when the chart has no row for the destination" }),
  countryGroups: Schema.Struct({
    rowLabel: Schema.NullOr(Schema.String),
    memberships: Schema.Array(CountryGroupMembership)
  }),
  embargoNotes: Schema.Array(EmbargoNote).annotations({
    description: "Sections of part 746 (embargoes and other special controls) whose heading names the destination"
  }),
  eccnCheck: Schema.optional(EccnCheck),
  sources: Schema.Array(PartSource)
}).annotations({
  identifier: "CountryChartAnswer",
  examples: [{
    query: "DE",
    country: { name: "Germany", alpha2: "DE", alpha3: "DEU", matchedBy: "alpha2" },
    chart: {
      kind: "graded",
      columns: {
        CB1: true,
        CB2: false,
        CB3: false,
        NP1: false,
        NP2: false,
        NS1: true,
        NS2: false,
        MT1: true,
        RS1: true,
        RS2: false,
        FC1: false,
        CC1: true,
        CC2: false,
        CC3: false,
        AT1: false,
        AT2: false
      },
      marked: ["CB1", "NS1", "MT1", "RS1", "CC1"],
      footnotes: []
    },
    countryGroups: {
      rowLabel: "Germany",
      memberships: [
        { group: "A:1", title: "Wassenaar Participating States" },
        { group: "A:2", title: "Missile Technology Control Regime" },
        { group: "A:3", title: "Australia Group" },
        { group: "A:4", title: "Nuclear Suppliers Group" },
        { group: "A:5", title: "Country Group A:5" },
        { group: "B", title: "Countries" }
      ]
    },
    embargoNotes: [],
    sources: [
      {
        citation: "15 CFR part 738, Supplement No. 1 (Commerce Country Chart)",
        issueDate: "2026-11-18",
        fetchedAt: "2026-11-19T06:00:12.418Z",
        stale: false
      },
      {
        citation: "15 CFR part 740, Supplement No. 1 (Country Groups)",
        issueDate: "2026-11-18",
        fetchedAt: "2026-11-19T06:00:12.418Z",
        stale: false
      },
      {
        citation: "15 CFR part 746 (Embargoes and Other Special Controls)",
        issueDate: "2026-11-18",
        fetchedAt: "2026-11-19T06:00:12.418Z",
        stale: false
      }
    ]
  }]
})
export type CountryChartAnswer = typeof CountryChartAnswer.Type

const countryNotFound = problem({
  slug: "country-not-found",
  status: 404,
  title: "Country not found",
  description: "No Country Chart or Country Group row matches the name or code; `suggestions` lists close names.",
  example: "No country matches \"Germny\". Did you mean: Germany?"
})
export class CountryNotFound extends Schema.TaggedError<CountryNotFound>()("CountryNotFound", {
  ...countryNotFound.fields,
  query: Schema.String.annotations({ examples: ["Germny"] }),
  suggestions: Schema.Array(Schema.String).annotations({ examples: [["Germany"]] })
}, countryNotFound.annotations) {}
