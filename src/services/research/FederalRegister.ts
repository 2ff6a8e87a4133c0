import { Data, Effect } from "effect"
import type {
  FederalRegisterDocument,
  FederalRegisterDocumentResponse,
  FederalRegisterSearchParams,
  FederalRegisterSearchResponse
} from "../../domain/Research.ts"
import { federalRegisterAgencies, FederalRegisterDocumentNotFound } from "../../domain/Research.ts"
import { jsonBody, type UpstreamClient, type UpstreamError } from "../Upstream.ts"
import { cachedLookup, decodeEach, softly } from "./FailSoft.ts"
import { makeResolver, parseFrCitation } from "./FederalRegisterCitation.ts"
import {
  documentPath,
  documentsPath,
  hitOf,
  searchFields,
  WireDocument,
  type WireDocument as WireDocumentType,
  WireSearch
} from "./FederalRegisterWire.ts"
import { htmlToText, looksLikeHtml } from "./HtmlText.ts"

const label = "The Federal Register API"

/** Per SPEC the Federal Register is cached about six hours. */
export const cacheTtl = "6 hours"

/** The most a citation's resolution may take, all its issue probes together. */
export const citationDeadline = "30 seconds"

/** Bodies longer than this (a handful of giant rules) are kept and served cut short, marked truncated. */
export const maxBodyChars = 2_000_000

const toInt = (value: number | string | null | undefined) => {
  const n = typeof value === "number" ? value : Number.parseInt(value ?? "", 10)
  return Number.isInteger(n) ? n : null
}

/** The fetched document before a caller's truncation is applied. */
interface FetchedDocument {
  readonly document: FederalRegisterDocument
  readonly bodyError: string | undefined
  /** The text failed for a reason that may pass (upstream trouble): do not keep this copy. */
  readonly bodyRetryable: boolean
}

