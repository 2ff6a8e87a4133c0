import { Effect, Schema } from "effect"
import {
  type CfrSection,
  CfrTreeNode,
  PartSearchResponse,
  SearchDefaults,
  SearchParams,
  SectionsPayload,
  TitleSearchResponse
} from "../../domain/Cfr.ts"
import { CfrTitleNumber, SupportedPartNumber, supportedParts } from "../../domain/Service.ts"
import { sectionPlainText } from "../../services/ecfr/SectionText.ts"
import { EcfrSource, type Served } from "../../services/EcfrSource.ts"
import * as Tool from "../Tool.ts"

const Part = SupportedPartNumber.annotations({
  description: "A mirrored CFR part: 121 (ITAR USML) or an EAR part 732-774, e.g. 740 (License Exceptions)"
})

/** Where the answer comes from, in the result's `_meta`: cite the issue date; a stale copy says so. */
const sourced = <A>(served: Served<A>) =>
  new Tool.Annotated(served.value, {
    "svc/ecfrIssueDate": served.issueDate,
    "svc/fetchedAt": served.fetchedAt,
    "svc/stale": served.stale
  })

const stalenessNote = "If the eCFR cannot be reached, a stored copy answers and the result's `_meta` has " +
  "`svc/stale: true`; `svc/ecfrIssueDate` is the eCFR issue to cite."

const searchArguments = {
  query: SearchParams.q,
  page: Schema.optional(SearchParams.page),
  per_page: Schema.optional(SearchParams.per_page),
  cursor: Schema.optional(SearchParams.cursor)
}

const searchRequest = (args: {
  readonly query: string
  readonly page?: number | undefined
  readonly per_page?: number | undefined
  readonly cursor?: string | undefined
}) => ({
  q: args.query,
  page: args.page ?? SearchDefaults.page,
  perPage: args.per_page ?? SearchDefaults.perPage,
  ...(args.cursor === undefined ? {} : { cursor: args.cursor })
})

/** REST twin: `GET /api/ecfr/{part}`. */
export const getEcfrPart = Tool.make({
  name: "get_ecfr_part",
  title: "Structure of a CFR part",
  description: "The table of contents of one mirrored part (subparts, sections, supplements with their headings), " +
    `from the eCFR. Use it to find the section to read with get_ecfr_text. ${stalenessNote}`,
  version: "1.0.0",
  annotations: Tool.readOnly("Structure of a CFR part"),
  input: Schema.Struct({ part: Part }),
  output: Tool.structured(CfrTreeNode),
  run: ({ part }) => Effect.flatMap(EcfrSource, (source) => Effect.map(source.structure(part), sourced))
})

/** REST twin: `GET /api/ecfr/{part}/sections`. */
export const getEcfrSections = Tool.make({
  name: "get_ecfr_sections",
  title: "Every section of a CFR part",
  description: "Every section and supplement of one mirrored part as clean text. Large (part 774, the Commerce " +
    "Control List, runs to megabytes): prefer get_ecfr_text for one section or get_eccn for one ECCN. " +
    stalenessNote,
  version: "1.0.0",
  annotations: Tool.readOnly("Every section of a CFR part"),
  input: Schema.Struct({ part: Part }),
  output: Tool.structured(SectionsPayload),
  run: ({ part }) => Effect.flatMap(EcfrSource, (source) => Effect.map(source.sections(part), sourced))
})

/** REST twin: `GET /api/ecfr/{part}/plain/{section}`. */
export const getEcfrText = Tool.make({
  name: "get_ecfr_text",
  title: "Text of a CFR section",
  description: "The current text of one section of a mirrored part as readable text (heading, paragraphs, " +
    "tables as `|` rows), ending with the citation and the eCFR issue date. `section` is `<part>.<number>`, " +
    "e.g. `740.1`.",
  version: "1.0.0",
  annotations: Tool.readOnly("Text of a CFR section"),
  input: Schema.Struct({
    part: Part,
    section: Schema.String.pipe(Schema.maxLength(32)).annotations({
      description: "Section identifier `<part>.<number>`, e.g. `740.1`"
    })
  }),
  output: Tool.text<Served<CfrSection>>("text/plain", (served) => {
    const title = supportedParts.find((p) => served.value.identifier.startsWith(`${p.part}.`))?.title ?? 15
    const stale = served.stale ? ` (stored copy fetched ${served.fetchedAt}; the eCFR could not be reached)` : ""
    return `${
      sectionPlainText(served.value)
    }\n— ${title} CFR ${served.value.identifier}, eCFR as of ${served.issueDate}${stale}\n`
  }),
  run: ({ part, section }) => Effect.flatMap(EcfrSource, (source) => source.section(part, section))
})

/** REST twin: `GET /api/ecfr/{part}/search`. */
export const searchEcfrPart = Tool.make({
  name: "search_ecfr_part",
  title: "Search a CFR part",
  description: "Full-text search within one mirrored part (current text), with excerpts and the section to cite. " +
    "Pass `meta.nextCursor` back as `cursor` (with the same query) for the next page; a null cursor means no " +
    "more. When the eCFR search is down, a local index of the stored part answers (`meta.engine`).",
  version: "1.0.0",
  annotations: Tool.readOnly("Search a CFR part"),
  input: Tool.jsonArguments(Schema.Struct({ part: Part, ...searchArguments })),
  output: Tool.structured(PartSearchResponse),
  run: ({ part, ...args }) => Effect.flatMap(EcfrSource, (source) => source.searchPart(part, searchRequest(args)))
})

/** REST twin: `GET /api/ecfr/search`. */
export const searchEcfrTitle = Tool.make({
  name: "search_ecfr_title",
  title: "Search the EAR or the ITAR",
  description: "Full-text search across title 15 (the EAR, default) or title 22 (the ITAR), current text, with " +
    "the same paging as search_ecfr_part. For other titles use search_ecfr.",
  version: "1.0.0",
  annotations: Tool.readOnly("Search the EAR or the ITAR"),
  input: Tool.jsonArguments(Schema.Struct({
    title: Schema.optional(CfrTitleNumber.annotations({ description: "15 (EAR, default) or 22 (ITAR)" })),
    ...searchArguments
  })),
  output: Tool.structured(TitleSearchResponse),
  run: ({ title, ...args }) =>
    Effect.flatMap(EcfrSource, (source) => source.searchTitle(title ?? 15, searchRequest(args)))
})

export const ecfrTools = [getEcfrPart, getEcfrSections, searchEcfrPart, searchEcfrTitle, getEcfrText] as const
