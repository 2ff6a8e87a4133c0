import type { Contract, ValidPayload } from "../domain/documents/Contract.ts"
import { renderCertificate } from "./Certificate.ts"
import { prepareContent } from "./Content.ts"
import { loadFallback } from "./pdf/FallbackFonts.ts"
import { faceCovers } from "./pdf/TextRuns.ts"
import { renderReport } from "./Report.ts"

/** Every string of a payload (values and table cells): the characters the fallback faces must draw. */
const payloadTexts = function*(values: Readonly<Record<string, unknown>>): Generator<string> {
  for (const value of Object.values(values)) {
    if (typeof value === "string") yield value
    else if (Array.isArray(value)) {
      for (const row of value) {
        if (typeof row === "object" && row !== null) {
          for (const cell of Object.values(row)) if (typeof cell === "string") yield cell
        }
      }
    }
  }
}

/** A character the serif body face lacks needs a fallback even where the sans face has it (Greek). */
const primaryCovers = (codePoint: number) => faceCovers("serif", codePoint) && faceCovers("sans", codePoint)

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
  const fallback = await loadFallback(payloadTexts(payload.values), primaryCovers)
  const content = prepareContent(contract, payload.values, payload.warnings, fallback)
  const bytes = contract.presentation.layout === "certificate"
    ? await renderCertificate(content, fallback, options)
    : await renderReport(content, fallback, options)
  return { bytes, warnings: content.warnings }
}
