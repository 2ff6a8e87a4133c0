import { Effect, Schema } from "effect"
import { DataStateFields } from "../../domain/DataState.ts"
import {
  EnforcementDocumentDetail,
  EnforcementDocumentId,
  EnforcementDocumentList,
  EnforcementDocumentsParams,
  EnforcementFeed as FeedSchema,
  EnforcementFeedParams,
  FeedLimitMax
} from "../../domain/Enforcement.ts"
import { PagedFields, PageOffset } from "../../domain/ResultBudget.ts"
import { EnforcementFeed } from "../../services/EnforcementFeed.ts"
import { EnforcementLake } from "../../services/EnforcementLake.ts"
import * as Budget from "../Budget.ts"
import * as Tool from "../Tool.ts"

const FeedInput = Tool.jsonArguments(Schema.Struct({ ...EnforcementFeedParams.fields, offset: PageOffset }))
type FeedInput = typeof FeedInput.Type

const FeedPage = Schema.Struct({ ...FeedSchema.fields, ...PagedFields })

/** Actions per page when the caller names no limit (the REST default). */
const DefaultFeedPage = 50

/**
 * One page of the feed: from `offset`, at most `limit` actions and no more than fit the result
 * budget (a settlement's summary can be long); a full or cut page names the call for the next.
 */
const feedPage = (feed: typeof FeedSchema.Type, params: FeedInput) => {
  const offset = params.offset ?? 0
  const limit = params.limit ?? DefaultFeedPage
  const window = feed.actions.slice(offset, offset + limit)
  const sources = Budget.jsonChars(feed.sources)
  const actions = window.slice(0, Budget.fittingCount(window, Budget.DefaultResultChars - sources - 600))
  const next = offset + actions.length
  const cut = actions.length < window.length
  const page = { actions, count: actions.length, sources: feed.sources }
  if (!cut && (window.length < limit || next >= FeedLimitMax)) return page
  return {
    ...page,
    next_offset: next,
    rest:
      `${cut ? `Actions ${offset + 1}-${next} shown of the ${window.length + offset} asked for` : "More may follow"}` +
      `. Rest: ${Budget.callOf("get_enforcement_actions", { ...params, offset: next })}`
  }
}

/** REST twin: `GET /api/enforcement`. */
export const getEnforcementActions = Tool.make({
  name: "get_enforcement_actions",
  title: "Recent enforcement actions",
  description: "Recent BIS, DDTC and DOJ enforcement actions, newest first, filtered by agency, type, party, statute " +
    "or date. `sources` says how far each source was read and whether it answered.",
  version: "1.0.0",
  annotations: Tool.readOnly("Recent enforcement actions", true),
  input: FeedInput,
  output: Tool.structured(FeedPage),
  run: (params) =>
    Effect.flatMap(EnforcementFeed, (feed) => {
      const { offset, ...filters } = params
      const upTo = Math.min(FeedLimitMax, (offset ?? 0) + (params.limit ?? DefaultFeedPage))
      return Effect.map(feed.actions({ ...filters, limit: upTo }), (answer) => feedPage(answer, params))
    })
})

const SearchDocuments = Tool.jsonArguments(Schema.Struct({
  query: EnforcementDocumentsParams.fields.q,
  agency: EnforcementDocumentsParams.fields.agency,
  limit: EnforcementDocumentsParams.fields.limit
}))

/** REST twin: `GET /api/enforcement/docs?q=`. */
export const searchEnforcementDocuments = Tool.make({
  name: "search_enforcement_documents",
  title: "Search the enforcement archive",
  description: "Keyword search of the enforcement document archive (BIS, DDTC, DOJ): party, title, parsed text; " +
    "without `query`, the newest. Hits carry ids for get_enforcement_document and a snippet.",
  version: "1.0.0",
  annotations: Tool.readOnly("Search the enforcement archive"),
  input: SearchDocuments,
  output: Tool.structured(
    Schema.Struct({ ...EnforcementDocumentList.fields, ...DataStateFields, rest: PagedFields.rest })
  ),
  run: ({ agency, limit, query }) =>
    Effect.flatMap(EnforcementLake, (lake) =>
      Effect.zipWith(
        lake.search({
          ...(query === undefined ? {} : { q: query }),
          ...(agency === undefined ? {} : { agency }),
          ...(limit === undefined ? {} : { limit })
        }),
        lake.stats,
        // an archive never filled answers no hits too: say which it is
        (list, stats) =>
          Budget.fitHits(
            {
              ...list,
              ...(stats.total === 0
                ? {
                  data_state: "empty" as const,
                  data_note: "The enforcement archive holds no documents yet; no hits say nothing about the party."
                }
                : { data_state: "ok" as const })
            },
            "documents",
            "Ask again with a smaller `limit` or a narrower `query`."
          ),
        { concurrent: true }
      ))
})

const DocumentPage = Schema.Struct({
  ...EnforcementDocumentDetail.fields,
  text_offset: Schema.optional(Schema.Int.annotations({ description: "Where in the whole text `text` starts" })),
  ...PagedFields
})

/** A document with its text a page of the result budget from `offset` (a charging letter runs long). */
const textPage = (detail: typeof EnforcementDocumentDetail.Type, offset: number): typeof DocumentPage.Type => {
  const text = detail.text
  if (text === undefined || text === null) return detail
  const room = Budget.DefaultResultChars - Budget.jsonChars({ ...detail, text: "" }) - 600
  const page = Budget.pageOf(text, offset, Math.max(1_000, room))
  if (page.offset === 0 && page.end === page.total) return detail
  const next = page.end < page.total
  return {
    ...detail,
    text: page.text,
    text_offset: page.offset,
    ...(next ? { next_offset: page.end } : {}),
    rest: `Text characters ${page.offset}-${page.end} of ${page.total}.${
      next
        ? ` Rest: ${Budget.callOf("get_enforcement_document", { id: detail.id, include_text: true, offset: page.end })}`
        : " End of text."
    }`
  }
}

/** REST twin: `GET /api/enforcement/docs/{id}` (with `include_text`, also `/text`). */
export const getEnforcementDocument = Tool.make({
  name: "get_enforcement_document",
  title: "Read an enforcement document",
  description: "One archived enforcement document by id: parties, dates, parse status, links; `include_text: true` " +
    "adds the parsed text (null for scans and text-less `doj:` ids).",
  version: "1.0.0",
  annotations: Tool.readOnly("Read an enforcement document"),
  input: Schema.Struct({
    id: EnforcementDocumentId.annotations({
      description: "`bis-case:…`, `bis-media:…`, `ddtc:…` or `doj:…`, as search hits give it"
    }),
    include_text: Schema.optional(Schema.Boolean.annotations({ description: "Add the parsed text (default false)" })),
    offset: PageOffset
  }),
  output: Tool.structured(DocumentPage),
  run: ({ id, include_text, offset }) =>
    Effect.flatMap(
      EnforcementLake,
      (lake) =>
        Effect.map(lake.document(id, { includeText: include_text ?? false }), (detail) => textPage(detail, offset ?? 0))
    )
})

export const enforcementTools = [getEnforcementActions, searchEnforcementDocuments, getEnforcementDocument] as const
