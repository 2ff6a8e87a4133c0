import { Effect, Schema } from "effect"
import {
  EnforcementDocumentDetail,
  EnforcementDocumentId,
  EnforcementDocumentList,
  EnforcementDocumentsParams,
  EnforcementFeed as FeedSchema,
  EnforcementFeedParams
} from "../../domain/Enforcement.ts"
import { EnforcementFeed } from "../../services/EnforcementFeed.ts"
import { EnforcementLake } from "../../services/EnforcementLake.ts"
import * as Tool from "../Tool.ts"

/** REST twin: `GET /api/enforcement`. */
export const getEnforcementActions = Tool.make({
  name: "get_enforcement_actions",
  title: "Recent enforcement actions",
  description: "Recent BIS, DDTC and DOJ enforcement actions, newest first; filter by agency, type, party, statute " +
    "or date. `sources` says how far each source was read and whether it answered (a failed source " +
    "adds nothing instead of failing the call).",
  version: "1.0.0",
  annotations: Tool.readOnly("Recent enforcement actions", true),
  input: Tool.jsonArguments(EnforcementFeedParams),
  output: Tool.structured(FeedSchema),
  run: (params) => Effect.flatMap(EnforcementFeed, (feed) => feed.actions(params))
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
  output: Tool.structured(EnforcementDocumentList),
  run: ({ agency, limit, query }) =>
    Effect.flatMap(EnforcementLake, (lake) =>
      lake.search({
        ...(query === undefined ? {} : { q: query }),
        ...(agency === undefined ? {} : { agency }),
        ...(limit === undefined ? {} : { limit })
      }))
})

/** REST twin: `GET /api/enforcement/docs/{id}` (with `include_text`, also `/text`). */
export const getEnforcementDocument = Tool.make({
  name: "get_enforcement_document",
  title: "Read an enforcement document",
  description: "One archived enforcement document by id: parties, dates, parse status, links; `include_text: true` " +
    "adds the parsed text (null for scans and text-less `doj:` ids).",
  version: "1.0.0",
  annotations: Tool.readOnly("Read an enforcement document"),
  input: Schema.Struct({
    id: EnforcementDocumentId,
    include_text: Schema.optional(Schema.Boolean.annotations({ description: "Add the parsed text (default false)" }))
  }),
  output: Tool.structured(EnforcementDocumentDetail),
  run: ({ id, include_text }) =>
    Effect.flatMap(EnforcementLake, (lake) => lake.document(id, { includeText: include_text ?? false }))
})

export const enforcementTools = [getEnforcementActions, searchEnforcementDocuments, getEnforcementDocument] as const
