import { documentControl, signatory, versionHistory } from "./Common.ts"
import { defineContract, part, section } from "./Contract.ts"
import { Flag } from "./Enums.ts"
import { choice, column, date, html, prose, table, text } from "./Fields.ts"

export const EncryptionReport = defineContract({
  slug: "encryption-report",
  title: "Encryption Classification Report",
  version: "1.0.0",
  description: "Category 5, Part 2 classification of an item with cryptographic functionality: the functions " +
    "and algorithms, decontrol notes considered, the License Exception ENC paragraph, and the " +
    "self-classification report rows (Supplement No. 8 to Part 742).",
  presentation: {
    layout: "report",
    documentType: "Encryption Classification Report",
    subjectKey: "PRODUCT_NAME",
    coverFacts: ["ECCN", "AUTHORIZATION", "CCATS_NUMBER"],
    authorKey: "PREPARED_BY"
  },
  authoringNotes: [
    "Only public information: describe algorithms and functions, never keys or source code.",
    "REPORT_ROWS follow the columns of the annual self-classification report (Supplement No. 8 to Part 742).",
    "Record which decontrol notes were considered (Note 3 mass market, Note 4 primary function) and why.",
    "raw_html_fields accept p, br, strong/b, em/i, u, ul/ol/li, a and simple tables; the rest is dropped and counted."
  ],
  sections: [
    section("control", "Document control", {
      ...documentControl({ docNumber: "ENC-2026-0031" }),
      PREPARED_BY: text("Prepared by", "Jane Doe, Trade Compliance Analyst", { required: true })
    }),
    section("product", "Product", {
      PRODUCT_NAME: text("Product", "Sentinel 4200 VPN gateway", { required: true }),
      MODEL_NUMBERS: text("Models", "NW-S4200-A, NW-S4200-B"),
      MANUFACTURER: text("Manufacturer", "Northwind Secure Systems, Inc."),
      ITEM_TYPE: text("Item type", "Network infrastructure (VPN gateway)"),
      ECCN: text("ECCN", "5A002.a.1", { required: true }),
      AUTHORIZATION: text("Authorization", "ENC 740.17(b)(1)"),
      CCATS_NUMBER: text("CCATS", "Not applicable"),
      PRODUCT_DESCRIPTION: html("Description", "<p>Gateway providing IPsec tunnels …</p>")
    }),
    section("crypto", "Cryptographic functionality", {
      INFORMATION_SECURITY_PRIMARY: choice("Primary function is information security", Flag, "flag-yes"),
      DATA_CONFIDENTIALITY: choice("Cryptography for data confidentiality", Flag, "flag-yes"),
      OPEN_CRYPTO_INTERFACE: choice("Open cryptographic interface", Flag, "flag-no"),
      PROTOCOLS: text("Protocols", "IPsec (IKEv2), TLS 1.3, SSH"),
      PRIMARY_FUNCTION: prose("Primary function", "Secure site-to-site communications"),
      ALGORITHMS: table("Algorithms", {
        ALGORITHM: column("Algorithm", "AES", { required: true }),
        KEY_LENGTH: column("Key length", "256 bits"),
        MODE: column("Mode", "GCM"),
        PURPOSE: column("Purpose", "Data confidentiality", { width: 1.8 })
      }),
      LIBRARIES: table("Cryptographic libraries and components", {
        LIBRARY: column("Library or component", "OpenSSL", { width: 1.6, required: true }),
        VERSION: column("Version", "3.0.15"),
        SOURCE: column("Source", "Open source, unmodified", { width: 1.6 })
      }),
      KEY_MANAGEMENT: prose("Key management", "IKEv2 with certificate authentication; keys in secure element"),
      CRYPTO_ACTIVATION: prose("Cryptographic activation", "Not used")
    }),
    {
      id: "analysis",
      title: "Classification analysis",
      parts: [
        part("Decontrol notes", {
          MASS_MARKET: choice("Mass market (Note 3)", Flag, "flag-no"),
          NOTE4_EXCLUDED: choice("Excluded by Note 4 (primary function)", Flag, "flag-no"),
          DECONTROL_ANALYSIS: html("Analysis", "<p>Note 3 does not apply because …</p>")
        }),
        part("Classification", {
          ENC_PARAGRAPH: text("ENC paragraph", "740.17(b)(1)"),
          CLASSIFICATION_ANALYSIS: html("Analysis", "<p>The item meets 5A002.a.1 because …</p>"),
          RESTRICTED_DESTINATIONS: prose("Restrictions", "No exports to E:1/E:2 countries (740.17(a)(2))"),
          GOVERNMENT_END_USERS: prose("Government end users", "Restrictions of 740.17(b)(2) do not apply")
        })
      ]
    },
    {
      id: "reporting",
      title: "Reporting obligations",
      parts: [
        part("Self-classification report", {
          SELF_CLASSIFICATION_REQUIRED: choice("Self-classification report required", Flag, "flag-yes"),
          REPORTING_PERIOD: text("Reporting period", "Calendar year 2026 (due 2027-02-01)"),
          SUBMITTED_DATE: date("Submitted", "2027-01-20"),
          REPORT_ROWS: table("Report rows (Supp. No. 8 to Part 742)", {
            PRODUCT_NAME: column("Product name", "Sentinel 4200", { width: 1.4, required: true }),
            MODEL_NUMBER: column("Model", "NW-S4200"),
            MANUFACTURER: column("Manufacturer", "Northwind Secure Systems", { width: 1.4 }),
            ECCN: column("ECCN", "5A002.a.1"),
            AUTHORIZATION_TYPE: column("Authorization", "ENC"),
            ITEM_TYPE: column("Item type", "Network infrastructure", { width: 1.3 }),
            NON_US_COMPONENTS: column("Non-U.S. components", "flag-no", { choice: Flag }),
            NON_US_MANUFACTURING: column("Non-U.S. manufacturing", "None", { width: 1.2 })
          })
        }),
        part("Other reports", {
          SALES_REPORT_REQUIRED: choice("Semi-annual sales report (740.17(e))", Flag, "flag-no"),
          REPORTING_NOTES: prose("Notes", "No (b)(2) items shipped in the period")
        })
      ]
    },
    section("approval", "Approval", {
      ...signatory("PREPARER", "Prepared by", "Jane Doe"),
      ...signatory("APPROVER", "Approved by", "John Roe")
    }),
    section("history", "Version history", versionHistory())
  ]
})
