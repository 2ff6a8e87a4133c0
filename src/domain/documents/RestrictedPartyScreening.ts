import { defineContract, section } from "./Contract.ts"
import { ScreeningResult } from "./Enums.ts"
import { choice, column, date, prose, table, text } from "./Fields.ts"

export const RestrictedPartyScreening = defineContract({
  slug: "restricted-party-screening",
  title: "Restricted-Party Screening Certificate",
  version: "1.0.0",
  description: "One-page certificate that the parties to a transaction were screened against the U.S. " +
    "restricted-party lists, with the result and its adjudication. Free, even with zero credits.",
  presentation: {
    layout: "certificate",
    documentType: "Restricted-Party Screening Certificate",
    subjectKey: "TRANSACTION_REFERENCE",
    coverFacts: ["OVERALL_RESULT", "SCREENING_DATE", "LIST_VERSION"],
    authorKey: "SCREENED_BY",
    statusKey: "OVERALL_RESULT"
  },
  judgements: [
    { label: "Parties screened", keys: ["PARTIES"] },
    { label: "Certification", keys: ["CERTIFICATION_STATEMENT"] }
  ],
  authoringNotes: [
    "Only public, non-classified information.",
    "At most 12 parties; keep each statement to a few sentences so the certificate fits one page (a longer " +
    "payload still renders, on more pages, and counts a warning).",
    "A name match is not a determination: record how potential matches were adjudicated.",
    "A clear name screen is not ownership diligence: state the ownership review separately (Affiliates rule)."
  ],
  sections: [
    section("certificate", "Certificate", {
      COMPANY_NAME: text("Company", "Northwind Secure Systems, Inc.", { required: true }),
      DOC_NUMBER: text("Certificate number", "RPS-2026-10311", { required: true }),
      VERSION: text("Version", "1.0", { required: true }),
      DATE: date("Date", "2026-11-19", { required: true }),
      TRANSACTION_REFERENCE: text("Transaction", "Sales order SO-448120"),
      SCREENED_BY: text("Screened by", "Jane Doe, Trade Compliance Analyst", { required: true }),
      SCREENING_DATE: date("Screening date", "2026-11-19"),
      SCREENING_TOOL: text("Tool", "Consolidated Screening List (fuzzy name search)"),
      LISTS_SEARCHED: text("Lists searched", "Entity List, Denied Persons, Unverified, MEU, SDN, DTC Debarred"),
      LIST_VERSION: text("List version", "CSL as published 2026-11-19"),
      MATCH_THRESHOLD: text("Match threshold", "Score ≥ 0.85 reviewed"),
      OVERALL_RESULT: choice("Overall result", ScreeningResult, "screen-clear", { required: true }),
      PARTIES: table("Parties screened", {
        PARTY: column("Party", "Example GmbH", { width: 2, required: true }),
        ROLE: column("Role", "Ultimate consignee", { width: 1.3 }),
        COUNTRY: column("Country", "Germany"),
        RESULT: column("Result", "screen-clear", { choice: ScreeningResult, width: 1.3 }),
        NOTES: column("Notes", "No match", { width: 1.6 })
      }, { maxRows: 12 }),
      OWNERSHIP_REVIEW: prose("Ownership review", "No listed owner of 50% or more identified"),
      ADJUDICATION_NOTES: prose("Adjudication", "Two fuzzy hits reviewed; different address and identifiers"),
      CERTIFICATION_STATEMENT: prose(
        "Certification",
        "I certify that the parties above were screened on the date shown and that the results are recorded " +
          "accurately."
      ),
      VALID_UNTIL: date("Re-screen by", "2026-12-19"),
      CONFIDENTIALITY: text("Handling", "Company confidential")
    })
  ]
})
