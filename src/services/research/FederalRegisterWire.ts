import { Schema } from "effect"
import type { FederalRegisterHit } from "../../domain/Research.ts"
import { optionalNullable } from "./FailSoft.ts"

/** The Federal Register API v1 (`/api/v1/documents.json`, `/api/v1/documents/{number}.json`). */
export const documentsPath = "/api/v1/documents.json"
export const documentPath = (documentNumber: string) => `/api/v1/documents/${documentNumber}.json`

/** The fields a search asks for; the API answers a default set otherwise. */
export const searchFields = [
  "document_number",
  "title",
  "type",
  "abstract",
  "action",
  "agencies",
  "publication_date",
  "effective_on",
  "citation",
  "html_url",
  "pdf_url"
]

const NumberOrString = Schema.Union(Schema.Number, Schema.String)

export const WireDocument = Schema.Struct({
  document_number: Schema.String,
  title: Schema.String,
  type: optionalNullable(Schema.String),
  abstract: optionalNullable(Schema.String),
  action: optionalNullable(Schema.String),
  agencies: optionalNullable(Schema.Array(Schema.Struct({
    name: optionalNullable(Schema.String),
    raw_name: optionalNullable(Schema.String),
    slug: optionalNullable(Schema.String)
  }))),
  publication_date: Schema.String,
  effective_on: optionalNullable(Schema.String),
  citation: optionalNullable(Schema.String),
  html_url: Schema.String,
  pdf_url: optionalNullable(Schema.String),
  dates: optionalNullable(Schema.String),
  docket_ids: optionalNullable(Schema.Array(Schema.String)),
  cfr_references: optionalNullable(Schema.Array(Schema.Struct({
    title: optionalNullable(NumberOrString),
    part: optionalNullable(NumberOrString)
  }))),
  raw_text_url: optionalNullable(Schema.String)
})
export type WireDocument = typeof WireDocument.Type

/**
 * A search answer. With zero hits the API leaves `results` out entirely; records are decoded one
 * by one so that a single odd record cannot sink the page.
 */
export const WireSearch = Schema.Struct({
  count: Schema.optional(Schema.Number),
  results: Schema.optional(Schema.Array(Schema.Unknown))
})

export const hitOf = (document: WireDocument): FederalRegisterHit => ({
  document_number: document.document_number,
  title: document.title,
  type: document.type ?? "",
  abstract: document.abstract ?? null,
  agencies: [
    ...new Set((document.agencies ?? []).flatMap((agency) => agency.name ?? agency.raw_name ?? []))
  ],
  publication_date: document.publication_date,
  effective_on: document.effective_on ?? null,
  citation: document.citation ?? null,
  html_url: document.html_url,
  pdf_url: document.pdf_url ?? null
})
