import { Effect, Either, Schema } from "effect"
import { optionalNullable } from "../../research/FailSoft.ts"
import { htmlToText } from "../../research/HtmlText.ts"
import type { UpstreamClient } from "../../Upstream.ts"
import { dojDate, pressReleasesPath } from "../DojSource.ts"
import { isExportControlMatter } from "../Extract.ts"
import { CollectFailed, type Collector, type ListedItem, notModified } from "./Collector.ts"

/**
 * DOJ press releases on export-control and sanctions cases, through the documented justice.gov
 * News API (`/api/v1/press_releases.json`, the envelope `{ metadata, results }` the live feed
 * reads too): the newest `pages` × 50 releases with "export" in the title, kept when their text
 * concerns export controls or sanctions, stored as metadata and release text (DOJ publishes no
 * PDF). The window is not the whole catalog, so a release leaving it is not "removed".
 */
const pageSize = 50

const Release = Schema.Struct({
  uuid: Schema.String,
  title: Schema.String,
  url: Schema.String,
  body: optionalNullable(Schema.String),
  date: optionalNullable(Schema.Union(Schema.String, Schema.Number)),
  created: optionalNullable(Schema.Union(Schema.String, Schema.Number))
})
const Envelope = Schema.Struct({ results: Schema.Array(Schema.Unknown) })
const decodeEnvelope = Schema.decodeUnknownEither(Schema.parseJson(Envelope))
const decodeRelease = Schema.decodeUnknownEither(Release)

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const pageUrl = (url: string) =>
  url.startsWith("https://")
    ? url
    : url.startsWith("/") && !url.startsWith("//")
    ? `https://www.justice.gov${url}`
    : null

export const dojReleases = (client: UpstreamClient, pages = 4): Collector => ({
  id: "doj-press-releases",
  agency: "DOJ",
  description: "DOJ press releases on export-control and sanctions cases (justice.gov News API), as metadata and text",
  every: "6 hours",
  complete: false,
  client,
  list: (fetch) =>
    Effect.gen(function*() {
      const items: Array<ListedItem> = []
      let skipped = 0
      for (let page = 0; page < pages; page++) {
        const answer = yield* fetch.page(pressReleasesPath, {
          params: { "parameters[title]": "export", sort: "date", direction: "DESC", pagesize: pageSize, page }
        })
        // the newest page unchanged: nothing new was published
        if (answer === undefined) {
          if (page === 0) return { items: notModified, skipped: 0 }
          break
        }
        const envelope = decodeEnvelope(answer.body)
        if (Either.isLeft(envelope)) {
          return yield* new CollectFailed({
            reason: `${client.name}: page ${page} is not the News API envelope { results: [...] }`
          })
        }
        for (const raw of envelope.right.results) {
          const release = decodeRelease(raw)
          if (Either.isLeft(release)) {
            skipped++
            continue
          }
          const { body, created, date, title, url } = release.right
          const id = release.right.uuid.toLowerCase()
          const sourceUrl = pageUrl(url)
          const published = dojDate(date) ?? dojDate(created)
          if (!uuid.test(id) || sourceUrl === null) {
            skipped++
            continue
          }
          const text = htmlToText(body ?? "")
          if (!isExportControlMatter(`${title}\n${text}`)) continue
          items.push({
            id: `doj:${id}`,
            agency: "DOJ",
            title,
            party: null,
            date: published,
            sourceUrl,
            fileUrl: null,
            text
          })
        }
        if (envelope.right.results.length < pageSize) break
      }
      return { items, skipped }
    })
})
