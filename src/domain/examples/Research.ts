/**
 * Examples of the research and radar answers shown by the OpenAPI document. The Federal Register
 * document is the real AI Diffusion interim final rule (FR Doc 2025-00636, 90 FR 4544) that the
 * dated-facts module cites; the SEC EDGAR and regulations.gov hits are the synthetic records of the
 * test fixtures, because no real filing or docket is recorded anywhere in the project.
 */
const aiDiffusion = {
  document_number: "2025-00636",
  title: "Framework for Artificial Intelligence Diffusion",
  type: "Rule",
  abstract: null,
  agencies: ["Commerce Department", "Industry and Security Bureau"],
  publication_date: "2025-01-15",
  effective_on: "2025-01-13",
  citation: "90 FR 4544",
  html_url:
    "https://www.federalregister.gov/documents/2025/01/15/2025-00636/framework-for-artificial-intelligence-diffusion",
  pdf_url: "https://www.govinfo.gov/content/pkg/FR-2025-01-15/pdf/2025-00636.pdf"
}

const federalRegisterSource = "https://www.federalregister.gov/api/v1/documents.json"

/** The opening of the document's text (the example stops there; `body_chars` counts what is shown). */
const aiDiffusionOpening = "DEPARTMENT OF COMMERCE\n\nBureau of Industry and Security\n\nFramework for Artificial " +
  "Intelligence Diffusion\n\nAGENCY: Bureau of Industry and Security, Commerce.\n\nACTION: Interim final rule; " +
  "request for comments.\n\n…"

export const federalRegisterSearch = {
  query: "artificial intelligence diffusion",
  count: 1,
  total: 1,
  results: [aiDiffusion],
  source: federalRegisterSource
}

export const federalRegisterDocument = {
  document_number: "2025-00636",
  document: {
    ...aiDiffusion,
    action: "Interim final rule; request for comments.",
    dates: null,
    docket_ids: [],
    cfr_references: [{ title: 15, part: 740 }, { title: 15, part: 774 }],
    body: aiDiffusionOpening,
    body_chars: aiDiffusionOpening.length,
    body_truncated: false,
    body_source_url: "https://www.federalregister.gov/documents/full_text/text/2025/01/15/2025-00636.txt"
  },
  source: federalRegisterSource
}

export const radar = {
  topic: "ai" as const,
  query: {
    agencies: ["industry-and-security-bureau"],
    types: ["RULE", "PRORULE", "NOTICE"],
    term: "\"artificial intelligence\""
  },
  count: 1,
  results: [{
    documentNumber: aiDiffusion.document_number,
    title: aiDiffusion.title,
    type: aiDiffusion.type,
    agencies: aiDiffusion.agencies,
    publicationDate: aiDiffusion.publication_date,
    effectiveOn: aiDiffusion.effective_on,
    abstract: null,
    citation: aiDiffusion.citation,
    htmlUrl: aiDiffusion.html_url,
    pdfUrl: aiDiffusion.pdf_url,
    eccns: [],
    cfrParts: ["15 CFR 740", "15 CFR 774"]
  }],
  source: "Federal Register API (federalregister.gov)",
  fetchedAt: "2026-11-18T09:00:12.408Z",
  stale: false
}

export const cfrSearch = {
  query: "commercial invoice",
  title: 15,
  count: 1,
  total: 1,
  results: [{
    type: "section" as const,
    title: 15,
    part: "758",
    section: "758.6",
    appendix: null,
    heading: "Destination control statement and other information furnished to consignees.",
    part_heading: "Export Clearance Requirements and Authorities",
    excerpt: "(a) The exporter must incorporate the following information as an integral part of the " +
      "<strong>commercial</strong> <strong>invoice</strong> whenever items on the Commerce Control List are shipped …",
    score: 42.5,
    starts_on: null,
    url: "https://www.ecfr.gov/current/title-15/section-758.6"
  }],
  source: "https://www.ecfr.gov/api/search/v1/results"
}

export const govinfoSearch = {
  query: "commerce control list",
  collection: "CFR",
  count: 1,
  total: 1,
  results: [{
    title: "Part 774 - The Commerce Control List",
    package_id: "CFR-2025-title15-vol2",
    granule_id: "CFR-2025-title15-vol2-part774",
    collection: "CFR",
    date_issued: "2025-01-01",
    last_modified: null,
    government_author: [],
    details_url: "https://www.govinfo.gov/app/details/CFR-2025-title15-vol2/CFR-2025-title15-vol2-part774"
  }],
  source: "https://api.govinfo.gov/search",
  configured: true
}

export const secEdgarSearch = {
  query: "export controls",
  count: 1,
  total: 2,
  results: [{
    accession_number: "0009999999-99-000123",
    form: "8-K",
    file_date: "2099-01-15",
    period_ending: "2098-12-31",
    companies: ["Example Synthetic Holdings Inc  (EXSY)  (CIK 0009999999)"],
    ciks: ["0009999999"],
    description: "PRESS RELEASE (SYNTHETIC TEST FIXTURE)",
    document_url: "https://www.sec.gov/Archives/edgar/data/9999999/000999999999000123/ex991.htm",
    filing_index_url:
      "https://www.sec.gov/Archives/edgar/data/9999999/000999999999000123/0009999999-99-000123-index.htm"
  }],
  source: "https://efts.sec.gov/LATEST/search-index",
  configured: true
}

export const regulationsSearch = {
  query: "widgets",
  count: 1,
  total: 1,
  results: [{
    id: "BIS-2099-0001-0001",
    title: "Synthetic Widgets: Proposed Controls (Test Fixture)",
    agencyId: "BIS",
    documentType: "Proposed Rule",
    frDocNum: "2099-00321",
    docketId: "BIS-2099-0001",
    postedDate: "2099-01-09T05:00:00Z",
    commentEndDate: "2099-03-10T04:59:59Z",
    openForComment: true,
    url: "https://www.regulations.gov/document/BIS-2099-0001-0001"
  }],
  source: "https://api.regulations.gov/v4/documents",
  configured: true
}
