import { Schema } from "effect"
import { problem } from "./Problem.ts"

/**
 * Export Control Classification Numbers and the Commerce Control List entries they name
 * (Supplement No. 1 to 15 CFR part 774). One schema serves the JSON answer of `/api/eccn/{eccn}`,
 * the plain-text rendering (built from the same value) and, later, the MCP tool.
 */

/** Five characters: category digit, product group A–E, three digits (`3A001`, `0A501`, `9A515`). */
export const eccnPattern = /^[0-9][A-E][0-9]{3}$/

/** `<eccn>` or `<eccn>.<paragraph>`, paragraph segments alternating letters and numbers (`5A002.a.1`). */
const queryPattern = /^(?:[Ee][Aa][Rr]99|[0-9][A-Ea-e][0-9]{3}(?:\.[A-Za-z0-9]+)*)$/

export const EccnParameter = Schema.String.pipe(
  Schema.pattern(queryPattern, {
    message: () =>
      "expected an ECCN (five characters such as 3A001 or 0A501, or EAR99), optionally followed by a " +
      "paragraph such as 0A501.f or 5A002.a.1"
  })
).annotations({
  description: "An ECCN (`3A001`, `9A515`, `EAR99`) or a paragraph of one (`0A501.f`, `3A090.a`, `5A002.a.1`)",
  examples: ["3A001", "5A002.a.1", "EAR99"]
})

export type EccnQuery =
  | { readonly _tag: "Ear99" }
  | { readonly _tag: "Entry"; readonly eccn: string; readonly paragraph: string | undefined }

/** Normalizes a request that matched `EccnParameter`: ECCN upper case, paragraph lower case. */
export const parseEccnQuery = (raw: string): EccnQuery | undefined => {
  if (!queryPattern.test(raw)) return undefined
  if (raw.toUpperCase() === "EAR99") return { _tag: "Ear99" }
  const [eccn, ...paragraph] = raw.split(".")
  return {
    _tag: "Entry",
    eccn: eccn!.toUpperCase(),
    paragraph: paragraph.length > 0 ? paragraph.join(".").toLowerCase() : undefined
  }
}

export const ReasonForControl = Schema.String.annotations({
  description: "A reason-for-control code as the entry writes it: NS, MT, NP, CB, RS, FC, CC, AT, UN, EI, SI, SL …"
})

export const CountryChartColumn = Schema.Literal(
  "CB1",
  "CB2",
  "CB3",
  "NP1",
  "NP2",
  "NS1",
  "NS2",
  "MT1",
  "RS1",
  "RS2",
  "FC1",
  "CC1",
  "CC2",
  "CC3",
  "AT1",
  "AT2"
)
export type CountryChartColumn = typeof CountryChartColumn.Type
export const countryChartColumns = CountryChartColumn.literals

export const ControlRow = Schema.Struct({
  reason: Schema.NullOr(ReasonForControl).annotations({
    description: "The reason for control the row starts with, when it names one"
  }),
  appliesTo: Schema.String.annotations({ description: "The `Control(s)` cell, e.g. \"NS applies to entire entry\"" }),
  countryChart: Schema.String.annotations({
    description: "The `Country chart` cell as written, e.g. \"NS Column 1\" or a pointer to another section"
  }),
  columns: Schema.Array(CountryChartColumn).annotations({
    description: "Country Chart columns the cell names; empty when the requirement is stated in text instead"
  })
}).annotations({ identifier: "EccnControlRow" })
export type ControlRow = typeof ControlRow.Type

export const LabeledText = Schema.Struct({
  label: Schema.String,
  text: Schema.String
}).annotations({ identifier: "EccnLabeledText" })
export type LabeledText = typeof LabeledText.Type

