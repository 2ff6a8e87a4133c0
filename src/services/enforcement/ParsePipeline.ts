import { Effect } from "effect"
import type { ParseStatus } from "../../domain/Enforcement.ts"
import { type ExtractedFields, extractFields } from "./Fields.ts"
import { extractMarkdown } from "./PdfText.ts"

/**
 * One step of the parse pipeline: a document's file (or its absence) to a parse status with the
 * reason, the text and the fields read from it. `pending` → `parsed` | `no_text` | `failed` |
 * `no_pdf`. Raise `parserVersion` whenever extraction changes: `ecds enforcement reparse` re-reads
 * every stored file parsed by an older version.
 */
export const parserVersion = 2

/** Largest file fetched or imported; a PDF larger than this is recorded as failed, not stored. */
export const maxPdfBytes = 64 * 1024 * 1024

export interface ParseOutcome {
  readonly parseStatus: ParseStatus
  readonly parseReason: string | null
  readonly pages: number | null
  readonly textChars: number | null
  readonly body: string | null
  readonly fields: ExtractedFields
}

/** Why a stored PDF has no text. */
export const noTextReason = "the PDF holds no extractable text (a scan): read the file"

/** A file that could not be read: not stored, with the reason. */
export const failedWith = (
  reason: string,
  meta: { readonly party: string | null; readonly title: string }
): ParseOutcome => ({
  parseStatus: "failed",
  parseReason: reason,
  pages: null,
  textChars: null,
  body: null,
  fields: extractFields(meta.party, meta.title, "")
})

const looksLikePdf = (bytes: Uint8Array) => new TextDecoder().decode(bytes.subarray(0, 1024)).includes("%PDF-")

/** A file's outcome: never fails; a file that cannot be read is `failed` with the reason. */
export const parseFile = (
  bytes: Uint8Array,
  meta: { readonly party: string | null; readonly title: string }
): Effect.Effect<ParseOutcome> => {
  const failed = (reason: string) => failedWith(reason, meta)
  if (bytes.byteLength > maxPdfBytes) return Effect.succeed(failed(`the file is larger than ${maxPdfBytes} bytes`))
  if (!looksLikePdf(bytes)) return Effect.succeed(failed("the file is not a PDF (no %PDF- header)"))
  return Effect.tryPromise(() => extractMarkdown(bytes)).pipe(
    Effect.map((extracted): ParseOutcome => {
      const text = extracted.markdown
      return {
        parseStatus: text.length > 0 ? "parsed" : "no_text",
        parseReason: text.length > 0 ? null : noTextReason,
        pages: extracted.pages,
        textChars: text.length,
        body: text.length > 0 ? text : null,
        fields: extractFields(meta.party, meta.title, text)
      }
    }),
    Effect.catchAll((error) =>
      Effect.succeed(failed(`the PDF could not be read: ${String(error.error).slice(0, 200)}`))
    )
  )
}

/** A document published as text (a DOJ release): parsed from its page text, with no file. */
export const fromText = (
  text: string,
  meta: { readonly party: string | null; readonly title: string }
): ParseOutcome => ({
  parseStatus: "no_pdf",
  parseReason: null,
  pages: null,
  textChars: text.length,
  body: text.length > 0 ? text : null,
  fields: extractFields(meta.party, meta.title, text)
})

/** A document whose file is known upstream but not fetched yet, or that has none. */
export const withoutFile = (
  status: "pending" | "no_pdf",
  reason: string | null,
  meta: { readonly party: string | null; readonly title: string }
): ParseOutcome => ({
  parseStatus: status,
  parseReason: reason,
  pages: null,
  textChars: null,
  body: null,
  fields: extractFields(meta.party, meta.title, "")
})
