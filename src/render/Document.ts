import type { Contract, ValidPayload } from "../domain/documents/Contract.ts"
import { renderCertificate } from "./Certificate.ts"
import { prepareContent } from "./Content.ts"
import { renderReport } from "./Report.ts"

export interface RenderedDocument {
  readonly bytes: Uint8Array
  /** Non-fatal payload issues, described without their values. */
  readonly warnings: ReadonlyArray<string>
}

/** Lays out one validated payload as a PDF, in memory; nothing is kept once it returns. */
export const renderDocument = async (
  contract: Contract,
  payload: ValidPayload,
  options: { readonly draft: boolean; readonly now: Date }
): Promise<RenderedDocument> => {
  const content = prepareContent(contract, payload.values, payload.warnings)
  const bytes = contract.presentation.layout === "certificate"
    ? await renderCertificate(content, options)
    : await renderReport(content, options)
  return { bytes, warnings: content.warnings }
}
