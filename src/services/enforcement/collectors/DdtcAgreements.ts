import { Effect, Either, Schema } from "effect"
import type { UpstreamClient } from "../../Upstream.ts"
import { absolute, CollectFailed, type Collector, type ListedItem } from "./Collector.ts"

/**
 * DDTC consent agreements from the DDTC public portal (a ServiceNow service portal). The page
 * "Penalties and Oversight Agreements" renders a table widget whose rows the portal serves as
 * JSON to a POST carrying the session token the page sets (`window.g_ck`): per row a 32-hex
 * `sys_id` and `{ value }` fields `year`, `company`, `description`, `charging_letter`,
 * `consent_agreement` and `order` (the last three HTML links to attachments). This shape is what
 * public crawlers of the portal read; the exact widget path could not be confirmed from here and
 * is configurable. The consent agreement is the document's file; the other attachments' links are
 * kept in its text. Anything else in the answer is a failed collection with the reason.
 */
export const pagePath = "/ddtc_public/ddtc_public?id=ddtc_kb_article_page&sys_id=384b968adb3cd30044f9ff621f961941"
export const widgetPath = "/api/now/sp/widget/dbd0af311b58b450055b9796bc4bcb2d"

const maxPages = 40

const Value = Schema.Struct({ value: Schema.NullOr(Schema.String) })
const Row = Schema.Struct({
  sys_id: Schema.String,
  year: Schema.optional(Value),
  company: Value,
  description: Schema.optional(Value),
  charging_letter: Schema.optional(Value),
  consent_agreement: Schema.optional(Value),
  order: Schema.optional(Value)
})
const Answer = Schema.Struct({
  result: Schema.Struct({
    data: Schema.Struct({ num_pages: Schema.Number, list: Schema.Array(Schema.Unknown) })
  })
})
const decodeAnswer = Schema.decodeUnknownEither(Answer)
const decodeRow = Schema.decodeUnknownEither(Row)

const linkOf = (client: UpstreamClient, html: string | null | undefined) => {
  if (html == null || html.trim() === "") return null
  const href = /href\s*=\s*["']([^"']+)["']/i.exec(html)?.[1] ?? (/^https?:\/\//.test(html.trim()) ? html.trim() : null)
  return href === null ? null : absolute(client, href.replace(/&amp;/g, "&"))
}

const tokenOf = (html: string) => /window\.g_ck\s*=\s*['"]([A-Za-z0-9]+)['"]/.exec(html)?.[1]

export const ddtcAgreements = (
  client: UpstreamClient,
  paths: { readonly page: string; readonly widget: string } = { page: pagePath, widget: widgetPath }
): Collector => ({
  id: "ddtc-consent-agreements",
  agency: "DDTC",
  description: "DDTC consent agreements and their attachments (DDTC public portal, penalties and oversight agreements)",
  every: "7 days",
  complete: true,
  client,
  list: (fetch) =>
    Effect.gen(function*() {
      // the session token changes per visit: never a conditional request
      const page = yield* fetch.page(paths.page, { conditional: false })
      if (page === undefined) {
        return yield* new CollectFailed({ reason: `${client.name}: the portal page answered 304` })
      }
      const token = tokenOf(page.body)
      if (token === undefined) {
        return yield* new CollectFailed({
          reason: `${client.name}: the portal page sets no session token (window.g_ck); its structure changed`
        })
      }
      const cookie = (page.headers["set-cookie"] ?? "").split(/,(?=\s*[A-Za-z0-9_-]+=)/)
        .map((part) => part.split(";")[0]!.trim()).filter((part) => part.includes("=")).join("; ")
      const items: Array<ListedItem> = []
      let skipped = 0
      let pages = 1
      for (let number = 1; number <= Math.min(pages, maxPages); number++) {
        const json = yield* fetch.postJson(paths.widget, {
          p: number,
          table: "x_usd10_ddtc_publi_ddtc_public_penalty_and_oversight",
          field_list: "year,company,description,charging_letter,consent_agreement,order",
          o: "year",
          d: "DESC"
        }, { "x-usertoken": token, ...(cookie === "" ? {} : { cookie }) })
        const answer = decodeAnswer(json)
        if (Either.isLeft(answer)) {
          return yield* new CollectFailed({
            reason: `${client.name}: the table widget answered without result.data.list and num_pages`
          })
        }
        pages = answer.right.result.data.num_pages
        for (const raw of answer.right.result.data.list) {
          const decoded = decodeRow(raw)
          const row = Either.isRight(decoded) ? decoded.right : undefined
          const company = row?.company.value?.trim() ?? ""
          if (row === undefined || !/^[0-9a-f]{32}$/.test(row.sys_id) || company === "") {
            skipped++
            continue
          }
          const year = row.year?.value?.trim() ?? ""
          const attachments = [
            ["Charging letter", linkOf(client, row.charging_letter?.value)],
            ["Order", linkOf(client, row.order?.value)]
          ].filter((entry): entry is [string, string] => entry[1] !== null)
          const description = row.description?.value?.trim() ?? ""
          items.push({
            id: `ddtc:${row.sys_id}`,
            agency: "DDTC",
            title: `Consent agreement: ${company}${/^\d{4}$/.test(year) ? ` (${year})` : ""}`,
            party: company,
            date: null,
            sourceUrl: absolute(client, paths.page),
            fileUrl: linkOf(client, row.consent_agreement?.value),
            text: [description, ...attachments.map(([label, url]) => `${label}: ${url}`)].join("\n").trim() || null
          })
        }
      }
      if (items.length === 0 && skipped > 0) {
        return yield* new CollectFailed({ reason: `${client.name}: none of the ${skipped} rows could be read` })
      }
      return { items, skipped }
    })
})
