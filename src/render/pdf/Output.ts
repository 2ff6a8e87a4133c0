/**
 * pdfkit turns every content operator it writes (several per word of text) into its own
 * Uint8Array, and pushes every line of the file (each xref entry, each object header) through its
 * readable stream one by one. For a 26-page tagged memorandum those small arrays and stream
 * pushes cost more than laying the text out. This collects the same bytes as strings and joins
 * them once: a stream's text when the stream is finished, the file when the document ends. The
 * bytes written are the same (pdfkit keeps the low byte of each character, as `latin1` does);
 * pdfkit's own `finalize` still writes each object.
 */
import { deflateSync } from "node:zlib"

/** pdfkit's reference object (its class is not exported): what this replaces or reads of it. */
interface Reference {
  readonly document: { readonly _offset: number; _write(data: string | Uint8Array): void; _refEnd(ref: unknown): void }
  readonly id: number
  readonly gen: number
  readonly data: { Length?: number; Filter?: string; [key: string]: unknown }
  compress: boolean
  uncompressedLength: number
  offset: number
  buffer: Array<string | Uint8Array> | Uint8Array
  write(chunk: string | Uint8Array): void
  finalize(): void
}

interface ReferenceClass {
  new(document: unknown, id: number, data?: object): Reference
  readonly prototype: Reference
}

interface DocumentHooks {
  readonly _root: Reference
  readonly _security: unknown
  _offsets: Array<number | null>
  _waiting: number
  _offset: number
  ref(data?: object): Reference
  _write(data: string | Uint8Array): void
}

/** Chunks of text and bytes as one array: runs of text become bytes in one conversion. */
const joined = (chunks: ReadonlyArray<string | Uint8Array>): Buffer => {
  const parts: Array<Buffer> = []
  let text = ""
  for (const chunk of chunks) {
    if (typeof chunk === "string") text += chunk
    else {
      if (text !== "") parts.push(Buffer.from(text, "latin1"))
      text = ""
      parts.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
    }
  }
  if (text !== "") parts.push(Buffer.from(text, "latin1"))
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts)
}

/**
 * zlib's level for streams. pdfkit uses the default (6); on a memorandum's 600 KB of content and
 * font streams level 4 takes about half the CPU for a file ~3% larger.
 */
const deflateLevel = 4

let Buffered: ReferenceClass | undefined

/** pdfkit's reference class with `write` keeping text as text until the stream is finished. */
const bufferedClass = (Base: ReferenceClass): ReferenceClass => {
  class BufferedReference extends Base {
    override write(chunk: string | Uint8Array): void {
      const piece = typeof chunk === "string" ? `${chunk}\n` : chunk
      this.uncompressedLength += piece.length
      this.data.Length = (this.data.Length ?? 0) + piece.length
      ;(this.buffer as Array<string | Uint8Array>).push(piece)
      if (this.compress) this.data.Filter = "FlateDecode"
    }

    override finalize(): void {
      // compressed here at our level; pdfkit's own finalize then writes the object, from one chunk
      const chunks = this.buffer as Array<string | Uint8Array>
      if (chunks.length > 0) {
        const data = joined(chunks)
        this.buffer = [this.compress ? deflateSync(data, { level: deflateLevel }) : data]
        // the Filter was set when the stream was written; pdfkit must not compress again
        this.compress = false
      }
      super.finalize()
    }
  }
  return BufferedReference as unknown as ReferenceClass
}

/**
 * Makes `doc` write its objects through buffered references and its file into memory; `bytes`
 * returns the file once the document has ended. An encrypted document keeps pdfkit's own path
 * (its references encrypt each stream).
 */
export const bufferedOutput = (doc: PDFKit.PDFDocument): { readonly bytes: () => Buffer } => {
  const hooks = doc as unknown as DocumentHooks
  // the header pdfkit wrote while it was constructed waits in its stream
  const head = (doc as unknown as { read(): Buffer | null }).read()
  const out: Array<string | Uint8Array> = head === null ? [] : [head]
  if (hooks._security != null) throw new Error("buffered output does not encrypt")
  const Base = hooks._root.constructor as ReferenceClass
  Buffered ??= bufferedClass(Base)
  hooks.ref = (data = {}) => {
    const ref = new Buffered!(doc, hooks._offsets.length + 1, data)
    hooks._offsets.push(null)
    hooks._waiting++
    return ref
  }
  hooks._write = (data) => {
    const piece = typeof data === "string" ? `${data}\n` : data
    out.push(piece)
    hooks._offset += piece.length
  }
  return { bytes: () => joined(out) }
}