export const ItemBlock = Schema.Struct({
  kind: Schema.Literal("paragraph", "note", "heading", "text"),
  paragraph: Schema.NullOr(Schema.String).annotations({
    description: "Paragraph designation within the entry (`a`, `a.1`, `b.2.c`) for `paragraph` blocks"
  }),
  depth: Schema.Int.annotations({ description: "Nesting depth: 0 for a., 1 for a.1., 2 for a.1.a. …" }),
  text: Schema.String.annotations({ description: "The text as published, designation included" })
}).annotations({ identifier: "EccnItemBlock" })
export type ItemBlock = typeof ItemBlock.Type

export const EccnEntry = Schema.Struct({
  eccn: Schema.String,
  heading: Schema.String,
  category: Schema.Struct({ number: Schema.Int, title: Schema.NullOr(Schema.String) }),
  productGroup: Schema.Struct({ letter: Schema.String, title: Schema.NullOr(Schema.String) }),
  licenseRequirements: Schema.Struct({
    reasonForControl: Schema.Array(ReasonForControl),
    controls: Schema.Array(ControlRow),
    notes: Schema.Array(Schema.String).annotations({
      description: "Other text of the block (license requirement notes, reporting requirements)"
    })
  }),
  licenseExceptions: Schema.Struct({
    exceptions: Schema.Array(LabeledText).annotations({
      description: "List-based license exceptions as listed (LVS, GBS, ENC, STA …) with their conditions"
    }),
    notes: Schema.Array(Schema.String)
  }),
  listOfItemsControlled: Schema.Struct({
    fields: Schema.Array(LabeledText).annotations({
      description: "Unit, Related Controls, Related Definitions and any other labeled field, in order"
    }),
    items: Schema.Array(ItemBlock)
  })
}).annotations({ identifier: "EccnEntry" })
export type EccnEntry = typeof EccnEntry.Type

export const CclSource = Schema.Struct({
  citation: Schema.String,
  url: Schema.String.annotations({ description: "The entry on eCFR" }),
  issueDate: Schema.String.annotations({ description: "eCFR issue date of the text (YYYY-MM-DD)" }),
  fetchedAt: Schema.String,
  stale: Schema.Boolean.annotations({
    description: "True when the eCFR could not be reached and an older stored copy answers"
  })
}).annotations({ identifier: "CclSource" })
export type CclSource = typeof CclSource.Type

export const EccnEntryAnswer = Schema.Struct({
  kind: Schema.Literal("entry"),
  requested: Schema.String.annotations({ description: "The ECCN or paragraph asked for, normalized" }),
  paragraph: Schema.NullOr(Schema.String).annotations({
    description: "The paragraph asked for; `items` then holds just that paragraph with its subparagraphs"
  }),
  entry: EccnEntry,
  source: CclSource
}).annotations({
  identifier: "EccnEntryAnswer",
  examples: [{
    kind: "entry",
    requested: "3A090",
    paragraph: null,
    entry: {
      eccn: "3A090",
      heading: "Integrated circuits as follows (see List of Items Controlled).",
      category: { number: 3, title: "Electronics" },
      productGroup: { letter: "A", title: "Systems, Equipment and Components" },
      licenseRequirements: {
        reasonForControl: ["RS", "AT"],
        controls: [
          {
            reason: "RS",
            appliesTo: "RS applies to 3A090.a",
            countryChart: "To or within destinations specified in Country Groups D:1, D:4, and D:5 of supplement " +
              "no. 1 to part 740 of the EAR, excluding any destination also specified in Country Groups A:5 or A:6. " +
              "See § 742.6(a)(6)(iii) of the EAR.",
            columns: []
          },
          { reason: "AT", appliesTo: "AT applies to entire entry", countryChart: "AT Column 1", columns: ["AT1"] }
        ],
        notes: []
      },
      licenseExceptions: {
        exceptions: [
          { label: "LVS", text: "N/A" },
          { label: "GBS", text: "N/A" },
          { label: "NAC/ACA", text: "Yes, for 3A090, except for items destined to Macau or Country Group D:5." }
        ],
        notes: []
      },
      listOfItemsControlled: {
        fields: [
          { label: "Related Controls", text: "See 3A001.z, 4A090, 5A992.z and 5D992.z." },
          { label: "Related Definitions", text: "N/A" }
        ],
        items: [
          {
            kind: "paragraph",
            paragraph: "a",
            depth: 0,
            text: "a. Integrated circuits having one or more digital processing units having either of the following:"
          },
          {
            kind: "paragraph",
            paragraph: "a.1",
            depth: 1,
            text: "a.1. A 'total processing performance' of 4800 or more; or"
          },
          {
            kind: "paragraph",
            paragraph: "a.2",
            depth: 1,
            text: "a.2. A 'total processing performance' of 1600 or more and a 'performance density' of 5.92 or more."
          }
        ]
      }
    },
    source: {
      citation: "15 CFR part 774, Supplement No. 1 (Commerce Control List), ECCN 3A090",
      url: "https://www.ecfr.gov/on/2026-11-18/title-15/part-774/appendix-Supplement%20No.%201%20to%20Part%20774",
      issueDate: "2026-11-18",
      fetchedAt: "2026-11-19T06:00:12.418Z",
      stale: false
    }
  }]
})
export type EccnEntryAnswer = typeof EccnEntryAnswer.Type

