import { supportedParts } from "../Service.ts"

/**
 * Examples of the eCFR answers shown by the OpenAPI document, on 15 CFR part 740: headings and
 * receipt dates from the eCFR structure of title 15 as of 2025-12-18, the opening words of the real
 * § 740.1 (cut short), and the amendment and issue dates of the test fixtures (issue 2026-11-18).
 */
const issueDate = "2026-11-18"

const introduction = "In this part, references to the EAR are references to 15 CFR chapter VII, subchapter C."
const scope = "(a) Scope. A “License Exception” is an authorization contained in this part that allows you to " +
  "export or reexport under stated conditions, items subject to the Export Administration Regulations (EAR) that " +
  "would otherwise require a license …"

const section7401 = {
  identifier: "740.1",
  label: "§ 740.1 Introduction.",
  content: `${introduction}\n\n${scope}`
}

export const partTree = {
  identifier: "740",
  label: "Part 740—License Exceptions",
  label_level: "Part 740",
  label_description: "License Exceptions",
  type: "part",
  reserved: false,
  descendant_range: "740.1 – 740.29",
  children: [
    {
      identifier: "740.1",
      label: "§ 740.1 Introduction.",
      label_level: "§ 740.1",
      label_description: "Introduction.",
      type: "section",
      reserved: false,
      received_on: "2017-01-09T00:00:00-0500"
    },
    {
      identifier: "740.2",
      label: "§ 740.2 Restrictions on all License Exceptions.",
      label_level: "§ 740.2",
      label_description: "Restrictions on all License Exceptions.",
      type: "section",
      reserved: false,
      received_on: "2025-11-14T17:30:56-0500"
    }
  ]
}

export const sections = { part: 740, label: "License Exceptions", count: 1, sections: [section7401] }

export const versions = {
  part: 740,
  title: 15,
  label: "License Exceptions",
  latestAmendmentDate: "2026-11-14",
  count: 2,
  sections: [
    {
      identifier: "740.1",
      name: "§ 740.1 Introduction.",
      type: "section",
      amendmentDate: "2017-01-09",
      issueDate: "2017-01-09",
      substantive: true,
      removed: false
    },
    {
      identifier: "740.2",
      name: "§ 740.2 Restrictions on all License Exceptions.",
      type: "section",
      amendmentDate: "2026-11-14",
      issueDate,
      substantive: true,
      removed: false
    }
  ]
}

export const meta = {
  supportedParts: supportedParts.map(({ label, part, title }) => ({
    part,
    title,
    label,
    endpoint: `/api/ecfr/${part}`,
    search: `/api/ecfr/${part}/search`
  })),
  cache: {
    freshForSeconds: 3600,
    nextDailyRefresh: "2026-11-19T00:00:00.000Z",
    parts: [{
      part: 740,
      title: 15,
      state: "fresh" as const,
      loaded: true,
      refreshing: false,
      issueDate,
      fetchedAt: "2026-11-18T00:00:04.512Z",
      verifiedAt: "2026-11-18T09:12:40.087Z",
      lastFailure: null
    }]
  },
  refreshSchedule: "daily at 00:00 UTC (cron \"0 0 * * *\"): every part is downloaded again; " +
    "between runs a part is re-checked against the eCFR issue date on first use after 1 hour",
  source: "https://www.ecfr.gov"
}

const result = {
  type: "section",
  score: 41.5,
  part: 740,
  section: "740.1",
  sectionHeading: "Introduction.",
  partHeading: "License Exceptions",
  excerpt: "(a) Scope. A “<strong>License Exception</strong>” is an authorization contained in this part that " +
    "allows you to export or reexport under stated conditions, items subject to the …",
  startsOn: "2017-01-09",
  endsOn: null
}

const searchMeta = {
  page: 1,
  perPage: 10,
  totalCount: 1,
  totalPages: 1,
  nextCursor: null,
  engine: "ecfr" as const
}

export const partSearch = {
  part: 740,
  title: 15,
  label: "License Exceptions",
  query: "license exception",
  results: [result],
  meta: searchMeta,
  source: "https://www.ecfr.gov/api/search/v1/results"
}

export const titleSearch = {
  title: 15,
  query: "license exception",
  results: [result],
  meta: searchMeta,
  source: "https://www.ecfr.gov/api/search/v1/results"
}

export const sectionPlain = `${section7401.label}\n\n${section7401.content}\n`
export const sectionHtml =
  `<section class="cfr-section" data-citation="15 CFR 740.1">\n<h2>${section7401.label}</h2>\n` +
  `<p>${introduction}</p>\n<p>${scope.replace("(a) Scope.", "(a) <em>Scope.</em>")}</p>\n</section>\n`
