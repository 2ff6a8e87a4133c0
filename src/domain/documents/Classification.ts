import { documentControl, signatory, versionHistory } from "./Common.ts"
import { defineContract, part, section } from "./Contract.ts"
import { Flag, LicenseNeed, RedFlag, Risk, ScreeningResult, StepOutcome } from "./Enums.ts"
import { choice, column, date, html, prose, table, text } from "./Fields.ts"

/** The six steps of the CCL order of review (Supplement No. 4 to 15 CFR Part 774), as the memo walks them. */
const steps = [
  ["Jurisdiction — USML review and “subject to the EAR”", "22 CFR 121.1; 15 CFR 734.3"],
  ["“600 series” review", "15 CFR Part 774, Supp. No. 4 (a)(2)"],
  ["“9x515” review", "15 CFR Part 774, Supp. No. 4 (a)(3)"],
  ["Remaining CCL entries — most specific ECCN", "15 CFR Part 774, Supp. No. 4 (a)(4)"],
  ["“Specially designed” and catch-all paragraphs", "15 CFR 772.1 “specially designed”"],
  ["Final classification or EAR99", "15 CFR 734.3(c); 15 CFR Part 774, Supp. No. 4 (a)(6)"]
] as const

const stepPart = (index: number) => {
  const n = index + 1
  const [title, citation] = steps[index]!
  return part(`Step ${n} — ${title}`, {
    [`STEP${n}_OUTCOME`]: choice(`Step ${n} outcome`, StepOutcome, "outcome-not-described"),
    [`STEP${n}_FINDING`]: text(`Step ${n} finding`, "One line: what this step concluded"),
    [`STEP${n}_CITATIONS`]: text(`Step ${n} citations`, citation),
    [`STEP${n}_ANALYSIS`]: html(`Step ${n} analysis`, "<p>Parameters compared against the control text.</p>"),
    [`STEP${n}_EVIDENCE`]: prose(`Step ${n} evidence`, "Datasheets, drawings or statements relied on")
  })
}

const risk = (label: string) => choice(label, Risk, "risk-low")

const redFlag = (label: string) => choice(label, RedFlag, "flag-no")

