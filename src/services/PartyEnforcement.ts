import { Context, Effect, Layer } from "effect"
import type { EnforcementAction, EnforcementAgency, EnforcementDocument } from "../domain/Enforcement.ts"
import {
  DefaultHitsPerSource,
  type PartyCheckRequest,
  type PartyEnforcementCheck,
  type PartyHit,
  type PartySourceGroup
} from "../domain/PartyEnforcement.ts"
import { InvalidRequest } from "../domain/Problem.ts"
import { DefaultMinScore, type ScreeningResponse } from "../domain/Screening.ts"
import { chargingLettersSourceId, consentAgreementsSourceId } from "./enforcement/ArchiveFeedSources.ts"
import * as PartyIndex from "./enforcement/PartyIndex.ts"
import { resultOf, summarize } from "./enforcement/PartySummary.ts"
import { EnforcementFeed, type SourceLook } from "./EnforcementFeed.ts"
import { type ArchiveCatalog, EnforcementLake } from "./EnforcementLake.ts"
import { Screening } from "./Screening.ts"
import { normalize } from "./screening/Normalize.ts"

/**
 * `check_party_enforcement`: one counterparty (and its aliases) against every enforcement source,
 * each source a group of its own. Sources fail independently: a failed source is reported as not
 * checked and the others still answer. The names are matched in memory; they are never logged and
 * never sent upstream (the feed and archive are read whole, the Denied Persons List is the local
 * screening index).
 */
export interface PartyEnforcementShape {
  readonly check: (request: PartyCheckRequest) => Effect.Effect<PartyEnforcementCheck, InvalidRequest>
}

export class PartyEnforcement extends Context.Tag("app/PartyEnforcement")<PartyEnforcement, PartyEnforcementShape>() {}

export const disclaimer = "A name match is a lead for human review, not an identification: confirm identity with " +
  "addresses, identifiers and the record itself. \"No match found\" covers only the sources marked checked, over " +
  "the period each covers, and is not a clearance. This check does not trace ownership or affiliates."

const feedLabels: Record<EnforcementAgency, string> = {
  BIS: "BIS enforcement actions",
  DDTC: "DDTC enforcement actions",
  DOJ: "DOJ export prosecutions"
}

/** Sources that share an agency with another get their own words in the summary. */
const sourceLabels: Record<string, string> = {
  [chargingLettersSourceId]: "BIS charging letters",
  [consentAgreementsSourceId]: "DDTC consent agreements"
}

type Group = Omit<PartySourceGroup, "total_hits" | "hits">
/** What a group says about its source whatever the outcome. */
type SourceFacts = Pick<Group, "source" | "label" | "description" | "coverage_from" | "as_of">

/** Scored hits of each name sent, one per record (its best name), best first. */
const bestPerRecord = (found: ReadonlyArray<PartyHit>): Array<PartyHit> => {
  const best = new Map<string, PartyHit>()
  for (const hit of found) {
    const current = best.get(hit.record_id)
    if (current === undefined || hit.score > current.score) best.set(hit.record_id, hit)
  }
  return [...best.values()].sort((a, b) =>
    b.score - a.score || (b.date ?? "").localeCompare(a.date ?? "") || a.record_id.localeCompare(b.record_id)
  )
}

const withHits = (group: Group, found: ReadonlyArray<PartyHit>, limit: number): PartySourceGroup => {
  const hits = bestPerRecord(found)
  return { ...group, total_hits: hits.length, hits: hits.slice(0, limit) }
}

const unchecked = (group: SourceFacts, status: "error" | "not_configured", detail: string) =>
  withHits({ ...group, status, stale: false, detail, records_checked: 0 }, [], 0)

const searchAll = (index: PartyIndex.PartyIndex, names: ReadonlyArray<string>, minScore: number) =>
  names.flatMap((name) => index.search(name, minScore).map((hit) => ({ ...hit, query_name: name })))

const actionRecord = (action: EnforcementAction): PartyIndex.PartyRecord => ({
  id: action.id,
  party: action.party,
  title: action.title,
  date: action.date,
  actionType: action.action_type,
  citation: action.id.startsWith("fr:")
    ? `Federal Register document ${action.id.slice(3)} (${action.date})`
    : `${action.agency} press release of ${action.date}`,
  url: action.source_url
})

const documentRecord = (document: EnforcementDocument): PartyIndex.PartyRecord => ({
  id: document.id,
  party: document.party,
  title: document.title,
  date: document.date,
  actionType: null,
  citation: `Enforcement archive document ${document.id}${document.date === null ? "" : ` (${document.date})`}`,
  url: document.source_url ?? document.text_url ?? document.file_url ?? document.original_doc_url
})

const feedIndex = PartyIndex.memoized((actions: ReadonlyArray<EnforcementAction>) => actions.map(actionRecord))
/** A document is searched under each respondent it names (the metadata's party and those read from its text). */
const archiveIndex = PartyIndex.memoized((catalog: ArchiveCatalog) =>
  catalog.documents.flatMap((document) => {
    const parties = catalog.fields.get(document.id)?.parties ?? []
    const record = documentRecord(document)
    return parties.length === 0 ? [record] : parties.map((party) => ({ ...record, party }))
  })
)

const feedGroup = ({ actions, status }: SourceLook, names: ReadonlyArray<string>, minScore: number, limit: number) => {
  const group = {
    source: status.id,
    label: sourceLabels[status.id] ?? feedLabels[status.agency],
    description: status.description,
    coverage_from: status.coverage_from,
    as_of: status.fetched_at
  }
  if (status.status === "error") return unchecked(group, "error", status.error ?? "The source did not answer.")
  const index = feedIndex(actions)
  return withHits(
    {
      ...group,
      status: "ok",
      stale: status.status === "stale",
      detail: status.status === "stale"
        ? `The source failed just now; its last good copy was checked. ${status.error ?? ""}`.trim()
        : null,
      records_checked: index.records
    },
    searchAll(index, names, minScore),
    limit
  )
}

