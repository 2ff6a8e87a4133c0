import type { DocumentSlug } from "../../domain/Documents.ts"
import { Classification } from "./Classification.ts"
import type { Contract } from "./Contract.ts"
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
