import type { HttpClient } from "@effect/platform"
import { Clock, Context, Effect, Layer, Schema } from "effect"
import type { RadarItem, RadarResponse, RadarTopic } from "../domain/Radar.ts"
import { AppConfig } from "./AppConfig.ts"
import * as Upstream from "./Upstream.ts"

/**
 * Recent rulemaking by BIS, DDTC (State) and OFAC from the Federal Register API, per topic, cached
 * about six hours. Fails soft: an unreachable or misbehaving upstream gives `{ results: [], error }`
 * (or the last good answer, marked stale), never an error status.
 */
export interface RadarShape {
  readonly recent: (topic: RadarTopic | undefined) => Effect.Effect<RadarResponse>
}

export class Radar extends Context.Tag("app/Radar")<Radar, RadarShape>() {}

const BIS = "industry-and-security-bureau"
const STATE = "state-department"
const OFAC = "foreign-assets-control-office"

interface TopicQuery {
  readonly agencies: ReadonlyArray<string>
  readonly types: ReadonlyArray<string>
  readonly term: string | null
}

const rules = ["RULE", "PRORULE"]

/** What each topic asks the Federal Register for (agency slugs, document types, full-text terms). */
export const topicQueries: Record<RadarTopic | "all", TopicQuery> = {
  all: { agencies: [BIS, STATE, OFAC], types: rules, term: null },
  affiliates: { agencies: [BIS], types: rules, term: "affiliates" },
  ai: { agencies: [BIS], types: [...rules, "NOTICE"], term: "\"artificial intelligence\"" },
  firearms: { agencies: [BIS, STATE], types: rules, term: "firearms" },
  suppressors: { agencies: [BIS, STATE], types: rules, term: "suppressors" },
  "country-groups": { agencies: [BIS], types: rules, term: "\"country group\"" },
  semiconductors: { agencies: [BIS], types: rules, term: "semiconductor" }
}

export const cacheMillis = 6 * 60 * 60 * 1000

const fields = [
  "document_number",
  "title",
  "type",
  "abstract",
  "agencies",
  "publication_date",
  "effective_on",
  "citation",
  "html_url",
  "pdf_url",
  "cfr_references"
]

const optionalNullable = <S extends Schema.Schema.Any>(schema: S) => Schema.optional(Schema.NullOr(schema))

const FrDocument = Schema.Struct({
  document_number: Schema.String,
  title: Schema.String,
  type: Schema.String,
  abstract: optionalNullable(Schema.String),
  agencies: optionalNullable(Schema.Array(Schema.Struct({
    name: optionalNullable(Schema.String),
    raw_name: optionalNullable(Schema.String)
  }))),
  publication_date: Schema.String,
  effective_on: optionalNullable(Schema.String),
  citation: optionalNullable(Schema.String),
  html_url: Schema.String,
  pdf_url: optionalNullable(Schema.String),
  cfr_references: optionalNullable(Schema.Array(Schema.Struct({
    title: optionalNullable(Schema.Union(Schema.Number, Schema.String)),
    part: optionalNullable(Schema.Union(Schema.Number, Schema.String))
  })))
})

/** A search answer; with zero hits the API leaves `results` out entirely. */
const FrSearch = Schema.Struct({
  count: Schema.optional(Schema.Number),
  results: Schema.optional(Schema.Array(FrDocument))
})

const eccnMention = /\b\d[A-E]\d{3}(?:\.[a-z0-9]+)*\b/g
const cfrMention = /\b(15|22|31)\s+CFR\s+(?:parts?\s+)?(\d{1,3})\b/gi
const earPartMention = /\bparts?\s+(7[3-7]\d)\b/gi

const unique = (values: Iterable<string>) => [...new Set(values)]

/** ECCNs and CFR parts a document touches, from its CFR references, title and abstract. */
export const itemOf = (document: typeof FrDocument.Type): RadarItem => {
  const text = `${document.title} ${document.abstract ?? ""}`
  const referenced = (document.cfr_references ?? []).flatMap((ref) =>
    ref.title != null && ref.part != null ? [`${ref.title} CFR ${ref.part}`] : []
  )
  const mentioned = [
    ...Array.from(text.matchAll(cfrMention), (m) => `${m[1]} CFR ${m[2]}`),
    ...Array.from(text.matchAll(earPartMention), (m) => `15 CFR ${m[1]}`)
  ]
  return {
    documentNumber: document.document_number,
    title: document.title,
    type: document.type,
    agencies: unique((document.agencies ?? []).flatMap((a) => a.name ?? a.raw_name ?? [])),
    publicationDate: document.publication_date,
    effectiveOn: document.effective_on ?? null,
    abstract: document.abstract ?? null,
    citation: document.citation ?? null,
    htmlUrl: document.html_url,
    pdfUrl: document.pdf_url ?? null,
    eccns: unique(text.match(eccnMention) ?? []).sort(),
    cfrParts: unique([...referenced, ...mentioned]).sort()
  }
}

export const make = Effect.gen(function*() {
  const config = yield* AppConfig
  const client = yield* Upstream.make({
    name: "federal-register",
    baseUrl: config.federalRegisterBaseUrl,
    timeout: "8 seconds",
    retries: 1
  })
  const cache = new Map<string, { readonly response: RadarResponse; readonly at: number }>()

  const fetchTopic = (topic: RadarTopic | undefined, query: TopicQuery) =>
    client.getJson("/api/v1/documents.json", FrSearch, {
      params: {
        per_page: 20,
        order: "newest",
        "fields[]": fields,
        "conditions[agencies][]": query.agencies,
        "conditions[type][]": query.types,
        ...(query.term === null ? {} : { "conditions[term]": query.term })
      }
    }).pipe(
      Effect.flatMap((search) =>
        Effect.map(Clock.currentTimeMillis, (now): RadarResponse => {
          const results = (search.results ?? []).map(itemOf)
          return {
            topic: topic ?? null,
            query,
            count: results.length,
            results,
            source: "Federal Register API (federalregister.gov)",
            fetchedAt: new Date(now).toISOString(),
            stale: false
          }
        })
      )
    )

  const recent = (topic: RadarTopic | undefined): Effect.Effect<RadarResponse> =>
    Effect.gen(function*() {
      const key = topic ?? "all"
      const query = topicQueries[key]
      const now = yield* Clock.currentTimeMillis
      const cached = cache.get(key)
      if (cached !== undefined && now - cached.at < cacheMillis) return cached.response
      return yield* fetchTopic(topic, query).pipe(
        Effect.tap((response) => Effect.sync(() => cache.set(key, { response, at: now }))),
        Effect.catchAll((error) =>
          Effect.as(
            Effect.logWarning("radar: Federal Register unavailable", { reason: error.reason }),
            cached !== undefined
              ? { ...cached.response, stale: true, error: error.message }
              : {
                topic: topic ?? null,
                query,
                count: 0,
                results: [],
                source: "Federal Register API (federalregister.gov)",
                fetchedAt: null,
                stale: false,
                error: error.message
              }
          )
        )
      )
    })
  return { recent } satisfies RadarShape
})

export const layer: Layer.Layer<Radar, never, AppConfig | HttpClient.HttpClient> = Layer.effect(Radar, make)
