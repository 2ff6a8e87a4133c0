import { Schema } from "effect"
import * as Examples from "./examples/Research.ts"

/**
 * The rulemaking radar: recent BIS, DDTC and OFAC documents from the Federal Register API, by
 * topic, with the ECCNs and CFR parts each touches. Research-type data: failures are soft.
 */

export const RadarTopic = Schema.Literal(
  "affiliates",
  "ai",
  "firearms",
  "suppressors",
  "country-groups",
  "semiconductors"
)
export type RadarTopic = typeof RadarTopic.Type

export const RadarParams = Schema.Struct({
  topic: Schema.optional(
    RadarTopic.annotations({ description: "Narrow the radar to one topic; all topics when absent" })
  )
})

export const RadarItem = Schema.Struct({
  documentNumber: Schema.String,
  title: Schema.String,
  type: Schema.String.annotations({ description: "Rule, Proposed Rule, Notice, Presidential Document" }),
  agencies: Schema.Array(Schema.String),
  publicationDate: Schema.String,
  effectiveOn: Schema.NullOr(Schema.String),
  abstract: Schema.NullOr(Schema.String),
  citation: Schema.NullOr(Schema.String).annotations({ description: "Federal Register citation, e.g. 90 FR 12345" }),
  htmlUrl: Schema.String,
  pdfUrl: Schema.NullOr(Schema.String),
  eccns: Schema.Array(Schema.String).annotations({ description: "ECCNs named in the title or abstract" }),
  cfrParts: Schema.Array(Schema.String).annotations({
    description: "CFR parts the document amends or names (`15 CFR 744`), from its CFR references and abstract"
  })
}).annotations({ identifier: "RadarItem" })
export type RadarItem = typeof RadarItem.Type

export const RadarQuery = Schema.Struct({
  agencies: Schema.Array(Schema.String),
  types: Schema.Array(Schema.String),
  term: Schema.NullOr(Schema.String)
})

export const RadarResponse = Schema.Struct({
  topic: Schema.NullOr(RadarTopic),
  query: RadarQuery,
  count: Schema.Int,
  results: Schema.Array(RadarItem),
  source: Schema.String,
  fetchedAt: Schema.NullOr(Schema.String),
  stale: Schema.Boolean.annotations({
    description: "True when the Federal Register could not be reached and an earlier answer is served"
  }),
  error: Schema.optional(Schema.String.annotations({
    description: "Why the upstream could not answer; results are then empty or an earlier answer"
  }))
}).annotations({ identifier: "RadarResponse", examples: [Examples.radar] })
export type RadarResponse = typeof RadarResponse.Type
