import { Effect, Schema } from "effect"
import {
  type CfrSection,
  CfrTreeNode,
  PartSearchResponse,
  SearchDefaults,
  SearchParams,
  SectionsPage,
  type SectionsPayload,
  TitleSearchResponse
} from "../../domain/Cfr.ts"
import { DataStateFields } from "../../domain/DataState.ts"
import { InvalidRequest } from "../../domain/Problem.ts"
import { PagedFields } from "../../domain/ResultBudget.ts"
import { CfrTitleNumber, SupportedPartNumber, supportedParts } from "../../domain/Service.ts"
import { parseParagraphPath, sliceParagraph } from "../../services/ecfr/Paragraph.ts"
import { sectionPlainText } from "../../services/ecfr/SectionText.ts"
import { EcfrSource, type Served } from "../../services/EcfrSource.ts"
import * as Budget from "../Budget.ts"
import { AgentSearchResult, ecfrSearchState, onePerSection, withEccns } from "../EcfrSearchPresentation.ts"
import * as Tool from "../Tool.ts"

const Part = SupportedPartNumber

/** Where the answer comes from, in the result's `_meta`: cite the issue date; a stale copy says so. */
const sourced = <A>(served: Served<A>) =>
  new Tool.Annotated(served.value, {
    "svc/ecfrIssueDate": served.issueDate,
    "svc/fetchedAt": served.fetchedAt,
    "svc/stale": served.stale
  })

const stalenessNote = "Cite `_meta` svc/ecfrIssueDate (svc/stale: a stored copy)."

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
  description: "Contents of a mirrored part: sections and supplements with headings, by the ids get_ecfr_text " +
    `reads. ${stalenessNote}`,
  version: "1.0.0",
  annotations: Tool.readOnly("Structure of a CFR part"),
  input: Schema.Struct({ part: Part }),
  output: Tool.structured(CfrTreeNode),
  run: ({ part }) => Effect.flatMap(EcfrSource, (source) => Effect.map(source.structure(part), sourced))
})

const MaxChars = Schema.optional(
  Schema.Int.pipe(Schema.between(1_000, Budget.MaxResultChars)).annotations({
    description: `Characters per answer (default ${Budget.DefaultResultChars})`
  })
)

/** A page of a part's sections: whole sections while they fit, a section too big for a page alone cut short. */
const sectionsPage = (payload: SectionsPayload, offset: number, maxChars: number): SectionsPage => {
  const sections: Array<SectionsPage["sections"][number]> = []
  let used = 0
  let index = Math.min(offset, payload.sections.length)
  for (; index < payload.sections.length; index++) {
    const section = payload.sections[index]!
    const size = section.label.length + section.content.length
    if (sections.length > 0 && used + size > maxChars) break
    const truncated = size > maxChars
    const content = truncated ? Budget.pageOf(section.content, 0, maxChars).text : section.content
    sections.push({ ...section, content, chars: section.content.length, truncated })
    used += section.label.length + content.length
  }
  return {
    part: payload.part,
    label: payload.label,
    count: payload.count,
    offset,
    next_offset: index < payload.sections.length ? index : null,
    sections
  }
}

/** REST twin: `GET /api/ecfr/{part}/sections`, paged to the result budget. */
export const getEcfrSections = Tool.make({
  name: "get_ecfr_sections",
  title: "Sections of a CFR part",
  description: `A part's sections and supplements as text, about ${Budget.DefaultResultChars} characters a page: ` +
    "pass `next_offset` as `offset` for more. For one section use get_ecfr_text, for one ECCN get_eccn.",
  version: "2.0.0",
  annotations: Tool.readOnly("Sections of a CFR part"),
  input: Schema.Struct({
    part: Part,
    offset: Schema.optional(
      Schema.Int.pipe(Schema.between(0, 10_000)).annotations({
        description: "First section (index, default 0)"
      })
    ),
    max_chars: MaxChars
  }),
  output: Tool.structured(SectionsPage),
  run: ({ max_chars, offset, part }) =>
    Effect.flatMap(EcfrSource, (source) =>
      Effect.map(source.sections(part), (served) =>
        sourced({
          ...served,
          value: sectionsPage(served.value, offset ?? 0, max_chars ?? Budget.DefaultResultChars)
        })))
})

const SectionText = Schema.Struct({
  part: Part,
  section: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64)).annotations({
    description: "As get_ecfr_part lists it: `740.1`, `Supplement No. 4 to Part 774` (or `Supp. 4`)"
  }),
  paragraph: Schema.optional(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
      description: "Only this paragraph: `(b)(2)`, `a.1`, or under a heading `Category XII (a)`"
    })
  ),
  offset: Schema.optional(
    Schema.Int.pipe(Schema.between(0, 100_000_000)).annotations({
      description: "Start character (to read on)"
    })
  ),
  max_chars: MaxChars
})

interface SectionSlice {
  readonly served: Served<CfrSection>
  readonly text: string
  readonly paragraph?: string | undefined
  readonly page: Budget.TextPage
  readonly input: typeof SectionText.Type
}

const citationOf = (slice: SectionSlice) => {
  const identifier = slice.served.value.identifier
  const part = /^(\d+)\./.exec(identifier)?.[1] ?? /(\d+)$/.exec(identifier)?.[1]
  const title = supportedParts.find((p) => String(p.part) === part)?.title ?? 15
  return `${title} CFR ${identifier}${slice.paragraph === undefined ? "" : ` ${slice.paragraph}`}`
}