const archiveGroup = (catalog: ArchiveCatalog, names: ReadonlyArray<string>, minScore: number, limit: number) => {
  const documents = catalog.documents
  const group = {
    source: "enforcement-archive",
    label: "the enforcement archive",
    description: "Archived BIS, DDTC and DOJ enforcement documents (respondent and title)",
    coverage_from: documents.reduce<string | null>(
      (oldest, document) =>
        document.date !== null && (oldest === null || document.date < oldest) ? document.date : oldest,
      null
    ),
    as_of: catalog.importedAt
  }
  if (documents.length === 0) {
    return unchecked(group, "not_configured", "The enforcement archive holds no documents in this deployment.")
  }
  const index = archiveIndex(catalog)
  return withHits(
    { ...group, status: "ok", stale: false, detail: null, records_checked: documents.length },
    searchAll(index, names, minScore),
    limit
  )
}

const dplBase = {
  source: "csl:dpl",
  label: "the Denied Persons List",
  description: "BIS Denied Persons List, from the Consolidated Screening List",
  coverage_from: null
}

type Screened = ReadonlyArray<{ readonly name: string; readonly response: ScreeningResponse }>

const dplAnswer = (screened: Screened, limit: number): PartySourceGroup => {
  const { dataset, lists } = screened[0]!.response
  const list = lists.find((l) => l.code === "DPL")
  const as_of = dataset.published_at ?? dataset.loaded_at
  if (list === undefined || list.entries === 0) {
    return unchecked(
      { ...dplBase, as_of },
      "not_configured",
      "The screening list in use holds no Denied Persons List entries."
    )
  }
  const found = screened.flatMap(({ name, response }) =>
    response.matches.map((match): PartyHit => ({
      record_id: match.id,
      score: match.score,
      matched_name: match.matched_name,
      matched_in: match.matched_name_kind === "name" ? "list_name" : "list_alias",
      query_name: name,
      title: match.name,
      date: match.start_date,
      action_type: null,
      citation: match.federal_register_notice === null
        ? `Denied Persons List entry ${match.id}`
        : `Denied Persons List, ${match.federal_register_notice}`,
      url: match.source_list_url ?? match.source_information_url
    }))
  )
  return withHits(
    {
      ...dplBase,
      as_of,
      status: "ok",
      stale: dataset.stale,
      detail: dataset.stale ? "The latest screening list refresh failed; the last good list was checked." : null,
      records_checked: list.entries
    },
    found,
    limit
  )
}

/** The Denied Persons List through the screening index: each name screened against DPL entries only. */
const dplGroup = (
  screening: typeof Screening.Service,
  request: PartyCheckRequest,
  names: ReadonlyArray<string>,
  minScore: number,
  limit: number
) =>
  Effect.forEach(names, (name) =>
    Effect.map(
      screening.search({
        name,
        sources: ["DPL"],
        min_score: minScore,
        size: limit,
        ...(request.country === undefined ? {} : { countries: [request.country] })
      }),
      (response) => ({ name, response })
    )).pipe(
      Effect.map((screened) => dplAnswer(screened, limit)),
      Effect.catchAll((error) => Effect.succeed(unchecked({ ...dplBase, as_of: null }, "error", error.detail)))
    )

const noWords = (field: string) =>
  new InvalidRequest({
    detail: `Invalid argument: ${field} (has no letters or digits to compare)`,
    invalidParams: [{ name: field, in: "body", reason: "has no letters or digits to compare" }]
  })

/** The name then the aliases, each once (compared by normalized form). */
const namesOf = (request: PartyCheckRequest) =>
  Effect.gen(function*() {
    const seen = new Set<string>()
    const names: Array<string> = []
    const all = [
      { field: "name", name: request.name },
      ...(request.aliases ?? []).map((name, i) => ({ field: `aliases.${i}`, name }))
    ]
    for (const { field, name } of all) {
      const key = normalize(name).key
      if (key === "") return yield* noWords(field)
      if (seen.has(key)) continue
      seen.add(key)
      names.push(name)
    }
    return names
  })

export const make = Effect.gen(function*() {
  const feed = yield* EnforcementFeed
  const lake = yield* EnforcementLake
  const screening = yield* Screening

  const check = (request: PartyCheckRequest) =>
    Effect.gen(function*() {
      const names = yield* namesOf(request)
      const minScore = request.min_score ?? DefaultMinScore
      const limit = request.limit ?? DefaultHitsPerSource
      const [looks, catalog, dpl] = yield* Effect.all([
        feed.bySource,
        lake.catalog,
        dplGroup(screening, request, names, minScore, limit)
      ], { concurrency: "unbounded" })
      const groups = [
        ...looks.map((look) => feedGroup(look, names, minScore, limit)),
        archiveGroup(catalog, names, minScore, limit),
        dpl
      ]
      return {
        query: { names, country: request.country ?? null, min_score: minScore, limit },
        result: resultOf(groups),
        summary: summarize(groups),
        groups,
        disclaimer
      }
    })

  return { check } satisfies PartyEnforcementShape
})

export const layer: Layer.Layer<PartyEnforcement, never, EnforcementFeed | EnforcementLake | Screening> = Layer.effect(
  PartyEnforcement,
  make
)
