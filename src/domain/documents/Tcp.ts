import { documentControl, signatory, versionHistory } from "./Common.ts"
import { defineContract, section } from "./Contract.ts"
import { ControlStatus, Flag } from "./Enums.ts"
import { choice, column, date, html, prose, table, text } from "./Fields.ts"

export const Tcp = defineContract({
  slug: "tcp",
  title: "Technology Control Plan",
  version: "1.0.0",
  description: "How a facility or program keeps export-controlled technology and technical data from " +
    "unauthorized foreign persons: controlled items, authorized personnel, physical and information " +
    "security, training, monitoring and records.",
  presentation: {
    layout: "report",
    documentType: "Technology Control Plan",
    subjectKey: "FACILITY",
    coverFacts: ["PROGRAM", "EFFECTIVE_DATE", "FOREIGN_PERSONS_PRESENT", "TCP_OWNER"],
    authorKey: "TCP_OWNER"
  },
  authoringNotes: [
    "Only public, non-classified information: describe controlled technology by category, never include it.",
    "List every person with access in AUTHORIZED_PERSONS with the authorization that covers them (U.S. person, " +
    "license number, or license exception).",
    "A release of controlled technology to a foreign person in the United States is a deemed export " +
    "(15 CFR 734.13(b)).",
    "raw_html_fields accept p, br, strong/b, em/i, u, ul/ol/li, a and simple tables; the rest is dropped and counted."
  ],
  sections: [
    section("control", "Document control", {
      ...documentControl({ docNumber: "TCP-2026-004" }),
      TCP_OWNER: text("Plan owner", "Jane Doe, Facility Export Control Officer", { required: true }),
      EFFECTIVE_DATE: date("Effective date", "2026-12-01"),
      REVIEW_DATE: date("Next review", "2027-12-01")
    }),
    section("scope", "Purpose and scope", {
      FACILITY: text("Facility", "Boston engineering center, 100 Harbor Way", { required: true }),
      PROGRAM: text("Program", "Sentinel ASIC development"),
      PURPOSE: html("Purpose", "<p>This plan prevents unauthorized access to …</p>"),
      SCOPE: html("Scope", "<p>Applies to the ASIC lab and its design repositories …</p>"),
      PROGRAM_DESCRIPTION: prose("Program description", "Design of the cryptographic accelerator …")
    }),
    section("technology", "Controlled technology", {
      TECHNOLOGY_DESCRIPTION: html("Description", "<p>Development technology for items in 5A002 …</p>"),
      CONTROLLED_ITEMS: table("Controlled items and data", {
        ITEM: column("Item or data", "ASIC RTL and verification suite", { width: 2, required: true }),
        JURISDICTION: column("Jurisdiction", "EAR"),
        CLASSIFICATION: column("Classification", "5E002.a"),
        LOCATION: column("Where kept", "Lab repository, restricted group", { width: 1.6 })
      })
    }),
    section("personnel", "Personnel and authorizations", {
      FOREIGN_PERSONS_PRESENT: choice("Foreign persons with access", Flag, "flag-yes"),
      AUTHORIZED_PERSONS: table("Authorized persons", {
        NAME_ROLE: column("Name and role", "R. Patel, Verification Engineer", { width: 2, required: true }),
        CITIZENSHIP: column("Citizenship", "India"),
        AUTHORIZATION: column("Authorization", "ENC 740.17(b)(1) deemed export", { width: 1.8 }),
        BRIEFED: column("Briefed", "2026-11-02")
      }),
      DEEMED_EXPORT_ANALYSIS: html("Deemed export analysis", "<p>Releases to foreign nationals …</p>"),
      LICENSES: table("Licenses and agreements", {
        AUTHORIZATION: column("License or agreement", "D1234567", { required: true }),
        SCOPE: column("Scope", "Release of 5E002 technology", { width: 2.2 }),
        EXPIRY: column("Expiry", "2029-05-31")
      })
    }),
    section("physical", "Physical security", {
      PHYSICAL_SECURITY: html("Measures", "<ul><li>Badge-controlled lab access</li></ul>"),
      MARKING: prose("Marking", "Controlled documents carry an export-control legend"),
      VISITOR_PROCEDURES: prose("Visitors", "Escorted at all times; no access to the lab")
    }),
    section("information", "Information security", {
      INFORMATION_SECURITY: html("Measures", "<ul><li>Repository access by named group</li></ul>"),
      IT_SYSTEMS: table("Systems holding controlled data", {
        SYSTEM: column("System", "Design repository", { width: 1.6, required: true }),
        CONTROLS: column("Controls", "Group-based access, MFA, audit log", { width: 2.4 }),
        STATUS: column("Status", "control-implemented", { choice: ControlStatus, width: 1.2 }),
        OWNER: column("Owner", "IT Security")
      }),
      TRANSMISSION: prose("Transmission and storage", "Encrypted at rest and in transit; no personal devices")
    }),
    section("training", "Training and briefings", {
      TRAINING: html("Training", "<p>Everyone with access completes TCP training before access …</p>"),
      BRIEFING_ACKNOWLEDGMENT: prose("Acknowledgment", "Each person signs the TCP briefing acknowledgment")
    }),
    section("monitoring", "Monitoring, incidents and records", {
      AUDIT_PROCEDURES: prose("Self-assessment", "Quarterly access review; annual TCP audit"),
      INCIDENT_REPORTING: prose("Incidents", "Report suspected unauthorized access to the Empowered Official"),
      RECORDKEEPING: prose("Records", "Briefings, access lists and audits kept five years")
    }),
    section("approval", "Approval", {
      ...signatory("APPROVER", "Approved by", "John Roe"),
      ...signatory("SECURITY_OFFICER", "Security officer", "Pat Lee")
    }),
    section("history", "Version history", versionHistory())
  ]
})
