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
import { InvalidRequest } from "../../domain/Problem.ts"
import { CfrTitleNumber, SupportedPartNumber, supportedParts } from "../../domain/Service.ts"
import { parseParagraphPath, sliceParagraph } from "../../services/ecfr/Paragraph.ts"
import { sectionPlainText } from "../../services/ecfr/SectionText.ts"
import { EcfrSource, type Served } from "../../services/EcfrSource.ts"
import * as Budget from "../Budget.ts"
import * as Tool from "../Tool.ts"

const Part = SupportedPartNumber.annotations({
  description: "CFR part: 121 (ITAR) or EAR 732-774"
})

/** Where the answer comes from, in the result's `_meta`: cite the issue date; a stale copy says so. */
const sourced = <A>(served: Served<A>) =>
  new Tool.Annotated(served.value, {
    "svc/ecfrIssueDate": served.issueDate,
    "svc/fetchedAt": served.fetchedAt,
    "svc/stale": served.stale
  })

const stalenessNote = "Cite `_meta` svc/ecfrIssueDate; svc/stale: true means a stored copy answered."

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
  description: "Table of contents of a mirrored part: sections and supplements with headings; their identifiers " +
    `are what get_ecfr_text reads. ${stalenessNote}`,
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
      description: "Character to start from (for the rest of a long text)"
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
  description: "Text of one section, appendix or supplement (identifiers from get_ecfr_part), optionally one " +
    `paragraph, ending with the citation and eCFR date. Long texts come in pages of ${Budget.DefaultResultChars} ` +
    "characters; the last line says how to read on.",
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
