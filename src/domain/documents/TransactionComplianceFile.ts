import { documentControl, signatory, versionHistory } from "./Common.ts"
import { defineContract, section } from "./Contract.ts"
import { Decision, LicenseNeed, RedFlag, Risk, ScreeningResult } from "./Enums.ts"
import { choice, column, date, html, prose, table, text } from "./Fields.ts"

export const TransactionComplianceFile = defineContract({
  slug: "transaction-compliance-file",
  title: "Transaction Compliance File",
  version: "1.0.0",
  description: "The export compliance record of one transaction: parties, line items with their " +
    "classification and authorization, screening, red flags, export documentation and the release decision.",
  presentation: {
    layout: "report",
    documentType: "Transaction Compliance File",
    subjectKey: "TRANSACTION_ID",
    coverFacts: ["DESTINATION_COUNTRY", "LICENSE_DETERMINATION", "DECISION", "OVERALL_RISK"],
    authorKey: "PREPARED_BY",
    statusKey: "DECISION"
  },
  authoringNotes: [
    "Only public, non-classified information: never put CUI, classified or ITAR technical data in a payload.",
    "One LINE_ITEMS row per order line; AUTHORIZATION names the license, exception or NLR for that line.",
    "Screen every party in PARTIES; results are for human adjudication.",
    "The file is the record kept under 15 CFR Part 762: keep the referenced documents where DOCUMENTS says."
  ],
  sections: [
    section("control", "Document control", {
      ...documentControl({ docNumber: "TCF-2026-5521" }),
      PREPARED_BY: text("Prepared by", "Jane Doe, Trade Compliance Analyst", { required: true })
    }),
    section("summary", "Transaction summary", {
      TRANSACTION_ID: text("Transaction", "Sales order SO-448120", { required: true }),
      DESTINATION_COUNTRY: text("Destination", "Germany", { required: true }),
      LICENSE_DETERMINATION: choice("Authorization", LicenseNeed, "license-exception"),
      DECISION: choice("Release decision", Decision, "decision-proceed", { required: true }),
      OVERALL_RISK: choice("Overall risk", Risk, "risk-low"),
      ORDER_NUMBER: text("Order number", "PO 7781-22"),
      INVOICE_NUMBER: text("Invoice", "INV-2026-09921"),
      TRANSACTION_DATE: date("Order date", "2026-11-12"),
      SHIP_DATE: date("Planned ship date", "2026-11-24"),
      INCOTERMS: text("Incoterms", "FCA Boston"),
      VALUE_USD: text("Value (USD)", "184,500.00"),
      CARRIER: text("Carrier", "Example Air Freight"),
      ROUTING: prose("Routing", "Boston (BOS) → Frankfurt (FRA), direct"),
      SUMMARY: html("Summary", "<p>Shipment of four gateways under License Exception ENC …</p>")
    }),
    section("parties", "Parties", {
      PARTIES: table("Parties to the transaction", {
        ROLE: column("Role", "Ultimate consignee", { width: 1.3, required: true }),
        NAME: column("Name", "Example GmbH", { width: 1.6, required: true }),
        ADDRESS: column("Address", "Musterstraße 1, 60311 Frankfurt", { width: 2 }),
        COUNTRY: column("Country", "Germany"),
        SCREENING: column("Screening", "screen-clear", { choice: ScreeningResult, width: 1.2 })
      })
    }),
    section("items", "Items and classification", {
      LINE_ITEMS: table("Line items", {
        LINE: column("Line", "1", { width: 0.5 }),
        DESCRIPTION: column("Description", "Sentinel 4200 VPN gateway", { width: 2, required: true }),
        PART_NUMBER: column("Part number", "NW-S4200-A", { width: 1.2 }),
        QUANTITY: column("Qty", "4", { width: 0.5 }),
        VALUE: column("Value", "172,000.00", { width: 0.9 }),
        ECCN: column("ECCN", "5A002.a.1", { width: 0.9 }),
        SCHEDULE_B: column("Schedule B", "8517.62.0090", { width: 1 }),
        AUTHORIZATION: column("Authorization", "ENC", { width: 0.9 })
      }),
      CLASSIFICATION_REFERENCES: prose("Classification records", "ECM-2026-0142 v1.0")
    }),
    section("authorization", "Export authorization", {
      AUTHORIZATION_SUMMARY: text("Authorization", "License Exception ENC, 15 CFR 740.17(b)(1)"),
      LICENSE_NUMBERS: text("Licenses", "None"),
      LICENSE_EXCEPTIONS_USED: text("Exceptions", "ENC"),
      END_USE_STATEMENT: text("End-use statement", "Signed 2026-11-13, on file"),
      AUTHORIZATION_ANALYSIS: html("Analysis", "<p>See license determination LDM-2026-0077 …</p>")
    }),
    section("screening", "Screening and red flags", {
      SCREENING_DATE: date("Screening date", "2026-11-19"),
      SCREENING_RESULT: choice("Screening result", ScreeningResult, "screen-clear"),
      RED_FLAGS_PRESENT: choice("Red flags present", RedFlag, "flag-no"),
      SCREENING_NOTES: prose("Screening notes", "All parties screened; certificate RPS-2026-10311"),
      RED_FLAGS_NOTES: prose("Red flag review", "None of the Supplement No. 3 to Part 732 indicators present")
    }),
    section("documents", "Export documentation", {
      EEI_ITN: text("EEI / ITN", "X20261124123456"),
      AES_EXEMPTION: text("AES exemption", "Not applicable"),
      DESTINATION_CONTROL_STATEMENT: text("Destination control statement", "On the commercial invoice"),
      TRANSPORT_DOCUMENT: text("Air waybill / bill of lading", "AWB 123-45678901"),
      DOCUMENTS: table("Records kept", {
        DOCUMENT: column("Document", "Commercial invoice", { width: 1.6, required: true }),
        REFERENCE: column("Reference", "INV-2026-09921"),
        LOCATION: column("Location", "ERP document store", { width: 1.6 })
      })
    }),
    section("decision", "Release decision", {
      DECISION_CONDITIONS: prose("Conditions", "Ship only to the consignee address above"),
      DECISION_RATIONALE: html("Rationale", "<p>All checks complete …</p>"),
      RECORD_RETENTION: text("Retain until", "2031-11-24 (five years after export)"),
      ...signatory("RELEASER", "Released by", "Jane Doe"),
      ...signatory("APPROVER", "Approved by", "John Roe")
    }),
    section("history", "Version history", versionHistory())
  ]
})
