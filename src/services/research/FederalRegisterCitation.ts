import { type Duration, Effect, Schema } from "effect"
import type { UpstreamClient, UpstreamError } from "../Upstream.ts"
import { cachedLookup, decodeEach, optionalNullable } from "./FailSoft.ts"
import { documentsPath, WireSearch } from "./FederalRegisterWire.ts"

/**
 * A Federal Register citation as agents meet it: `90 FR 47201` (volume and page, the form screening
 * lists and rules cite) or `FR Doc. 2025-19001` (the document number printed under every document).
 */
export type FrCitation =
  | { readonly _tag: "Page"; readonly volume: number; readonly page: number }
  | { readonly _tag: "DocumentNumber"; readonly documentNumber: string }

const pageCitation = /^\s*(\d{1,3})\s*F\.?\s*R\.?\s*(?:page\s*)?(\d{1,6})\s*$/i
const docCitation = /^\s*(?:FR\s*Doc\.?\s*(?:No\.?\s*)?)?((?:[A-Z]\d-)?(?:\d{4}|\d{2}|[A-Z]\d)-\d{1,6})\s*$/i

export const parseFrCitation = (text: string): FrCitation | undefined => {
  const page = pageCitation.exec(text)
  if (page !== null) return { _tag: "Page", volume: Number(page[1]), page: Number(page[2]) }
  const doc = docCitation.exec(text)
  return doc === null ? undefined : { _tag: "DocumentNumber", documentNumber: doc[1]!.toUpperCase() }
}

/** Volume 1 is 1936: the volume of a year is the year less 1935 (volume 90 is 2025). */
export const yearOfVolume = (volume: number) => volume + 1935

const IssueDocument = Schema.Struct({
  document_number: Schema.String,
  start_page: optionalNullable(Schema.Number),
  end_page: optionalNullable(Schema.Number)
})
type IssueDocument = typeof IssueDocument.Type

/** A daily issue's documents with their pages; the API's page limit covers any day's issue. */
const issueFields = ["document_number", "start_page", "end_page"]

/** Issues looked at before giving up: a binary search over a year's days takes about nine. */
const MaxProbes = 24

const isoDay = (year: number, dayOfYear: number) =>
  new Date(Date.UTC(year, 0, 1 + dayOfYear)).toISOString().slice(0, 10)

const daysIn = (year: number) => (Date.UTC(year + 1, 0, 1) - Date.UTC(year, 0, 1)) / 86_400_000

/**
 * Finds the document a volume-and-page citation points into, with documented API conditions only:
 * pages run on through a volume day by day, so a binary search over the year's publication dates
 * (each probe one daily issue's page ranges, cached like every Federal Register answer) finds the
 * issue, and in it the document whose pages hold the cited page (the one starting there first).
 * Answers the document number, or undefined when no issue of the year holds the page.
 */
export const makeResolver = (client: UpstreamClient, cacheTtl: Duration.DurationInput) =>
  Effect.gen(function*() {
    const issue = yield* cachedLookup({
      capacity: 64,
      ttl: cacheTtl,
      lookup: (day: string): Effect.Effect<ReadonlyArray<IssueDocument>, UpstreamError> =>
        client.getJson(documentsPath, WireSearch, {
          params: { "conditions[publication_date][is]": day, per_page: 1000, "fields[]": issueFields }
        }).pipe(Effect.flatMap((search) => decodeEach(client.name, IssueDocument, search.results ?? [])))
    })

    return (volume: number, page: number): Effect.Effect<string | undefined, UpstreamError> =>
      Effect.gen(function*() {
        const year = yearOfVolume(volume)
        let low = 0
        let high = daysIn(year) - 1
        let probes = 0
        while (low <= high && probes < MaxProbes) {
          const middle = Math.floor((low + high) / 2)
          // weekends and holidays have no issue: the next day with one stands for the middle
          let day = middle
          let documents: ReadonlyArray<IssueDocument> = []
          for (; day <= high && probes < MaxProbes; day++) {
            probes++
            documents = (yield* issue(isoDay(year, day))).filter((d) => d.start_page != null)
            if (documents.length > 0) break
          }
          if (documents.length === 0) {
            high = middle - 1
            continue
          }
          const first = Math.min(...documents.map((d) => d.start_page!))
          const last = Math.max(...documents.map((d) => d.end_page ?? d.start_page!))
          if (page < first) high = middle - 1
          else if (page > last) low = day + 1
          else {
            const holding = documents.filter((d) => d.start_page! <= page && page <= (d.end_page ?? d.start_page!))
            const starting = holding.find((d) => d.start_page === page)
            return (starting ?? holding[0])?.document_number
          }
        }
        return undefined
      })
  })
