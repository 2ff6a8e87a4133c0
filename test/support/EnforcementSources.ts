import { createHash } from "node:crypto"
import type { FakeReply, FakeRoute } from "./FakeUpstream.ts"

/**
 * Fixtures in the formats of the enforcement archive's upstreams, written for these tests (no
 * copied pages) and held as mutable state so a test can add, change and remove documents:
 *
 * - BIS (bis.gov, Drupal): the export-violations catalog and the charging letters as paged views
 *   tables with a header row, `<time datetime>` dates, `/media/<n>/download` links and a
 *   `rel="next"` pager link;
 * - DDTC (ServiceNow portal): a page setting `window.g_ck` and a session cookie, then a table
 *   widget answering `{ result: { data: { num_pages, list } } }` to a POST with `X-UserToken`;
 * - DOJ: the News API envelope `{ metadata: { resultset }, results }`.
 *
 * Listing answers carry an ETag and honour If-None-Match, like the real servers' caches.
 */

export interface FakeCase {
  readonly caseNumber: string
  readonly respondent: string
  readonly date: string
  /** A media number whose PDF is served, or null for a case without documents. */
  readonly media: number | null
}

export interface FakeLetter {
  readonly media: number
  readonly respondent: string
  readonly date: string
}

export interface FakeAgreement {
  readonly sysId: string
  readonly company: string
  readonly year: string
  readonly media: number | null
}

export interface FakeRelease {
  readonly uuid: string
  readonly title: string
  readonly body: string
  readonly date: number
}

export interface SourcesState {
  cases: Array<FakeCase>
  letters: Array<FakeLetter>
  agreements: Array<FakeAgreement>
  releases: Array<FakeRelease>
  /** Media number → the bytes served for it. */
  files: Map<number, Uint8Array>
  perPage: number
  /** Replaces a listing page's HTML (garbage tests). */
  pageOverride: string | undefined
  /** Delays every answer by this many milliseconds. */
  delay: number
}

export const casesPath = "/enforcement/export-violations"
export const lettersPath = "/enforcement/charging-letters"
export const portalPath = "/ddtc_public/ddtc_public"
export const widgetPath = "/api/now/sp/widget/dbd0af311b58b450055b9796bc4bcb2d"
const token = "a1b2c3d4e5f60718293a4b5c6d7e8f90"

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

/** `2099-03-04` → `03/04/2099`, as the views tables print dates. */
const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`

const etagOf = (body: string) => `"${createHash("sha256").update(body).digest("hex").slice(0, 16)}"`

const conditional = (
  request: { headers: Record<string, string | Array<string> | undefined> },
  body: string,
  type: string
): FakeReply => {
  const etag = etagOf(body)
  return request.headers["if-none-match"] === etag
    ? { status: 304, headers: { etag } }
    : { status: 200, headers: { "content-type": type, etag }, body }
}

const viewsPage = (title: string, headers: ReadonlyArray<string>, rows: ReadonlyArray<string>, next: string | null) =>
  `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${title} | Bureau of Industry and Security</title>
<script>window.dataLayer = [{"page":"<table>"}];</script></head>
<body><header><nav><a href="/">Home</a></nav></header>
<main><h1 class="page-title">${title}</h1>
<div class="views-element-container"><div class="view-content">
<table class="views-table views-view-table cols-${headers.length}">
<thead><tr>${headers.map((h) => `<th class="views-field" scope="col">${h}</th>`).join("")}</tr></thead>
<tbody>
${rows.join("\n")}
</tbody></table></div>
${
    next === null
      ? ""
      : `<nav class="pager" role="navigation"><ul class="pager__items js-pager__items">
<li class="pager__item pager__item--next"><a href="${next}" title="Go to next page" rel="next"><span>Next page</span></a></li>
</ul></nav>`
  }
