import { Effect, Schema } from "effect"
import type { EnforcementAction } from "../../domain/Enforcement.ts"
import { decodeEach, optionalNullable } from "../research/FailSoft.ts"
import { htmlToText } from "../research/HtmlText.ts"
import type { UpstreamClient } from "../Upstream.ts"
import { dojActionType, isExportControlMatter, statutesIn } from "./Extract.ts"
import { type FeedSource, oldest } from "./FeedSource.ts"

/**
 * DOJ press releases from the justice.gov News API (`/api/v1/press_releases.json`): an envelope
 * `{ metadata: { resultset: { count, pagesize, page } }, results: [...] }` whose records carry
 * `uuid`, `title`, `url`, `body` (HTML) and `date` (Unix seconds; some records wrap it in a
 * `<time datetime="…">` element). Releases are asked for by title (`export`) newest first, then
 * kept only when they concern export controls or sanctions and read as a criminal stage or a
 * settlement. Sorting is applied again here: the feed never relies on upstream order.
 */
export const pressReleasesPath = "/api/v1/press_releases.json"

const DateValue = optionalNullable(Schema.Union(Schema.String, Schema.Number))

const WireRelease = Schema.Struct({
  uuid: Schema.String,
  title: Schema.String,
  url: Schema.String,
  body: optionalNullable(Schema.String),
  date: DateValue,
  created: DateValue
})

const WireEnvelope = Schema.Struct({ results: Schema.Array(Schema.Unknown) })

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** Release pages live on justice.gov; some records give the path only. */
const pageUrl = (url: string) =>
  url.startsWith("https://")
    ? url
    : url.startsWith("/") && !url.startsWith("//")
    ? `https://www.justice.gov${url}`
    : null

const fromEpoch = (seconds: number) => {
  const date = new Date(seconds * 1000)
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10)
}

/** `1497244800`, `"1497244800"`, `<time datetime="2025-02-05T12:37:10-05:00">1738777030</time>` or ISO. */
export const dojDate = (value: string | number | null | undefined): string | null => {
  if (typeof value === "number") return fromEpoch(value)
  if (value == null) return null
  const text = value.trim()
  if (/^\d{9,11}$/.test(text)) return fromEpoch(Number(text))
  const attribute = /datetime="(\d{4}-\d{2}-\d{2})/.exec(text)
  if (attribute) return attribute[1]!
  const inner = />\s*(\d{9,11})\s*</.exec(text)
  if (inner) return fromEpoch(Number(inner[1]))
  return /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : null
}

export const dojPressReleases = (client: UpstreamClient): FeedSource => ({
  id: "doj:press-releases",
  agency: "DOJ",
  description: "DOJ press releases on export-control and sanctions prosecutions (justice.gov News API, titles " +
    "containing \"export\")",
  upstreamLabel: "The justice.gov News API",
  fetch: client.getJson(pressReleasesPath, WireEnvelope, {
    params: { "parameters[title]": "export", sort: "date", direction: "DESC", pagesize: 50 }
  }).pipe(
    Effect.flatMap((envelope) => decodeEach(client.name, WireRelease, envelope.results)),
    Effect.map((releases) => {
      const dated = releases.flatMap((release) => {
        const date = dojDate(release.date) ?? dojDate(release.created)
        return date === null ? [] : [{ release, date }]
      })
      const actions = dated.flatMap(({ date, release }): Array<EnforcementAction> => {
        const id = release.uuid.toLowerCase()
        const actionType = dojActionType(release.title)
        const sourceUrl = pageUrl(release.url)
        if (!uuid.test(id) || sourceUrl === null || actionType === null) return []
        const text = `${release.title}\n${htmlToText(release.body ?? "")}`
        if (!isExportControlMatter(text)) return []
        return [{
          id: `doj:${id}`,
          agency: "DOJ",
          action_type: actionType,
          party: null,
          title: release.title,
          date,
          statutes: statutesIn(text),
          source_url: sourceUrl,
          doc_url: null
        }]
      })
      return { actions, scanned: releases.length, coverageFrom: oldest(dated.map((d) => d.date)) }
    })
  )
})