export const Classification = defineContract({
  slug: "classification",
  title: "Export Classification Memorandum",
  version: "1.0.0",
  description: "Jurisdiction and ECCN determination for one item, walked through the CCL order of review, with " +
    "software/encryption, technology, license, screening and red-flag analysis and reviewer certification.",
  presentation: {
    layout: "report",
    documentType: "Export Classification Memorandum",
    subjectKey: "ITEM_NAME_MODEL",
    coverFacts: ["FINAL_JURISDICTION", "FINAL_ECCN", "FINAL_REASONS_FOR_CONTROL", "OVERALL_RISK"],
    authorKey: "FROM_NAME_TITLE",
    statusKey: "OVERALL_RISK"
  },
  authoringNotes: [
    "Only public, non-classified information: never put CUI, classified or ITAR technical data in a payload.",
    "Dates are YYYY-MM-DD. Table keys take arrays of row objects; every row key is optional unless listed in the " +
    "column's description.",
    "raw_html_fields accept p, br, strong/b, em/i, u, ul/ol/li, a (http, https, mailto), and simple tables; " +
    "anything else (scripts, styles, images, event handlers, external resources) is dropped and counted in " +
    "X-Render-Warnings.",
    "Walk the six steps of the order of review in order; a step that does not apply still needs an outcome " +
    "(outcome-not-applicable) and a one-line finding, so reviewers see it was considered.",
    "ENC_* keys are rendered only when ENC_PRESENT is flag-yes; otherwise the memo states that the item " +
    "performs no cryptographic function.",
    "Cite the eCFR date the analysis relied on in REGULATORY_CURRENCY_AS_OF (GET /api/ecfr/meta gives it).",
    "Screening results are for human adjudication: record the adjudication in SCREEN_ADJUDICATION.",
    "The memorandum is not legal advice; approval belongs to the people named in the certification section."
  ],
  sections: [
    section("control", "Document control", {
      ...documentControl({ docNumber: "ECM-2026-0142" }),
      BUSINESS_UNIT: text("Business unit", "Network Security Products"),
      FROM_NAME_TITLE: text("From", "Jane Doe, Senior Trade Compliance Analyst", { required: true }),
      TO_NAME_TITLE: text("To", "John Roe, Empowered Official"),
      CC_LIST: text("Copies to", "Product Line Management; Legal"),
      SUBJECT: text("Subject", "Export classification of the Sentinel 4200 VPN gateway"),
      REQUEST_REFERENCE: text("Request reference", "TC-REQ-2026-311"),
      RETENTION_PERIOD: text("Retention", "Five years from the latest export (15 CFR 762.6)"),
      RECORD_LOCATION: text("Record location", "Trade compliance records system, classification library"),
      NEXT_REVIEW_DATE: date("Next review", "2027-11-20")
    }),
    section("summary", "Executive summary", {
      ITEM_NAME_MODEL: text("Item", "Sentinel 4200 VPN gateway (model NW-S4200)", { required: true }),
      FINAL_JURISDICTION: text("Jurisdiction", "EAR (Department of Commerce)", { required: true }),
      FINAL_ECCN: text("ECCN", "5A002.a.1", { required: true }),
      FINAL_REASONS_FOR_CONTROL: text("Reasons for control", "NS1, AT1, EI"),
      FINAL_CLASSIFICATION_BASIS: text("Basis", "Self-classification under 15 CFR 740.17(b)(1)"),
      CCATS_NUMBER: text("CCATS", "G123456 (if BIS issued one)"),
      OVERALL_RISK: risk("Overall risk"),
      RISK_JURISDICTION: risk("Jurisdiction risk"),
      RISK_CLASSIFICATION: risk("Classification risk"),
      RISK_DESTINATION: risk("Destination risk"),
      RISK_END_USE: risk("End-use risk"),
      RISK_PARTIES: risk("Party risk"),
      EXECUTIVE_SUMMARY: html("Summary", "<p>The item is subject to the EAR and classified 5A002.a.1 …</p>"),
      KEY_FINDINGS: table("Key findings", {
        FINDING: column("Finding", "Primary function is information security", { width: 3, required: true }),
        REFERENCE: column("Reference", "15 CFR 774, 5A002.a.1")
      }),
      RECOMMENDED_ACTIONS: table("Recommended actions", {
        ACTION: column("Action", "File the annual self-classification report", { width: 3, required: true }),
        OWNER: column("Owner", "Trade Compliance"),
        DUE: column("Due", "2027-02-01")
      })
    }, { graphic: "risk-summary" }),
    section("purpose", "Purpose and scope", {
      PURPOSE: html("Purpose", "<p>Document the export jurisdiction and classification of …</p>"),
      SCOPE: html("Scope", "<p>Covers hardware revisions A–C and firmware 4.x …</p>"),
      SCOPE_EXCLUSIONS: prose("Out of scope", "Accessories sold separately; the cloud management service"),
      BACKGROUND: html("Background", "<p>Why the review was requested …</p>"),
      PRIOR_CLASSIFICATIONS: table("Prior classifications", {
        ITEM: column("Item", "Sentinel 3100", { width: 2 }),
        ECCN: column("ECCN", "5A002.a.1"),
        DATE: column("Date", "2024-03-02"),
        REFERENCE: column("Reference", "ECM-2024-0031", { width: 1.5 })
      })
    }),
    section("item", "Item description and specifications", {
      ITEM_MANUFACTURER: text("Manufacturer", "Northwind Secure Systems, Inc."),
      ITEM_PART_NUMBERS: text("Part numbers", "NW-S4200-A, NW-S4200-B"),
      ITEM_PRODUCT_FAMILY: text("Product family", "Sentinel gateways"),
      ITEM_TYPE: text("Item type", "Commodity with embedded firmware"),
      ITEM_COUNTRY_OF_ORIGIN: text("Country of origin", "United States"),
      ITEM_DEVELOPMENT_LOCATION: text("Developed in", "Boston, MA, USA"),
      ITEM_SCHEDULE_B: text("Schedule B", "8517.62.0090"),
      ITEM_MARKETS: text("Markets", "Enterprise and utility networks"),
      ITEM_DESCRIPTION: html("Description", "<p>Rack-mounted gateway that …</p>"),
      ITEM_PRIMARY_FUNCTION: prose("Primary function", "Protect network traffic between sites (IPsec VPN)"),
      ITEM_END_USES: prose("Intended end uses", "Site-to-site links of commercial enterprises"),
      ITEM_DEVELOPMENT_HISTORY: prose(
        "Development history",
        "Developed with company funds; no government or defense contract"
      ),
      ITEM_FOREIGN_CONTENT: prose("Foreign content", "No controlled foreign content; de minimis not relevant"),
      ITEM_SPECIFICATIONS: table("Technical specifications", {
        PARAMETER: column("Parameter", "Aggregate encrypted throughput", { width: 2.2, required: true }),
        VALUE: column("Value", "40"),
        UNIT: column("Unit", "Gbit/s", { width: 0.8 }),
        SOURCE: column("Source", "Datasheet rev. C, p. 2", { width: 1.6 })
      }),
      ITEM_COMPONENTS: table("Relevant components", {
        COMPONENT: column("Component", "Crypto accelerator ASIC", { width: 2, required: true }),
        SUPPLIER: column("Supplier", "Example Semiconductor"),
        ECCN: column("ECCN", "5A002.a.1"),
        NOTES: column("Notes", "Supplier classification letter 2025-06", { width: 2 })
      })
    }),
    section("method", "Methodology and sources", {
      METHODOLOGY: html("Approach", "<p>The review followed the order of review in Supplement No. 4 …</p>"),
      METHOD_SOURCES: table("Regulatory sources", {
        SOURCE: column("Source", "Commerce Control List", { width: 2, required: true }),
        CITATION: column("Citation", "15 CFR Part 774, Supp. No. 1", { width: 2 }),
        VERSION_DATE: column("Version", "eCFR 2026-11-18")
      }),
      METHOD_DOCUMENTS_REVIEWED: table("Documents reviewed", {
        DOCUMENT: column("Document", "Product datasheet", { width: 2.5, required: true }),
        REVISION: column("Revision", "C"),
        DATE: column("Date", "2026-09-01")
      }),
      METHOD_INTERVIEWS: table("Engineering consultations", {
        NAME_ROLE: column("Name and role", "A. Smith, Principal Engineer", { width: 2, required: true }),
        TOPIC: column("Topic", "Cryptographic functions", { width: 2 }),
        DATE: column("Date", "2026-10-14")
      }),
      METHOD_ASSUMPTIONS: prose("Assumptions", "Firmware 4.x is shipped as released; no customer modifications"),
      METHOD_LIMITATIONS: prose("Limitations", "Based on engineering documents available on the date above")
    }),
    {
      id: "review",
      title: "Order of review",
      graphic: "review-flow",
      parts: steps.map((_, index) => stepPart(index))
    },
    {
      id: "software",
      title: "Software and encryption",
      parts: [
        part("Encryption functionality", {
          ENC_PRESENT: choice("Cryptographic functionality", Flag, "flag-yes"),
          ENC_PRIMARY_FUNCTION: text("Primary function is information security", "Yes — IPsec VPN"),
          ENC_DATA_CONFIDENTIALITY: choice("Cryptography for data confidentiality", Flag, "flag-yes"),
          ENC_EXCLUSIONS: text("Decontrol notes considered", "Note 3 (mass market) — not met"),
          ENC_NOTE3_MASS_MARKET: choice("Mass market (Note 3 to Cat. 5 Part 2)", Flag, "flag-no"),
          ENC_OPEN_CRYPTO_INTERFACE: choice("Open cryptographic interface", Flag, "flag-no"),
          ENC_740_17_PARAGRAPH: text("License Exception ENC paragraph", "740.17(b)(1)"),
          ENC_CLASSIFICATION_REQUEST: text("Classification request", "Not required for (b)(1)"),
          ENC_SELF_CLASSIFICATION_REPORT: text("Self-classification report", "Include in February report"),
          ENC_FUNCTIONS: prose("Cryptographic functions", "IPsec tunnels, TLS management plane, secure boot"),
          ENC_ALGORITHMS: table("Algorithms", {
            ALGORITHM: column("Algorithm", "AES-GCM", { required: true }),
            KEY_LENGTH: column("Key length", "256 bits"),
            PURPOSE: column("Purpose", "Data confidentiality", { width: 1.6 }),
            IMPLEMENTATION: column("Implementation", "ASIC and OpenSSL 3.0", { width: 1.6 })
          }),
          ENC_ANALYSIS: html("Encryption analysis", "<p>The item implements …</p>")
        }, {
          key: "ENC_PRESENT",
          equals: "flag-yes",
          otherwise: "The item performs no cryptographic function; Category 5, Part 2 does not apply."
        }),
        part("Software", {
          SW_NAME_VERSION: text("Software and version", "SentinelOS 4.2"),
          SW_DELIVERY: text("Delivery form", "Object code, pre-installed firmware and signed updates"),
          SW_SOURCE_CODE_RELEASED: choice("Source code released", Flag, "flag-no"),
          SW_PUBLICLY_AVAILABLE: choice("Published (15 CFR 734.7)", Flag, "flag-no"),
          SW_ECCN: text("Software ECCN", "5D002.c.1"),
          SW_ANALYSIS: html("Software analysis", "<p>The firmware is “specially designed” for …</p>")
        })
      ]
    },
    section("technology", "Technology and technical data", {
      TECH_PRESENT: choice("Technology within scope", Flag, "flag-yes"),
      TECH_ECCN: text("Technology ECCN", "5E002.a"),
      TECH_PUBLISHED: choice("Published (15 CFR 734.7)", Flag, "flag-no"),
      TECH_FUNDAMENTAL_RESEARCH: choice("Fundamental research (15 CFR 734.8)", Flag, "flag-na"),
      TECH_DEEMED_EXPORT: choice("Deemed exports possible", Flag, "flag-yes"),
      TECH_CONTROL_PLAN: text("Technology control plan", "TCP-2025-004"),
      TECH_DESCRIPTION: prose("Technology description", "Development and production technology for the ASIC"),
      TECH_RELEASES: table("Releases of technology", {
        RECIPIENT_ROLE: column("Recipient role", "Firmware engineer", { width: 1.6, required: true }),
        NATIONALITY: column("Nationality", "India"),
        TECHNOLOGY: column("Technology", "Source code, crypto module", { width: 1.8 }),
        AUTHORIZATION: column("Authorization", "License Exception ENC 740.17(b)(1)", { width: 1.8 })
      }),
      TECH_ANALYSIS: html("Technology analysis", "<p>Technology for the development of …</p>")
    }),
    section("license", "License determination", {
      LICENSE_REASONS_FOR_CONTROL: text("Reasons for control", "NS1, AT1, EI"),
      LICENSE_COUNTRY_CHART_COLUMNS: text("Country Chart columns", "NS1, AT1"),
      LICENSE_DESTINATIONS: table("Destinations", {
        COUNTRY: column("Destination", "Germany", { width: 1.4, required: true }),
        COUNTRY_GROUPS: column("Country groups", "A:1, A:5, B"),
        DETERMINATION: column("Determination", "license-exception", { choice: LicenseNeed, width: 1.4 }),
        BASIS: column("Basis", "NS1 license requirement", { width: 1.6 }),
        EXCEPTION: column("Authorization", "ENC 740.17(b)(1)", { width: 1.4 })
      }),
      LICENSE_EXCEPTIONS: table("License exceptions considered", {
        EXCEPTION: column("Exception", "ENC", { required: true }),
        CITATION: column("Citation", "15 CFR 740.17(b)(1)", { width: 1.4 }),
        ELIGIBLE: column("Eligible", "flag-yes", { choice: Flag }),
        CONDITIONS: column("Conditions", "Annual self-classification report", { width: 2.4 })
      }),
      LICENSE_END_USE_CONTROLS: prose("End-use and end-user controls", "Part 744 controls reviewed …"),
      LICENSE_EMBARGO_SANCTIONS: prose("Embargoes and sanctions", "Part 746 destinations excluded …"),
      LICENSE_DE_MINIMIS: prose("De minimis", "Not applicable: the item is of U.S. origin"),
      LICENSE_FDP_RULE: prose("Foreign direct product rules", "Not applicable"),
      LICENSE_REQUIRED_SUMMARY: prose("Summary", "No license required for country group A:5 …"),
      LICENSE_CONDITIONS: prose("Conditions and provisos", "Reporting under 740.17(e)"),
      LICENSE_RECORDKEEPING: prose("Recordkeeping", "Keep this memorandum for five years (15 CFR Part 762)"),
      LICENSE_ANALYSIS: html("License analysis", "<p>For each destination …</p>")
    }),
    section("screening", "Restricted-party screening", {
      SCREEN_DATE: date("Screening date", "2026-11-19"),
      SCREEN_TOOL: text("Tool", "Consolidated Screening List search"),
      SCREEN_LISTS: text("Lists searched", "Entity List, DPL, UVL, MEU, SDN, DTC debarred"),
      SCREEN_PARTIES: table("Parties screened", {
        PARTY: column("Party", "Example GmbH", { width: 1.8, required: true }),
        ROLE: column("Role", "Ultimate consignee"),
        COUNTRY: column("Country", "Germany"),
        RESULT: column("Result", "screen-clear", { choice: ScreeningResult, width: 1.3 }),
        LISTS: column("Lists", "All listed above"),
        NOTES: column("Notes", "No match above threshold", { width: 1.6 })
      }),
      SCREEN_OWNERSHIP_REVIEW: prose("Ownership review", "No owner of 50% or more is a listed party"),
      SCREEN_ADJUDICATION: prose("Adjudication", "Potential matches reviewed by …"),
      SCREEN_SUMMARY: prose("Conclusion", "No party is listed")
    }),
    section("redflags", "Red flags", {
      RED_FLAGS_LISTED_SIMILARITY: redFlag("Customer or address similar to a listed party"),
      RED_FLAGS_RELUCTANT_END_USE: redFlag("Reluctant to give end-use information"),
      RED_FLAGS_CAPABILITIES_MISMATCH: redFlag("Capabilities do not fit the buyer's business"),
      RED_FLAGS_TECHNICAL_LEVEL: redFlag("Incompatible with the destination's technical level"),
      RED_FLAGS_CASH_PAYMENT: redFlag("Cash for an item normally financed"),
      RED_FLAGS_LITTLE_BACKGROUND: redFlag("Little or no business background"),
      RED_FLAGS_UNFAMILIAR: redFlag("Unfamiliar with the product's performance"),
      RED_FLAGS_DECLINES_SERVICES: redFlag("Declines installation, training or maintenance"),
      RED_FLAGS_DELIVERY_VAGUE: redFlag("Vague delivery dates or out-of-the-way destinations"),
      RED_FLAGS_FREIGHT_FORWARDER: redFlag("Freight forwarder listed as final destination"),
      RED_FLAGS_ROUTING_ABNORMAL: redFlag("Abnormal shipping route"),
      RED_FLAGS_PACKAGING_INCONSISTENT: redFlag("Packaging inconsistent with shipment or destination"),
      RED_FLAGS_EVASIVE_REEXPORT: redFlag("Evasive about domestic use, export or reexport"),
      RED_FLAGS_ESCALATION: text("Escalated to", "Empowered Official, 2026-11-19"),
      RED_FLAGS_DETAILS: table("Red flag details", {
        INDICATOR: column("Indicator", "Routing via a third country", { width: 2, required: true }),
        STATUS: column("Status", "flag-no", { choice: RedFlag, width: 0.8 }),
        NOTES: column("Resolution", "Confirmed direct shipment", { width: 2.4 })
      }),
      RED_FLAGS_SUMMARY: prose("Summary", "No red flags were identified (Supplement No. 3 to Part 732)"),
      RED_FLAGS_RESOLUTION: prose("Resolution", "Not applicable")
    }),
    section("disclosure", "AI use and regulatory currency", {
      AI_USED: choice("AI tools used", Flag, "flag-yes"),
      AI_TOOLS: text("Tools", "Drafting assistant; Export Compliance Data Service via MCP"),
      AI_PURPOSE: prose("Purpose of use", "Retrieving regulatory text and drafting the first version"),
      AI_HUMAN_REVIEW: prose("Human review", "Every citation and conclusion was verified by the analyst"),
      AI_LIMITATIONS: prose("Limitations", "AI output is not a determination and was not relied on unverified"),
      AI_DISCLOSURE_STATEMENT: prose("Disclosure", "AI assistance was used as described above …"),
      REGULATORY_CURRENCY_AS_OF: date("Regulations current as of", "2026-11-18"),
      REGULATORY_CURRENCY_SOURCES: text("Sources", "eCFR Title 15 Parts 730–774; Federal Register"),
      REGULATORY_CURRENCY_PENDING_CHANGES: prose("Pending changes", "Affiliates rule suspended through 2026-11-09 …"),
      REGULATORY_CURRENCY_STATEMENT: prose("Statement", "Re-validate this memorandum after any CCL amendment …")
    }),
    section("certification", "Reviewer certification", {
      PRIMARY_ANALYST_NAME: text("Primary analyst", "Jane Doe"),
      PRIMARY_ANALYST_TITLE: text("Title", "Senior Trade Compliance Analyst"),
      PRIMARY_ANALYST_DATE: date("Date", "2026-11-20"),
      PRIMARY_ANALYST_STATEMENT: prose("Statement", "I performed the analysis above and believe it accurate …"),
      SME_NAME: text("Subject-matter expert", "Alex Smith"),
      SME_TITLE: text("Title", "Principal Engineer"),
      SME_DATE: date("Date", "2026-11-20"),
      SME_STATEMENT: prose("Statement", "The technical parameters above are accurate …"),
      ...signatory("APPROVER", "Approved by", "John Roe")
    }),
    section("history", "Version history", versionHistory())
  ]
})
