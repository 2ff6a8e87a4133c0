import { Effect } from "effect"
import type { ActionType, EnforcementAction, EnforcementAgency } from "../../domain/Enforcement.ts"
import { decodeEach } from "../research/FailSoft.ts"
import { documentsPath, WireDocument, WireSearch } from "../research/FederalRegisterWire.ts"
import type { UpstreamClient } from "../Upstream.ts"
import { bisActionType, ddtcActionType, partyFromTitle, statutesIn } from "./Extract.ts"
import { type FeedSource, oldest } from "./FeedSource.ts"

const fields = ["document_number", "title", "abstract", "publication_date", "html_url", "pdf_url"]

interface NoticeQuery {
  readonly id: string
  readonly agency: EnforcementAgency
  readonly description: string
  readonly params: Readonly<Record<string, string | number | ReadonlyArray<string>>>
  readonly classify: (title: string) => ActionType | null
}

/**
 * BIS orders (denials of export privileges, temporary denial orders, settlements, charging
 * letters) are published as BIS notices. There is no reliable full-text phrase for all of them, so
 * the newest notices are read and classified by title; the rest (information collections,
 * meetings) are examined and left out.
 */
const bisQuery: NoticeQuery = {
  id: "federal-register:bis",
  agency: "BIS",
  description: "BIS orders and notices in the Federal Register (denial orders, temporary denial orders, " +
    "settlements, charging letters)",
  params: {
    "conditions[agencies][]": ["industry-and-security-bureau"],
    "conditions[type][]": ["NOTICE"],
    order: "newest",
    per_page: 500
  },
  classify: bisActionType
}

/** DDTC debarment notices appear under the State Department, among many unrelated notices. */
const ddtcQuery: NoticeQuery = {
  id: "federal-register:ddtc",
  agency: "DDTC",
  description: "State Department (DDTC) debarment and penalty notices in the Federal Register",
  params: {
    "conditions[agencies][]": ["state-department"],
    "conditions[type][]": ["NOTICE"],
    "conditions[term]": "debarment",
    order: "newest",
    per_page: 200
  },
  classify: ddtcActionType
}

const sourceOf = (client: UpstreamClient, query: NoticeQuery): FeedSource => ({
  id: query.id,
  agency: query.agency,
  description: query.description,
  upstreamLabel: "The Federal Register API",
  fetch: client.getJson(documentsPath, WireSearch, { params: { ...query.params, "fields[]": fields } }).pipe(
    Effect.flatMap((search) => decodeEach(client.name, WireDocument, search.results ?? [])),
    Effect.map((documents) => {
      const actions = documents.flatMap((document): Array<EnforcementAction> => {
        const actionType = query.classify(document.title)
        if (actionType === null) return []
        return [{
          id: `fr:${document.document_number}`,
          agency: query.agency,
          action_type: actionType,
          party: partyFromTitle(document.title),
          title: document.title,
          date: document.publication_date,
          statutes: statutesIn(`${document.title}\n${document.abstract ?? ""}`),
          source_url: document.html_url,
          doc_url: document.pdf_url ?? null
        }]
      })
      return {
        actions,
        scanned: documents.length,
        coverageFrom: oldest(documents.map((document) => document.publication_date))
      }
    })
  )
})

export const bisNotices = (client: UpstreamClient): FeedSource => sourceOf(client, bisQuery)
export const ddtcNotices = (client: UpstreamClient): FeedSource => sourceOf(client, ddtcQuery)
