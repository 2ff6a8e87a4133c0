import * as fontkit from "fontkit"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { inflateSync } from "node:zlib"

/**
 * The embedded typefaces: IBM Plex Sans (headings, tables, labels) and IBM Plex Serif (body text),
 * from the `@ibm/plex-*` npm packages ("complete" builds: Latin, Latin Extended, Cyrillic, Greek,
 * Vietnamese). They ship as WOFF; converting them to plain TrueType once at start-up spares every
 * document fontkit's pure-JavaScript decompression (most of a render's time otherwise).
 */
export type FontName =
  | "sans"
  | "sansItalic"
  | "sansSemiBold"
  | "sansBold"
  | "serif"
  | "serifItalic"
  | "serifSemiBold"
  | "serifBoldItalic"

const files: Readonly<Record<FontName, string>> = {
  sans: "@ibm/plex-sans/fonts/complete/woff/IBMPlexSans-Regular.woff",
  sansItalic: "@ibm/plex-sans/fonts/complete/woff/IBMPlexSans-Italic.woff",
  sansSemiBold: "@ibm/plex-sans/fonts/complete/woff/IBMPlexSans-SemiBold.woff",
  sansBold: "@ibm/plex-sans/fonts/complete/woff/IBMPlexSans-Bold.woff",
  serif: "@ibm/plex-serif/fonts/complete/woff/IBMPlexSerif-Regular.woff",
  serifItalic: "@ibm/plex-serif/fonts/complete/woff/IBMPlexSerif-Italic.woff",
  serifSemiBold: "@ibm/plex-serif/fonts/complete/woff/IBMPlexSerif-SemiBold.woff",
  serifBoldItalic: "@ibm/plex-serif/fonts/complete/woff/IBMPlexSerif-BoldItalic.woff"
}

const tag = (name: string) => Buffer.from(name, "latin1").readUInt32BE(0)

/**
 * OpenType layout tables are left out: shaping every word through GSUB/GPOS costs more than the
 * rest of a render, and Latin business text needs neither ligatures nor contextual forms.
 */
const dropTables = new Set(["GSUB", "GPOS"].map(tag))

/** WOFF 1.0 (W3C) to the sfnt it wraps: every table inflated, the table directory rebuilt. */
export const woffToSfnt = (woff: Uint8Array): Buffer => {
  const input = Buffer.from(woff.buffer, woff.byteOffset, woff.byteLength)
  if (input.readUInt32BE(0) !== 0x774f4646) throw new Error("not a WOFF 1.0 font")
  const flavor = input.readUInt32BE(4)
  const tables = Array.from({ length: input.readUInt16BE(12) }, (_, i) => {
    const entry = 44 + i * 20
    const offset = input.readUInt32BE(entry + 4)
    const compLength = input.readUInt32BE(entry + 8)
    const origLength = input.readUInt32BE(entry + 12)
    const stored = input.subarray(offset, offset + compLength)
    return {
      tag: input.readUInt32BE(entry),
      checksum: input.readUInt32BE(entry + 16),
      data: compLength < origLength ? inflateSync(stored) : stored
    }
  }).filter((table) => !dropTables.has(table.tag))
  const numTables = tables.length
  const pow2 = 2 ** Math.floor(Math.log2(numTables))
  let size = 12 + numTables * 16
  for (const table of tables) size += (table.data.length + 3) & ~3
  const out = Buffer.alloc(size)
  out.writeUInt32BE(flavor, 0)
  out.writeUInt16BE(numTables, 4)
  out.writeUInt16BE(pow2 * 16, 6)
  out.writeUInt16BE(Math.log2(pow2), 8)
  out.writeUInt16BE(numTables * 16 - pow2 * 16, 10)
  let offset = 12 + numTables * 16
  tables.forEach((table, i) => {
    const record = 12 + i * 16
    out.writeUInt32BE(table.tag, record)
    out.writeUInt32BE(table.checksum, record + 4)
    out.writeUInt32BE(offset, record + 8)
    out.writeUInt32BE(table.data.length, record + 12)
    table.data.copy(out, offset)
    offset += (table.data.length + 3) & ~3
  })
  return out
}

export interface FontSet {
  readonly data: Readonly<Record<FontName, Buffer>>
  /** Parsed once and shared by every document: parsing a face costs more than laying out pages. */
  readonly faces: Readonly<Record<FontName, fontkit.Font>>
  /** True when the body and heading faces can draw this code point. */
  readonly covers: (codePoint: number) => boolean
}

let loaded: FontSet | undefined

/** The fonts, read and converted on first use and kept for the life of the process. */
export const fonts = (): FontSet => {
  if (loaded) return loaded
  const require = createRequire(import.meta.url)
  const data = Object.fromEntries(
    Object.entries(files).map(([name, file]) => [name, woffToSfnt(readFileSync(require.resolve(file)))])
  ) as Record<FontName, Buffer>
  const faces = Object.fromEntries(
    Object.entries(data).map(([name, buffer]) => [name, fontkit.create(buffer)])
  ) as Record<FontName, fontkit.Font>
  const { sans, serif } = faces
  loaded = {
    data,
    faces,
    covers: (codePoint) => serif.hasGlyphForCodePoint(codePoint) && sans.hasGlyphForCodePoint(codePoint)
  }
  return loaded
}
