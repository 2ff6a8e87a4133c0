import { DocumentStatus } from "./Enums.ts"
import { choice, column, date, type FieldSpec, table, text } from "./Fields.ts"

/** The keys every document carries: they drive the running header, footer, file name and metadata. */
export const documentControl = (example: { readonly docNumber: string }): Record<string, FieldSpec> => ({
  COMPANY_NAME: text("Company", "Northwind Secure Systems, Inc.", { required: true }),
  COMPANY_ADDRESS: text("Company address", "100 Harbor Way, Boston, MA 02110, USA"),
  DOC_NUMBER: text("Document number", example.docNumber, { required: true }),
  VERSION: text("Version", "1.0", { required: true }),
  DATE: date("Date", "2026-11-20", { required: true }),
  DOCUMENT_STATUS: choice("Status", DocumentStatus, "status-approved"),
  CONFIDENTIALITY: text("Handling", "Company confidential — export compliance record")
})

export const versionHistory = (): Record<string, FieldSpec> => ({
  VERSION_HISTORY: table("Versions", {
    VERSION: column("Version", "1.0", { width: 0.7, required: true }),
    DATE: column("Date", "2026-11-20", { width: 0.9 }),
    AUTHOR: column("Author", "J. Doe"),
    CHANGES: column("Changes", "First issue", { width: 3 })
  })
})

/** Name, title and date of one signatory, keyed `<PREFIX>_NAME`, `_TITLE`, `_DATE`. */
export const signatory = (prefix: string, role: string, example: string): Record<string, FieldSpec> => ({
  [`${prefix}_NAME`]: text(role, example),
  [`${prefix}_TITLE`]: text("Title", "Empowered Official"),
  [`${prefix}_DATE`]: date("Date", "2026-11-21")
})