export const make = (client: UpstreamClient) =>
  Effect.gen(function*() {
    const source = `${client.baseUrl}${documentsPath}`
    const baseHost = new URL(client.baseUrl).host

    const searchUpstream = (key: FederalRegisterSearchKey) =>
      client.getJson(documentsPath, WireSearch, {
        params: {
          "conditions[term]": key.query,
          order: "relevance",
          per_page: key.limit,
          "fields[]": searchFields,
          ...(key.agency === null ? {} : { "conditions[agencies][]": federalRegisterAgencies[key.agency] }),
          ...(key.docType === null ? {} : { "conditions[type][]": key.docType })
        }
      }).pipe(
        Effect.flatMap((search) =>
          Effect.map(decodeEach(client.name, WireDocument, search.results ?? []), (documents) => ({
            total: search.count ?? documents.length,
            results: documents.map(hitOf)
          }))
        )
      )
    const cachedSearch = yield* cachedLookup({ capacity: 256, ttl: cacheTtl, lookup: searchUpstream })

    const search = (params: FederalRegisterSearchParams): Effect.Effect<FederalRegisterSearchResponse> => {
      const key = new FederalRegisterSearchKey({
        query: params.query,
        agency: params.agency ?? null,
        docType: params.doc_type ?? null,
        limit: params.limit ?? 20
      })
      return cachedSearch(key).pipe(
        Effect.map(({ results, total }) => ({ query: params.query, count: results.length, total, results, source })),
        Effect.catchAll(softly(label, (error) => ({
          query: params.query,
          count: 0,
          total: null,
          results: [],
          source,
          error
        })))
      )
    }

    /** The plain text behind `raw_text_url`, fetched from the configured host only (never a URL we were handed). */
    const bodyOf = (document: WireDocumentType) => {
      const url = document.raw_text_url
      const lacking = (error: string) => Effect.succeed({ body: null, error, retryable: false })
      if (url == null) return lacking("the Federal Register lists no text for it")
      let path: string
      try {
        const parsed = new URL(url)
        if (parsed.host !== baseHost && !parsed.host.endsWith("federalregister.gov")) {
          return lacking("its text is hosted outside the Federal Register")
        }
        path = parsed.pathname
      } catch {
        return lacking("the Federal Register gave an unreadable text address")
      }
      return client.getText(path).pipe(
        Effect.map((text) => ({
          body: looksLikeHtml(text) ? htmlToText(text) : text.trim(),
          error: undefined,
          retryable: false
        })),
        Effect.catchAll(
          softly(label, (error) => ({ body: null, error: `text unavailable: ${error}`, retryable: true }))
        )
      )
    }

    const fetchDocument = (documentNumber: string): Effect.Effect<FetchedDocument | undefined, UpstreamError> =>
      Effect.gen(function*() {
        const path = documentPath(documentNumber)
        const response = yield* client.get(path, { acceptStatus: [404], headers: { accept: "application/json" } })
        if (response.status === 404) return undefined
        const wire = yield* jsonBody(client.name, path, WireDocument)(response)
        const { body, error, retryable } = yield* bodyOf(wire)
        const chars = body?.length ?? null
        const document: FederalRegisterDocument = {
          ...hitOf(wire),
          action: wire.action ?? null,
          dates: wire.dates ?? null,
          docket_ids: [...(wire.docket_ids ?? [])],
          cfr_references: (wire.cfr_references ?? []).flatMap((ref) => {
            const title = toInt(ref.title)
            return title === null ? [] : [{ title, part: toInt(ref.part) }]
          }),
          body: body === null ? null : body.slice(0, maxBodyChars),
          body_chars: chars,
          body_truncated: chars !== null && chars > maxBodyChars,
          body_source_url: wire.raw_text_url ?? null
        }
        return { document, bodyError: error, bodyRetryable: retryable }
      })
    const cachedDocument = yield* cachedLookup({
      capacity: 32,
      ttl: cacheTtl,
      lookup: fetchDocument,
      keep: (fetched) => fetched?.bodyRetryable !== true
    })

    const document = (
      documentNumber: string,
      options: { readonly maxBodyChars?: number } = {}
    ): Effect.Effect<FederalRegisterDocumentResponse, FederalRegisterDocumentNotFound> =>
      Effect.gen(function*() {
        const fetched = yield* cachedDocument(documentNumber).pipe(
          Effect.catchAll(softly(label, (error) => ({ failed: error })))
        )
        if (fetched === undefined) {
          return yield* new FederalRegisterDocumentNotFound({
            detail: `The Federal Register has no document ${documentNumber}.`,
            document_number: documentNumber
          })
        }
        if ("failed" in fetched) {
          return { document_number: documentNumber, document: null, source, error: fetched.failed }
        }
        const limit = options.maxBodyChars
        const body = fetched.document.body
        const cut = limit !== undefined && body !== null && body.length > limit
        const response: FederalRegisterDocumentResponse = {
          document_number: documentNumber,
          document: cut ? { ...fetched.document, body: body.slice(0, limit), body_truncated: true } : fetched.document,
          source,
          ...(fetched.bodyError === undefined ? {} : { error: `Metadata found, but ${fetched.bodyError}` })
        }
        return response
      })

    const pageOf = yield* makeResolver(client, cacheTtl)

    /**
     * The document a citation names: `FR Doc. 2025-19001` is its number; `90 FR 47201` is found by
     * the page (see `makeResolver`). Upstream trouble answers soft, with the citation as given.
     */
    const byCitation = (
      citation: string,
      options: { readonly maxBodyChars?: number } = {}
    ): Effect.Effect<FederalRegisterDocumentResponse, FederalRegisterDocumentNotFound> => {
      const parsed = parseFrCitation(citation)
      if (parsed === undefined) {
        return Effect.fail(
          new FederalRegisterDocumentNotFound({
            detail: `"${citation.slice(0, 40)}" is not a Federal Register citation: write \`90 FR 47201\` or ` +
              "`FR Doc. 2025-19001`.",
            document_number: citation.slice(0, 40)
          })
        )
      }
      if (parsed._tag === "DocumentNumber") return document(parsed.documentNumber, options)
      const cited = `${parsed.volume} FR ${parsed.page}`
      return pageOf(parsed.volume, parsed.page).pipe(
        Effect.timeoutFail({
          duration: citationDeadline,
          onTimeout: () => ({ timedOut: true as const })
        }),
        Effect.matchEffect({
          onFailure: (error) =>
            "timedOut" in error
              ? Effect.succeed<FederalRegisterDocumentResponse>({
                document_number: cited,
                document: null,
                source,
                error: `${label} did not resolve ${cited} within ${citationDeadline}`
              })
              : softly(label, (message) => ({ document_number: cited, document: null, source, error: message }))(
                error
              ),
          onSuccess: (found) =>
            found === undefined
              ? Effect.fail(
                new FederalRegisterDocumentNotFound({
                  detail: `No Federal Register issue of ${parsed.volume + 1935} holds page ${parsed.page} (${cited}).`,
                  document_number: cited
                })
              )
              : document(found, options)
        })
      )
    }

    return { search, document, byCitation }
  })

class FederalRegisterSearchKey extends Data.Class<{
  readonly query: string
  readonly agency: keyof typeof federalRegisterAgencies | null
  readonly docType: string | null
  readonly limit: number
}> {}