const renderSlice = (slice: SectionSlice) => {
  const { input, page, served } = slice
  const stale = served.stale ? ` (stored copy fetched ${served.fetchedAt}; the eCFR could not be reached)` : ""
  const next = Budget.continuation(page, (offset) =>
    `get_ecfr_text ${
      JSON.stringify({
        part: input.part,
        section: served.value.identifier,
        ...(input.paragraph === undefined ? {} : { paragraph: input.paragraph }),
        offset,
        ...(input.max_chars === undefined ? {} : { max_chars: input.max_chars })
      })
    }`)
  const body = page.text.endsWith("\n") ? page.text : `${page.text}\n`
  return `${body}${next === "" ? "" : `${next}\n`}\n— ${citationOf(slice)}, eCFR as of ${served.issueDate}${stale}\n`
}

const missingParagraph = (section: CfrSection, reason: string, available: ReadonlyArray<string>) =>
  new InvalidRequest({
    detail: `Invalid parameter: paragraph (${section.identifier} has ${reason}` +
      (available.length === 0 ? "" : `; paragraphs there: ${available.join(" ")}`) +
      (section.plain === "" ? "; the section has no text in this eCFR issue" : "") + ")",
    invalidParams: [{ name: "paragraph", in: "query", reason }]
  })

/** REST twin: `GET /api/ecfr/{part}/plain/{section}`, sliced to a paragraph and paged to the result budget. */
export const getEcfrText = Tool.make({
  name: "get_ecfr_text",
  title: "Text of a CFR section",
  description: "Text of a section, appendix or supplement (ids from get_ecfr_part) or one `paragraph` of it, with " +
    `citation and eCFR date. Pages of ${Budget.DefaultResultChars} characters; the last line says how to read on.`,
  version: "1.1.0",
  annotations: Tool.readOnly("Text of a CFR section"),
  input: SectionText,
  output: Tool.text<SectionSlice>("text/plain", renderSlice),
  run: (input) =>
    Effect.flatMap(
      EcfrSource,
      (source) =>
        Effect.flatMap(source.section(input.part, input.section, { appendices: true }), (served) => {
          const page = (text: string, paragraph?: string) => ({
            served,
            text,
            paragraph,
            input,
            page: Budget.pageOf(text, input.offset ?? 0, input.max_chars ?? Budget.DefaultResultChars)
          })
          if (input.paragraph === undefined) return Effect.succeed(page(sectionPlainText(served.value)))
          const path = parseParagraphPath(input.paragraph)
          if (path === undefined) {
            return Effect.fail(
              new InvalidRequest({
                detail: "Invalid parameter: paragraph (write it as `(b)(2)(i)`, `b.2`, or `Category XII (a)`)",
                invalidParams: [{ name: "paragraph", in: "query", reason: "not a paragraph path" }]
              })
            )
          }
          const slice = sliceParagraph(served.value.plain, path)
          if (slice._tag === "Missing") {
            return Effect.fail(missingParagraph(served.value, slice.reason, slice.available))
          }
          const context = [served.value.label, ...(slice.heading === undefined ? [] : [slice.heading])]
          return Effect.succeed(page(`${context.join("\n")}\n\n${slice.text}\n`, input.paragraph))
        })
    )
})

const agentFields = { results: Schema.Array(AgentSearchResult), ...DataStateFields, rest: PagedFields.rest }
const PartSearchAnswer = Schema.Struct({ ...PartSearchResponse.fields, ...agentFields })
const TitleSearchAnswer = Schema.Struct({ ...TitleSearchResponse.fields, ...agentFields })

/**
 * The REST answer with one hit per section, CCL hits with their ECCN, the state of the data
 * beside the hits, and no more hits than fit the result budget.
 */
const forAgents = <A extends PartSearchResponse | TitleSearchResponse>(answer: A) =>
  Effect.map(withEccns(onePerSection(answer.results)), (results) =>
    Budget.fitHits(
      { ...answer, results, ...ecfrSearchState(answer.meta.engine, answer.query, results.length) },
      "results",
      "Ask again with a smaller `per_page`."
    ))

/** REST twin: `GET /api/ecfr/{part}/search`, one hit per section. */
export const searchEcfrPart = Tool.make({
  name: "search_ecfr_part",
  title: "Search a CFR part",
  description: "Full-text search of a mirrored part: one hit per section, excerpt and date. Next page: " +
    "`meta.nextCursor` as `cursor`. `data_state`: whether no hits mean nothing found.",
  version: "1.1.0",
  annotations: Tool.readOnly("Search a CFR part"),
  input: Tool.jsonArguments(Schema.Struct({ part: Part, ...searchArguments })),
  output: Tool.structured(PartSearchAnswer),
  run: ({ part, ...args }) =>
    Effect.flatMap(EcfrSource, (source) => Effect.flatMap(source.searchPart(part, searchRequest(args)), forAgents))
})

/** REST twin: `GET /api/ecfr/search`, one hit per section. */
export const searchEcfrTitle = Tool.make({
  name: "search_ecfr_title",
  title: "Search the EAR or the ITAR",
  description: "Like search_ecfr_part across title 15 (EAR, default) or 22 (ITAR). Other titles: search_ecfr.",
  version: "1.1.0",
  annotations: Tool.readOnly("Search the EAR or the ITAR"),
  input: Tool.jsonArguments(Schema.Struct({
    title: Schema.optional(CfrTitleNumber.annotations({ description: "15 (EAR, default) or 22 (ITAR)" })),
    ...searchArguments
  })),
  output: Tool.structured(TitleSearchAnswer),
  run: ({ title, ...args }) =>
    Effect.flatMap(
      EcfrSource,
      (source) => Effect.flatMap(source.searchTitle(title ?? 15, searchRequest(args)), forAgents)
    )
})

export const ecfrTools = [getEcfrPart, getEcfrSections, searchEcfrPart, searchEcfrTitle, getEcfrText] as const
