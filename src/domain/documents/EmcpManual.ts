import { documentControl, signatory, versionHistory } from "./Common.ts"
import { defineContract, section } from "./Contract.ts"
import { ControlStatus, Risk } from "./Enums.ts"
import { column, date, html, prose, table, text } from "./Fields.ts"

/** The manual follows the eight elements of an Export Compliance Program in BIS's EMCP guidelines. */
export const EmcpManual = defineContract({
  slug: "emcp-manual",
  title: "Export Management and Compliance Program Manual",
  version: "1.0.0",
  description: "A company's export compliance program manual, organized by the eight elements of BIS's " +
    "Export Compliance Guidelines: management commitment, risk assessment, export authorization, " +
    "recordkeeping, training, audits, handling violations, and maintaining the program.",
  presentation: {
    layout: "report",
    documentType: "Export Management and Compliance Program",
    subjectKey: "PROGRAM_NAME",
    coverFacts: ["EFFECTIVE_DATE", "PROGRAM_OWNER", "SCOPE_ENTITIES"],
    authorKey: "PROGRAM_OWNER"
  },
  authoringNotes: [
    "Write procedures as instructions employees follow: who does what, when, with which record.",
    "Procedure fields are raw_html_fields: use ordered lists for steps; tables for responsibilities.",
    "RISK_REGISTER rates each risk with the risk enumeration; CONTROLS tracks each control's status.",
    "Management's commitment statement should be signed by a senior officer (STATEMENT_SIGNATORY)."
  ],
  sections: [
    section("control", "Document control", {
      ...documentControl({ docNumber: "EMCP-MAN-001" }),
      PROGRAM_OWNER: text("Program owner", "Jane Doe, Director of Trade Compliance", { required: true }),
      EFFECTIVE_DATE: date("Effective date", "2026-12-01"),
      SCOPE_ENTITIES: text("Entities covered", "Northwind Secure Systems, Inc. and U.S. subsidiaries"),
      ...signatory("APPROVER", "Approved by", "Chris Major, Chief Executive Officer")
    }),
    section("introduction", "Introduction", {
      PROGRAM_NAME: text("Program", "Export Management and Compliance Program", { required: true }),
      PURPOSE: html("Purpose", "<p>This manual sets out how the company complies with the EAR and ITAR …</p>"),
      SCOPE: html("Scope", "<p>Applies to every export, reexport and transfer …</p>"),
      APPLICABILITY: prose("Who must follow it", "All employees, contractors and agents"),
      DEFINITIONS: table("Definitions", {
        TERM: column("Term", "Empowered Official", { required: true }),
        DEFINITION: column("Definition", "Person authorized to sign license applications", { width: 3 })
      })
    }),
    section("commitment", "Element 1 — Management commitment", {
      MANAGEMENT_STATEMENT: html("Policy statement", "<p>It is the policy of the company to comply fully …</p>"),
      STATEMENT_SIGNATORY: text("Signed by", "Chris Major, Chief Executive Officer"),
      STATEMENT_DATE: date("Signed on", "2026-11-15"),
      RESOURCES: prose("Resources", "Two full-time compliance staff; screening software; outside counsel"),
      ORGANIZATION: table("Compliance organization", {
        ROLE: column("Role", "Empowered Official", { width: 1.3, required: true }),
        NAME: column("Name", "John Roe"),
        RESPONSIBILITIES: column("Responsibilities", "Signs licenses; final release authority", { width: 3 })
      })
    }),
    section("risk", "Element 2 — Risk assessment", {
      RISK_ASSESSMENT: html("Approach", "<p>Risks are assessed yearly by product, destination and channel …</p>"),
      RISK_REVIEW_FREQUENCY: text("Review frequency", "Annually and on major business change"),
      RISK_REGISTER: table("Risk register", {
        RISK: column("Risk", "Diversion through distributors", { width: 2, required: true }),
        RATING: column("Rating", "risk-medium", { choice: Risk, width: 0.9 }),
        MITIGATION: column("Mitigation", "Distributor due diligence; end-use statements", { width: 2.4 }),
        OWNER: column("Owner", "Sales Operations")
      })
    }),
    section("authorization", "Element 3 — Export authorization", {
      CLASSIFICATION_PROCEDURE: html("Jurisdiction and classification", "<ol><li>Engineering submits …</li></ol>"),
      SCREENING_PROCEDURE: html("Restricted-party screening", "<ol><li>Screen every party before …</li></ol>"),
      LICENSE_PROCEDURE: html("License determination", "<ol><li>Check the Country Chart …</li></ol>"),
      RED_FLAG_PROCEDURE: html("Red flags and escalation", "<ol><li>Stop the order and notify …</li></ol>"),
      HOLD_PROCEDURE: prose("Order holds", "The ERP blocks release until compliance clears the order")
    }),
    section("records", "Element 4 — Recordkeeping", {
      RECORDKEEPING_POLICY: html("Policy", "<p>Records are kept five years (15 CFR Part 762) …</p>"),
      RECORD_TYPES: table("Records kept", {
        RECORD: column("Record", "Classification memoranda", { width: 1.8, required: true }),
        RETENTION: column("Retention", "5 years after last export", { width: 1.4 }),
        LOCATION: column("Location", "Compliance records system", { width: 1.4 }),
        OWNER: column("Owner", "Trade Compliance")
      })
    }),
    section("training", "Element 5 — Training", {
      TRAINING_PROGRAM: html("Program", "<p>New employees complete export awareness training …</p>"),
      TRAINING_SCHEDULE: table("Training plan", {
        AUDIENCE: column("Audience", "Sales and customer service", { width: 1.6, required: true }),
        COURSE: column("Course", "Export controls awareness", { width: 1.6 }),
        FREQUENCY: column("Frequency", "Annual"),
        OWNER: column("Owner", "Trade Compliance")
      })
    }),
    section("audits", "Element 6 — Audits", {
      AUDIT_PROGRAM: html("Program", "<p>Internal audits test each element yearly …</p>"),
      AUDIT_SCHEDULE: table("Audit plan", {
        SCOPE: column("Scope", "Screening and order holds", { width: 2, required: true }),
        TYPE: column("Type", "Internal"),
        FREQUENCY: column("Frequency", "Annual"),
        LAST_AUDIT: column("Last audit", "2026-06-30")
      })
    }),
    section("violations", "Element 7 — Handling violations and corrective action", {
      VIOLATION_REPORTING: html("Reporting", "<p>Employees report suspected violations to …</p>"),
      HOTLINE: text("Hotline", "ethics hotline, anonymous reporting available"),
      VOLUNTARY_SELF_DISCLOSURE: prose("Voluntary self-disclosure", "Considered under 15 CFR 764.5 …"),
      CORRECTIVE_ACTION: prose("Corrective action", "Root-cause analysis within 30 days …")
    }),
    section("maintenance", "Element 8 — Building and maintaining the program", {
      MAINTENANCE_PROCEDURE: prose("Maintenance", "The manual is reviewed yearly and after regulatory change"),
      REVIEW_FREQUENCY: text("Review frequency", "Annual"),
      CONTROLS: table("Program controls", {
        CONTROL: column("Control", "Automated screening of new customers", { width: 2.2, required: true }),
        STATUS: column("Status", "control-implemented", { choice: ControlStatus, width: 1.2 }),
        OWNER: column("Owner", "Trade Compliance"),
        NOTES: column("Notes", "Daily list refresh", { width: 1.6 })
      }),
      CONTACTS: table("Contacts", {
        ROLE: column("Role", "Trade Compliance Director", { width: 1.6, required: true }),
        NAME: column("Name", "Jane Doe"),
        EMAIL: column("Email", "trade.compliance@northwind.example", { width: 1.8 }),
        PHONE: column("Phone", "+1 617 555 0100")
      })
    }),
    section("history", "Version history", versionHistory())
  ]
})