/** EAR99 is not a CCL entry: it is the designation of items subject to the EAR that no entry lists. */
const ear99Explanation =
  "EAR99 is not an entry on the Commerce Control List. It designates items that are subject to the " +
  "EAR but not listed in any ECCN (15 CFR 734.3(c)). Most EAR99 items can be exported without a license, but a " +
  "license may still be required for an embargoed or sanctioned destination (part 746), a listed or prohibited " +
  "end user (part 744, including the Entity List), a prohibited end use (part 744) or any other general " +
  "prohibition (part 736). Check the destination " +
  "with /api/country-chart and the parties with /api/csl before relying on \"no license required\" (NLR)."
const ear99Citations = ["15 CFR 734.3(c)", "15 CFR part 736", "15 CFR part 744", "15 CFR part 746"]

export const Ear99Answer = Schema.Struct({
  kind: Schema.Literal("ear99"),
  requested: Schema.Literal("EAR99"),
  explanation: Schema.String,
  citations: Schema.Array(Schema.String)
}).annotations({
  identifier: "Ear99Answer",
  // the answer itself: it is the same for every request
  examples: [{ kind: "ear99", requested: "EAR99", explanation: ear99Explanation, citations: ear99Citations }]
})
export type Ear99Answer = typeof Ear99Answer.Type

export const EccnAnswer = Schema.Union(EccnEntryAnswer, Ear99Answer).annotations({ identifier: "EccnAnswer" })
export type EccnAnswer = typeof EccnAnswer.Type

export const ear99Answer: Ear99Answer = {
  kind: "ear99",
  requested: "EAR99",
  explanation: ear99Explanation,
  citations: ear99Citations
}

const eccnNotFound = problem({
  slug: "eccn-not-found",
  status: 404,
  title: "ECCN not found",
  description: "The Commerce Control List has no such entry (or the entry has no such paragraph); " +
    "`nearest` lists the closest existing ones. For a paragraph, `itemTextAvailable` says whether the entry's " +
    "item text was there to look in.",
  example: "No ECCN 3A909 on the Commerce Control List (eCFR issue 2026-11-18)."
})
export class EccnNotFound extends Schema.TaggedError<EccnNotFound>()("EccnNotFound", {
  ...eccnNotFound.fields,
  requested: Schema.String.annotations({ examples: ["3A909"] }),
  nearest: Schema.Array(Schema.String).annotations({ examples: [["3A090", "3A901", "3A991"]] }),
  issueDate: Schema.String.annotations({ examples: ["2026-11-18"] }),
  itemTextAvailable: Schema.optional(Schema.Boolean).annotations({
    description: "Only for a missing paragraph: false when the parsed eCFR text holds no List of Items Controlled " +
      "for the entry, so the paragraph's absence is not established"
  })
}, eccnNotFound.annotations) {}
