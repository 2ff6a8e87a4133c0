/**
 * Examples of the enforcement answers shown by the OpenAPI document. Parties and cases are the
 * synthetic records of the test fixtures: an example never names a real party as sanctioned.
 */
const denialOrder = {
  id: "fr:2099-02000",
  agency: "BIS" as const,
  action_type: "denial_order" as const,
  party: "Synthetic Société Exportatrice SARL (Test Fixture)",
  title: "In the Matter of: Synthetic Société Exportatrice SARL (Test Fixture); Order Denying Export Privileges",
  date: "2099-04-02",
  statutes: ["Export Control Reform Act (ECRA)", "50 U.S.C. 4819", "15 CFR 766.25"],
  source_url:
    "https://www.federalregister.gov/documents/2099/04/02/2099-02000/in-the-matter-of-synthetic-societe-exportatrice",
  doc_url: "https://www.govinfo.gov/content/pkg/FR-2099-04-02/pdf/2099-02000.pdf"
}

export const feed = {
  actions: [denialOrder],
  count: 1,
  sources: [{
    id: "federal-register:bis",
    agency: "BIS" as const,
    description: "BIS orders and notices in the Federal Register (denial orders, temporary denial orders, " +
      "settlements, charging letters)",
    status: "ok" as const,
    actions: 1,
    scanned: 6,
    coverage_from: "2099-01-05",
    fetched_at: "2099-05-11T06:00:03.117Z"
  }]
}

const base = "https://ecds.example.org/api/enforcement/docs/bis-case%3AE0001"

const settlement = {
  id: "bis-case:E0001",
  agency: "BIS" as const,
  party: "Synthetic Widget Exporters GmbH",
  title: "Settlement Agreement and Order (Synthetic Test Case E0001)",
  date: "2099-02-10",
  parse_status: "parsed" as const,
  file_url: `${base}/file`,
  text_url: `${base}/text`,
  original_doc_url: "https://example.test/bis/cases/E0001.pdf",
  source_url: "https://example.test/bis/cases/E0001",
  pages: 2,
  text_chars: 398
}

export const documentText = "## SETTLEMENT AGREEMENT\n\nThis synthetic test agreement is made between the Bureau of " +
  "Industry and Security and Synthetic Widget Exporters GmbH. It describes no real case.\n\nThe respondent exported " +
  "thermal imaging cameras, classified under a made-up ECCN for this fixture, without the required license, in " +
  "violation of the Export Control Reform Act.\n"

export const documentList = {
  query: "thermal imaging",
  agency: null,
  count: 1,
  total: 1,
  documents: [{
    ...settlement,
    score: 0.0759,
    match_snippet:
      "The respondent exported **thermal imaging** cameras, classified under a made-up ECCN for this fixture"
  }]
}

export const documentRecord = {
  ...settlement,
  parse_reason: null,
  parse_attempts: 1,
  extracted: {
    parties: ["Synthetic Widget Exporters GmbH"],
    dates: ["2099-02-10"],
    statutes: ["Export Control Reform Act (ECRA)"],
    penalties: [],
    eccns: []
  }
}
