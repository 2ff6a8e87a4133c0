import * as fontkit from "fontkit"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"

/**
 * The embedded typefaces: IBM Plex Sans (headings, tables, labels) and IBM Plex Serif (body text),
 * TrueType files of the Google Fonts builds (Latin, Latin Extended, Cyrillic, Vietnamese)
 * from the `@expo-google-fonts/ibm-plex-*` packages, which install no scripts.
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
  sans: "@expo-google-fonts/ibm-plex-sans/400Regular/IBMPlexSans_400Regular.ttf",
  sansItalic: "@expo-google-fonts/ibm-plex-sans/400Regular_Italic/IBMPlexSans_400Regular_Italic.ttf",
  sansSemiBold: "@expo-google-fonts/ibm-plex-sans/600SemiBold/IBMPlexSans_600SemiBold.ttf",
  sansBold: "@expo-google-fonts/ibm-plex-sans/700Bold/IBMPlexSans_700Bold.ttf",
  serif: "@expo-google-fonts/ibm-plex-serif/400Regular/IBMPlexSerif_400Regular.ttf",
  serifItalic: "@expo-google-fonts/ibm-plex-serif/400Regular_Italic/IBMPlexSerif_400Regular_Italic.ttf",
  serifSemiBold: "@expo-google-fonts/ibm-plex-serif/600SemiBold/IBMPlexSerif_600SemiBold.ttf",
  serifBoldItalic: "@expo-google-fonts/ibm-plex-serif/700Bold_Italic/IBMPlexSerif_700Bold_Italic.ttf"
}

const tag = (name: string) => Buffer.from(name, "latin1").readUInt32BE(0)

/**
 * OpenType layout tables are left out: shaping every word through GSUB/GPOS costs more than the
 * rest of a render, and Latin business text needs neither ligatures nor contextual forms.
 */
const dropTables = new Set(["GSUB", "GPOS"].map(tag))

/** The same TrueType font without the given tables (table directory rebuilt, data copied). */
export const withoutTables = (font: Uint8Array, drop: ReadonlySet<number>): Buffer => {
  const input = Buffer.from(font.buffer, font.byteOffset, font.byteLength)
  const tables = Array.from({ length: input.readUInt16BE(4) }, (_, i) => {
    const record = 12 + i * 16
    const offset = input.readUInt32BE(record + 8)
    return {
      tag: input.readUInt32BE(record),
      checksum: input.readUInt32BE(record + 4),
      data: input.subarray(offset, offset + input.readUInt32BE(record + 12))
    }
  }).filter((table) => !drop.has(table.tag))
  const count = tables.length
  const pow2 = 2 ** Math.floor(Math.log2(count))
  let size = 12 + count * 16
  for (const table of tables) size += (table.data.length + 3) & ~3
  const out = Buffer.alloc(size)
  out.writeUInt32BE(input.readUInt32BE(0), 0)
  out.writeUInt16BE(count, 4)
  out.writeUInt16BE(pow2 * 16, 6)
  out.writeUInt16BE(Math.log2(pow2), 8)
  out.writeUInt16BE(count * 16 - pow2 * 16, 10)
  let offset = 12 + count * 16
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

/** The fonts, read on first use and kept for the life of the process. */
export const fonts = (): FontSet => {
  if (loaded) return loaded
  const require = createRequire(import.meta.url)
  const data = Object.fromEntries(
    Object.entries(files).map(([name, file]) => [name, withoutTables(readFileSync(require.resolve(file)), dropTables)])
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
