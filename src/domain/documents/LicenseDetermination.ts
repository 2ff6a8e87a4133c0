import { documentControl, signatory, versionHistory } from "./Common.ts"
import { defineContract, section } from "./Contract.ts"
import { Flag, LicenseNeed, Risk, ScreeningResult } from "./Enums.ts"
import { choice, column, date, html, prose, table, text } from "./Fields.ts"

export const LicenseDetermination = defineContract({
  slug: "license-determination",
  title: "License Determination Memorandum",
  version: "1.0.0",
  description: "Whether a classified item needs a license for one destination, end user and end use: Country " +
    "Chart, license exceptions, end-use and end-user controls, embargoes, and the resulting authorization.",
  presentation: {
    layout: "report",
    documentType: "License Determination Memorandum",
    subjectKey: "ITEM_NAME_MODEL",
    coverFacts: ["ECCN", "DESTINATION_COUNTRY", "DETERMINATION", "AUTHORIZATION"],
    authorKey: "PREPARED_BY",
    statusKey: "DETERMINATION"
  },
  authoringNotes: [
    "Only public, non-classified information: never put CUI, classified or ITAR technical data in a payload.",
    "Start from a classification memorandum and cite it in CLASSIFICATION_REFERENCE.",
    "Fill one COUNTRY_CHART row per reason for control of the ECCN; X_IN_BOX is flag-yes when the Country Chart " +
    "(Supplement No. 1 to Part 738) shows an X for the destination.",
    "Record each license exception considered, including those rejected, with the 740.2 restrictions checked.",
    "Screening results are for human adjudication: a clear screen is not ownership diligence.",
    "raw_html_fields accept p, br, strong/b, em/i, u, ul/ol/li, a and simple tables; the rest is dropped and counted."
  ],
  sections: [
    section("control", "Document control", {
      ...documentControl({ docNumber: "LDM-2026-0077" }),
      PREPARED_BY: text("Prepared by", "Jane Doe, Senior Trade Compliance Analyst", { required: true }),
      REVIEWED_BY: text("Reviewed by", "John Roe, Empowered Official"),
      REQUEST_REFERENCE: text("Request reference", "SO-448120")
    }),
    section("summary", "Determination", {
      ITEM_NAME_MODEL: text("Item", "Sentinel 4200 VPN gateway (NW-S4200)", { required: true }),
      ECCN: text("ECCN", "5A002.a.1", { required: true }),
      DESTINATION_COUNTRY: text("Destination", "Germany", { required: true }),
      END_USER: text("End user", "Example GmbH"),
      END_USE: text("End use", "Site-to-site VPN for a regional utility"),
      DETERMINATION: choice("Determination", LicenseNeed, "license-exception", { required: true }),
      AUTHORIZATION: text("Authorization", "License Exception ENC, 15 CFR 740.17(b)(1)"),
      OVERALL_RISK: choice("Overall risk", Risk, "risk-low"),
      SUMMARY: html("Summary", "<p>No license is required because …</p>")
    }),
    section("classification", "Classification basis", {
      CLASSIFICATION_REFERENCE: text("Classification memorandum", "ECM-2026-0142 v1.0"),
      JURISDICTION: text("Jurisdiction", "EAR"),
      REASONS_FOR_CONTROL: text("Reasons for control", "NS1, AT1, EI"),
      CLASSIFICATION_NOTES: prose("Notes", "Classification confirmed against the current CCL entry")
    }),
    section("country-chart", "Country Chart analysis", {
      COUNTRY_GROUPS: text("Country groups of the destination", "A:1, A:5, A:6? No; B"),
      COUNTRY_CHART: table("Country Chart review (Supp. No. 1 to Part 738)", {
        REASON: column("Reason for control", "NS1", { required: true }),
        COLUMN: column("Column", "NS 1"),
        X_IN_BOX: column("X in box", "flag-yes", { choice: Flag }),
        RESULT: column("Result", "License required unless an exception applies", { width: 2.5 })
      }),
      COUNTRY_CHART_ANALYSIS: html("Analysis", "<p>Germany has an X under NS1 …</p>")
    }),
    section("exceptions", "License exceptions", {
      EXCEPTION_SELECTED: text("Exception relied on", "ENC 740.17(b)(1)"),
      EXCEPTIONS_CONSIDERED: table("Exceptions considered", {
        EXCEPTION: column("Exception", "ENC", { required: true }),
        CITATION: column("Citation", "15 CFR 740.17(b)(1)", { width: 1.4 }),
        ELIGIBLE: column("Eligible", "flag-yes", { choice: Flag }),
        RESTRICTIONS_CHECKED: column("740.2 restrictions", "None apply", { width: 1.4 }),
        NOTES: column("Notes", "Self-classification report due", { width: 2 })
      }),
      EXCEPTION_CONDITIONS: prose("Conditions of use", "Report in the annual self-classification report")
    }),
    section("end-use", "End-use and end-user controls", {
      SCREENING_RESULT: choice("Screening result", ScreeningResult, "screen-clear"),
      SCREENING_DATE: date("Screening date", "2026-11-19"),
      END_USE_CONTROLS: table("Part 744 controls", {
        CONTROL: column("Control", "Military end use / end user", { width: 1.8, required: true }),
        CITATION: column("Citation", "15 CFR 744.21"),
        APPLIES: column("Applies", "flag-no", { choice: Flag }),
        NOTES: column("Notes", "Destination not listed in 744.21(a)", { width: 2 })
      }),
      END_USER_ANALYSIS: prose("End-user analysis", "End user screened; ownership reviewed to 50%"),
      RED_FLAGS: prose("Red flags", "None identified (Supplement No. 3 to Part 732)")
    }),
    section("sanctions", "Embargoes, sanctions and reexports", {
      EMBARGO_ANALYSIS: prose("Embargoes (Part 746)", "The destination is not subject to Part 746 measures"),
      SANCTIONS_ANALYSIS: prose("Sanctions (OFAC)", "No OFAC program applies"),
      DE_MINIMIS: prose("De minimis", "Not applicable: U.S.-origin item"),
      FDP_RULE: prose("Foreign direct product rules", "Not applicable"),
      REEXPORT_CONDITIONS: prose("Reexport conditions", "Reexport to E:1/E:2 prohibited")
    }),
    section("license", "License application", {
      LICENSE_NEEDED: choice("License needed", Flag, "flag-no"),
      LICENSE_APPLICATION_NUMBER: text("Application number", "Z1234567"),
      LICENSE_NUMBER: text("License number", "D1234567"),
      LICENSE_EXPIRY: date("License expiry", "2030-11-20"),
      LICENSING_POLICY: prose("Licensing policy", "Case-by-case review (15 CFR 742.15)"),
      LICENSE_CONDITIONS: prose("Conditions and riders", "None")
    }),
    section("documentation", "Export documentation and records", {
      EEI_FILING: text("EEI filing", "Required; license code C33 (NLR) or ENC"),
      DESTINATION_CONTROL_STATEMENT: text("Destination control statement", "Required (15 CFR 758.6)"),
      RECORDKEEPING: prose("Recordkeeping", "Keep for five years (15 CFR Part 762)")
    }),
    section("approval", "Approval", {
      ...signatory("PREPARER", "Prepared by", "Jane Doe"),
      ...signatory("APPROVER", "Approved by", "John Roe")
    }),
    section("history", "Version history", versionHistory())
  ]
})
