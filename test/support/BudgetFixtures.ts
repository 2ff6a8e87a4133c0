import { readFileSync } from "node:fs"
import { syntheticDocuments } from "./EcfrSynthetic.ts"
import type { FakeRoute } from "./FakeUpstream.ts"

/**
 * Upstream answers far larger than one MCP result may be, for the result-budget tests: a CCL entry
 * with hundreds of item paragraphs, Federal Register and DOJ feeds of hundreds of long documents,
 * a rule body of 150,000 characters, and daily issues a citation is resolved through.
 */
const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), "utf8")
const json = (body: unknown) => ({
  headers: { "content-type": "application/json; charset=utf-8" },
  body: JSON.stringify(body)
})

/** A sentence that differs per index, so paragraphs are not one repeated string. */
export const sentence = (index: number) =>
  `Synthetic test parameter ${index}: a measured value of ${(index * 37) % 1000} units at ${index % 17} kelvin, ` +
  `specified for budget tests only and describing no real item.`

/** Part 774 with 3A001 grown by a paragraph y holding 300 subparagraphs (about 60,000 characters). */
export const bigCclXml = (): string => {
  const xml = fixture("ccl/part-774.xml")
  const entry = xml.indexOf("3A001 Electronic")
  const items = xml.indexOf("<FP-1><I>Items:</I></FP-1>", entry)
  const insertAt = items + "<FP-1><I>Items:</I></FP-1>".length
  const extra = ["<P>y. Synthetic test items, as follows:</P>"]
  for (let n = 1; n <= 300; n++) extra.push(`<P>y.${n}. ${sentence(n)}</P>`)
  return `${xml.slice(0, insertAt)}\n${extra.join("\n")}${xml.slice(insertAt)}`
}

/** A passage of 3A001 as the eCFR search excerpts it (escaped, the match in strong, an ellipsis between). */
export const cclExcerpt = "Integrated circuits designed or rated as <strong>radiation</strong> hardened to withstand " +
  "any of the following<span class=\"elipsis\">…</span>"

/** Routes of the fake eCFR for part 774: the big CCL, and a search hit inside 3A001. */
export const bigCclRoutes = (): FakeRoute => {
  const xml = bigCclXml()
  const { structure, versions } = syntheticDocuments(774)
  return (_request, url) => {
    if (url.pathname === "/api/search/v1/results" && url.searchParams.get("hierarchy[part]") === "774") {
      return json({
        results: [{
          starts_on: "2026-01-01",
          ends_on: null,
          type: "Appendix",
          hierarchy: { title: "15", part: "774", section: null, appendix: "Supplement No. 1 to Part 774" },
          hierarchy_headings: { title: "Title 15", part: "Part 774", section: null, appendix: "Supplement No. 1" },
          headings: { title: "Commerce and Foreign Trade", part: "The Commerce Control List", appendix: "CCL" },
          full_text_excerpt: cclExcerpt,
          score: 12,
          structure_index: 1,
          reserved: false,
          removed: false,
          change_types: ["effective"]
        }],
        meta: { current_page: 1, total_pages: 1, total_count: 1, description: "Sections matching radiation" }
      })
    }
    if (url.searchParams.get("part") !== "774") return undefined
    if (url.pathname.includes("/full/")) return { headers: { "content-type": "application/xml" }, body: xml }
    if (url.pathname.includes("/structure/")) {
      return { headers: { "content-type": "application/json" }, body: structure }
    }
    if (url.pathname.includes("/versions/")) return { headers: { "content-type": "application/json" }, body: versions }
    return undefined
  }
}

const longAbstract = (n: number) => Array.from({ length: 6 }, (_, k) => sentence(n * 10 + k)).join(" ")

/** A Federal Register document of the synthetic feeds. */
const frDocument = (n: number, title: string) => ({
  document_number: `2099-${String(10_000 + n)}`,
  title: `${title} (synthetic ${n})`,
  type: "Notice",
  abstract: longAbstract(n),
  action: "Notice.",
  agencies: [{ raw_name: "Bureau of Industry and Security", name: "Industry and Security Bureau" }],
  publication_date: `2099-0${1 + (n % 9)}-1${n % 10}`,
  effective_on: null,
  citation: `164 FR ${1000 + n}`,
  html_url: `https://www.federalregister.gov/documents/2099/01/01/2099-${10_000 + n}/synthetic`,
  pdf_url: null
})

/** Every Federal Register search: 200 long documents, denial orders and rules naming 3A090. */
export const bigFederalRegisterSearch = () =>
  json({
    count: 200,
    total_pages: 1,
    results: Array.from({ length: 200 }, (_, n) =>
      frDocument(n, n % 2 === 0 ? "Order Temporarily Denying Export Privileges" : "Rule amending ECCN 3A090"))
  })

/** DOJ press releases: 200 long synthetic releases. */
export const bigDojReleases = () => {
  const base = JSON.parse(fixture("enforcement/doj-press-releases.json"))
  const template = base.results[0]
  return json({
    ...base,
    results: Array.from({ length: 200 }, (_, n) => ({
      ...template,
      uuid: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
      title: `Synthetic defendant ${n} sentenced for export violations`,
      body: `<p>${longAbstract(n)}</p>`
    }))
  })
}

/** Volume 90 is 2025: each weekday's issue has pages 200·d+1 … 200·d+200 in two documents. */
export const issueOf = (day: string) => {
  const date = new Date(`${day}T00:00:00Z`)
  const weekday = date.getUTCDay()
  if (date.getUTCFullYear() !== 2025 || weekday === 0 || weekday === 6) return []
  const dayOfYear = (date.getTime() - Date.UTC(2025, 0, 1)) / 86_400_000
  const first = 200 * dayOfYear + 1
  return [
    { document_number: `2025-${10_000 + dayOfYear * 10 + 1}`, start_page: first, end_page: first + 99 },
    { document_number: `2025-${10_000 + dayOfYear * 10 + 2}`, start_page: first + 100, end_page: first + 199 }
  ]
}

/** A long rule body: 150,000 characters of distinct lines. */
export const longBody = Array.from({ length: 1_200 }, (_, n) => sentence(n)).join("\n")

/** The Federal Register API: searches, daily issues, any document by number (with a long body). */
export const federalRegisterRoutes = (baseUrl: () => string): FakeRoute => (_request, url) => {
  if (url.pathname === "/api/v1/documents.json") {
    const day = url.searchParams.get("conditions[publication_date][is]")
    if (day !== null) return json({ count: issueOf(day).length, results: issueOf(day) })
    return bigFederalRegisterSearch()
  }
  const document = /^\/api\/v1\/documents\/([0-9A-Z-]+)\.json$/.exec(url.pathname)
  if (document !== null) {
    const number = document[1]!
    return json({
      ...frDocument(7, "Rule amending ECCN 3A090"),
      document_number: number,
      dates: "Effective 2025-08-25.",
      cfr_references: [{ title: 15, part: 774 }, { title: 15, part: 744 }],
      raw_text_url: `${baseUrl()}/documents/full_text/text/${number}.txt`
    })
  }
  if (url.pathname.startsWith("/documents/full_text/text/")) return { body: longBody }
  if (url.pathname === "/api/v1/press_releases.json") return bigDojReleases()
  return undefined
}
