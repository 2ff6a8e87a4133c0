import type { DocumentContract, DocumentSlug } from "../Documents.ts"
import { Classification } from "./Classification.ts"
import { type Contract, contractDocument } from "./Contract.ts"
import { EmcpManual } from "./EmcpManual.ts"
import { EncryptionReport } from "./EncryptionReport.ts"
import { LicenseDetermination } from "./LicenseDetermination.ts"
import { RestrictedPartyScreening } from "./RestrictedPartyScreening.ts"
import { Tcp } from "./Tcp.ts"
import { TransactionComplianceFile } from "./TransactionComplianceFile.ts"

/** The payload contract of every document type. */
export const contracts: Readonly<Record<DocumentSlug, Contract>> = {
  classification: Classification,
  "license-determination": LicenseDetermination,
  "restricted-party-screening": RestrictedPartyScreening,
  "transaction-compliance-file": TransactionComplianceFile,
  "emcp-manual": EmcpManual,
  tcp: Tcp,
  "encryption-report": EncryptionReport
}

/** The `GET /pdf/{slug}/contract` document of every type, derived once. */
export const contractDocuments = Object.fromEntries(
  Object.entries(contracts).map(([slug, contract]) => [slug, contractDocument(contract)])
) as Readonly<Record<DocumentSlug, DocumentContract>>
