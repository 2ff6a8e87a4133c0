import { Effect } from "effect"
import type { EnforcementAction } from "../../domain/Enforcement.ts"
import type { EnforcementLakeShape } from "../EnforcementLake.ts"
import { UpstreamError } from "../Upstream.ts"
import type { UpstreamClient } from "../Upstream.ts"
import { bisChargingLetters } from "./collectors/BisPages.ts"
import { politeFetch } from "./collectors/Collector.ts"
import { type FeedSource, oldest } from "./FeedSource.ts"

/**
 * Two feed sources SPEC names beyond the Federal Register and DOJ: the BIS charging-letters page,
 * read live through the archive's own parser and cached about 24 hours, and the DDTC consent
 * agreements, read from the archive the weekly collection fills. Each fails on its own.
 */

export const chargingLettersSourceId = "bis:charging-letters"
export const consentAgreementsSourceId = "archive:ddtc-consent-agreements"

/** BIS charging letters, live from bis.gov (`charging_letter`); a letter without a date is examined and left out. */
export const bisChargingLettersFeed = (client: UpstreamClient, spacingMillis: number): FeedSource => {
  const collector = bisChargingLetters(client)
  return {
    id: chargingLettersSourceId,
    agency: "BIS",
    description: "BIS charging letters (bis.gov charging-letters page)",
    upstreamLabel: "The BIS charging-letters page",
    ttl: "24 hours",
    fetch: Effect.flatMap(politeFetch(client, {}, spacingMillis), (fetch) => collector.list(fetch)).pipe(
      Effect.mapError((failure) =>
        failure.upstream ?? new UpstreamError({ upstream: client.name, reason: "decode", detail: failure.reason })
      ),
      Effect.map((listing) => {
        const items = listing.items === "not_modified" ? [] : listing.items
        const actions = items.flatMap((item): Array<EnforcementAction> =>
          item.date === null ? [] : [{
            id: item.id,
            agency: "BIS",
            action_type: "charging_letter",
            party: item.party,
            title: item.title,
            date: item.date,
            statutes: [],
            source_url: item.sourceUrl ?? client.baseUrl,
            doc_url: item.fileUrl
          }]
        )
        return { actions, scanned: items.length, coverageFrom: oldest(actions.map((action) => action.date)) }
      })
    )
  }
}

const yearIn = (title: string) => /\((\d{4})\)\s*$/.exec(title)?.[1]

/**
 * DDTC consent agreements from the archive (`consent_agreement`). The portal gives a year, not a
 * date: an agreement is dated by the latest date its text states within that year, and left out
 * when it states none (it stays searchable in the archive).
 */
export const ddtcConsentAgreementsFeed = (lake: EnforcementLakeShape): FeedSource => ({
  id: consentAgreementsSourceId,
  agency: "DDTC",
  description: "DDTC consent agreements from the enforcement archive (collected weekly from the DDTC portal)",
  upstreamLabel: "The enforcement archive's DDTC collection",
  ttl: "1 hour",
  describe: (error) => `${error.detail}.`,
  fetch: Effect.flatMap(lake.catalog, (catalog) => {
    const agreements = catalog.documents.filter((document) =>
      document.id.startsWith("ddtc:") && /consent agreement/i.test(document.title)
    )
    if (agreements.length === 0) {
      return Effect.fail(
        new UpstreamError({
          upstream: "enforcement-archive",
          reason: "status",
          detail: "the archive holds no DDTC consent agreements yet (collection not configured or not run)"
        })
      )
    }
    const actions = agreements.flatMap((document): Array<EnforcementAction> => {
      const fields = catalog.fields.get(document.id)
      const year = yearIn(document.title)
      const date = document.date ??
        [...(fields?.dates ?? [])].filter((d) => year !== undefined && d.startsWith(year)).sort().at(-1) ?? null
      return date === null ? [] : [{
        id: document.id,
        agency: "DDTC",
        action_type: "consent_agreement",
        party: document.party,
        title: document.title,
        date,
        statutes: [...(fields?.statutes ?? [])],
        source_url: document.source_url ?? document.text_url ?? "",
        doc_url: document.file_url ?? document.original_doc_url
      }]
    })
    return Effect.succeed({
      actions,
      scanned: agreements.length,
      coverageFrom: oldest(actions.map((action) => action.date))
    })
  })
})