</div></main></body></html>`

const paged = <A>(items: ReadonlyArray<A>, url: URL, perPage: number) => {
  const page = Number(url.searchParams.get("page") ?? "0")
  const slice = items.slice(page * perPage, (page + 1) * perPage)
  const next = (page + 1) * perPage < items.length ? `?page=${page + 1}` : null
  return { slice, next }
}

const mediaLink = (media: number, label: string) =>
  `<a href="/media/${media}/download?inline" type="application/pdf">${escape(label)}</a>`

export const casesHtml = (state: SourcesState, url: URL) => {
  const { next, slice } = paged(state.cases, url, state.perPage)
  return viewsPage(
    "Export Violations",
    ["Case Number", "Respondent", "Date", "Documents"],
    slice.map((c) =>
      `<tr><td class="views-field views-field-field-case-number">${escape(c.caseNumber)}</td>` +
      `<td class="views-field views-field-title">${escape(c.respondent)}</td>` +
      `<td class="views-field views-field-field-date"><time datetime="${c.date}T12:00:00Z">${
        usDate(c.date)
      }</time></td>` +
      `<td class="views-field views-field-field-documents">${
        c.media === null ? "" : mediaLink(c.media, "Order")
      }</td></tr>`
    ),
    next
  )
}

export const lettersHtml = (state: SourcesState, url: URL) => {
  const { next, slice } = paged(state.letters, url, state.perPage)
  return viewsPage(
    "Charging Letters",
    ["Date", "Respondent", "Charging Letter"],
    slice.map((l) =>
      `<tr><td><time datetime="${l.date}T12:00:00Z">${usDate(l.date)}</time></td>` +
      `<td>${escape(l.respondent)}</td><td>${mediaLink(l.media, "Charging Letter")}</td></tr>`
    ),
    next
  )
}

const portalHtml = `<!DOCTYPE html><html><head><title>DDTC Public Portal</title>
<script data-description="NOW vars set by properties, custom events, g_* globals">
window.NOW = {}; window.g_ck = '${token}'; window.NOW.portal_id = "portal";
</script></head><body><sp-page-root></sp-page-root></body></html>`

const widgetAnswer = (state: SourcesState, page: number) => {
  const perPage = state.perPage
  const rows = state.agreements.slice((page - 1) * perPage, page * perPage)
  return {
    result: {
      data: {
        num_pages: Math.max(1, Math.ceil(state.agreements.length / perPage)),
        list: rows.map((a) => ({
          sys_id: a.sysId,
          year: { value: a.year, display_value: a.year },
          company: { value: a.company, display_value: a.company },
          description: {
            value: "Alleged unauthorized exports of defense articles (synthetic fixture).",
            display_value: ""
          },
          charging_letter: {
            value: `<a href="/sys_attachment.do?sys_id=${a.sysId.slice(0, 31)}1">Charging Letter</a>`
          },
          consent_agreement: {
            value: a.media === null
              ? ""
              : `<a href="/sys_attachment.do?sys_id=${
                a.sysId.slice(0, 31)
              }2&amp;media=${a.media}">Consent Agreement</a>`
          },
          order: { value: "" }
        }))
      }
    }
  }
}

const dojAnswer = (state: SourcesState, url: URL) => {
  const size = Number(url.searchParams.get("pagesize") ?? "50")
  const page = Number(url.searchParams.get("page") ?? "0")
  const sorted = [...state.releases].sort((a, b) => b.date - a.date)
  return {
    metadata: { resultset: { count: sorted.length, pagesize: size, page } },
    results: sorted.slice(page * size, (page + 1) * size).map((r) => ({
      uuid: r.uuid,
      title: r.title,
      url: `/opa/pr/${r.uuid.slice(0, 8)}`,
      body: r.body,
      date: String(r.date),
      created: String(r.date),
      component: [{ name: "National Security Division (NSD)" }]
    }))
  }
}

/** The fake's routes over `state`. */
export const sourcesRoute = (state: SourcesState): FakeRoute => async (request, url) => {
  if (state.delay > 0) await new Promise((resolve) => setTimeout(resolve, state.delay))
  const html = (build: () => string) => conditional(request, state.pageOverride ?? build(), "text/html; charset=utf-8")
  if (url.pathname === casesPath) return html(() => casesHtml(state, url))
  if (url.pathname === lettersPath) return html(() => lettersHtml(state, url))
  if (url.pathname === portalPath) {
    return {
      headers: { "content-type": "text/html", "set-cookie": "JSESSIONID=fake-session; Path=/; HttpOnly" },
      body: state.pageOverride ?? portalHtml
    }
  }
  if (url.pathname === widgetPath && request.method === "POST") {
    if (request.headers["x-usertoken"] !== token || !String(request.headers.cookie ?? "").includes("JSESSIONID")) {
      return { status: 401, body: "{\"error\":\"session\"}" }
    }
    const chunks: Array<Buffer> = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { p: number }
    return { headers: { "content-type": "application/json" }, body: JSON.stringify(widgetAnswer(state, body.p)) }
  }
  if (url.pathname === "/api/v1/press_releases.json") {
    return conditional(request, state.pageOverride ?? JSON.stringify(dojAnswer(state, url)), "application/json")
  }
  const media = /^\/media\/(\d+)\/download$/.exec(url.pathname)?.[1] ??
    (url.pathname === "/sys_attachment.do" ? url.searchParams.get("media") ?? undefined : undefined)
  if (media !== undefined) {
    const bytes = state.files.get(Number(media))
    return bytes === undefined ? { status: 404 } : { headers: { "content-type": "application/pdf" }, body: bytes }
  }
  return undefined
}
