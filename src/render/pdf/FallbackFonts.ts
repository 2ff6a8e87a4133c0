import type * as fontkit from "fontkit"
import { create } from "fontkit"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import decompress from "wawoff2/decompress.js"
import { atWeight } from "./VariableFonts.ts"

/**
 * Faces for the scripts the IBM Plex faces lack (Greek in the serif, Arabic, Hebrew, Thai,
 * Devanagari, Chinese, Japanese, Korean): the Noto Sans variable fonts of the
 * `@fontsource-variable/*` packages, which ship each face cut into WOFF2 files by Unicode range
 * (about 120 per CJK face). Only the files holding characters a document uses are read, decoded
 * and instanced at the weight it needs; pdfkit then embeds the subset of glyphs drawn.
 */
type FamilyName = "noto" | "hebrew" | "arabic" | "thai" | "jp" | "sc" | "tc" | "kr"

const families: Readonly<Record<FamilyName, { readonly pkg: string; readonly stem: string }>> = {
  noto: { pkg: "@fontsource-variable/noto-sans", stem: "noto-sans" },
  hebrew: { pkg: "@fontsource-variable/noto-sans-hebrew", stem: "noto-sans-hebrew" },
  arabic: { pkg: "@fontsource-variable/noto-sans-arabic", stem: "noto-sans-arabic" },
  thai: { pkg: "@fontsource-variable/noto-sans-thai", stem: "noto-sans-thai" },
  jp: { pkg: "@fontsource-variable/noto-sans-jp", stem: "noto-sans-jp" },
  sc: { pkg: "@fontsource-variable/noto-sans-sc", stem: "noto-sans-sc" },
  tc: { pkg: "@fontsource-variable/noto-sans-tc", stem: "noto-sans-tc" },
  kr: { pkg: "@fontsource-variable/noto-sans-kr", stem: "noto-sans-kr" }
}

/** Han characters are drawn in the regional style the rest of the text suggests. */
const hanOrders = {
  japanese: ["jp", "tc", "sc", "kr"],
  korean: ["kr", "tc", "sc", "jp"],
  chinese: ["sc", "tc", "jp", "kr"]
} as const satisfies Record<string, ReadonlyArray<FamilyName>>

export type HanStyle = keyof typeof hanOrders

export const hanStyleOf = (text: string): HanStyle =>
  /[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]/.test(text)
    ? "japanese"
    : /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/.test(text)
    ? "korean"
    : "chinese"

const orderFor = (han: HanStyle): ReadonlyArray<FamilyName> => ["noto", "hebrew", "arabic", "thai", ...hanOrders[han]]

/** Scripts whose glyphs depend on their neighbours: fontkit shapes such runs as a whole. */
const complexFamilies = new Set<FamilyName>(["arabic", "hebrew", "thai", "noto"])

interface Chunk {
  readonly family: FamilyName
  readonly file: string
  readonly ranges: ReadonlyArray<readonly [number, number]>
}

const require = createRequire(import.meta.url)

const parseRanges = (value: string): Array<readonly [number, number]> =>
  value.split(",").map((range) => {
    const [from, to] = range.trim().replace(/^U\+/i, "").split("-")
    const start = parseInt(from!, 16)
    return [start, to === undefined ? start : parseInt(to, 16)] as const
  })

let chunkTable: ReadonlyArray<Chunk> | undefined

/** Every WOFF2 file of every family with the ranges it covers, from the packages' `unicode.json`. */
const chunks = (): ReadonlyArray<Chunk> => {
  if (chunkTable) return chunkTable
  const table: Array<Chunk> = []
  for (
    const [family, { pkg, stem }] of Object.entries(families) as Array<[FamilyName, { pkg: string; stem: string }]>
  ) {
    const directory = dirname(require.resolve(`${pkg}/package.json`))
    const unicode = JSON.parse(readFileSync(join(directory, "unicode.json"), "utf8")) as Record<string, string>
    for (const [key, ranges] of Object.entries(unicode)) {
      // the Latin files repeat what the Plex faces already draw
      if (key === "latin") continue
      const subset = key.replace(/^\[(\d+)\]$/, "$1")
      table.push({
        family,
        file: join(directory, "files", `${stem}-${subset}-wght-normal.woff2`),
        ranges: parseRanges(ranges)
      })
    }
  }
  return chunkTable = table
}

const inRanges = (ranges: Chunk["ranges"], codePoint: number) =>
  ranges.some(([from, to]) => codePoint >= from && codePoint <= to)

/** Decoded files, by path; kept for the life of the process up to a bound (a CJK file is ~100 KB). */
const decoded = new Map<string, Promise<fontkit.Font>>()
const maxDecoded = 160

/**
 * One decode at a time, copied out before the next starts: the decoder answers with a view of
 * its WebAssembly memory, which the next decode reuses.
 */
let decoding: Promise<unknown> = Promise.resolve()
const decode = (woff2: Uint8Array): Promise<Buffer> => {
  const ttf = decoding.then(() => decompress(woff2)).then((view) => Buffer.from(view))
  decoding = ttf.catch(() => undefined)
  return ttf
}

const load = (file: string): Promise<fontkit.Font> => {
  const known = decoded.get(file)
  if (known) return known
  if (decoded.size >= maxDecoded) decoded.delete(decoded.keys().next().value!)
  const font = decode(readFileSync(file)).then(create)
  decoded.set(file, font)
  font.catch(() => decoded.delete(file))
  return font
}

export interface FallbackFace {
  /** The name the face is registered under in a PDF document. */
  readonly key: string
  readonly font: fontkit.Font
  /** Shaped as a whole run (joining scripts, marks, right-to-left order). */
  readonly complex: boolean
}

/** The fallback faces one document needs, loaded before its layout starts. */
export interface Fallback {
  /** The face drawing `codePoint` at `weight` in text of `han` style; none when no embedded face has it. */
  readonly faceFor: (codePoint: number, weight: 400 | 600, han: HanStyle) => FallbackFace | undefined
}

const candidates = (codePoint: number, han: HanStyle): Array<Chunk> => {
  const all = chunks()
  return orderFor(han).flatMap((family) =>
    all.filter((chunk) => chunk.family === family && inRanges(chunk.ranges, codePoint))
  )
}

/**
 * Loads the files drawing the characters of `texts` that `primaryCovers` rejects. Each text is
 * searched in its own Han style; a character no file has stays unprintable (the caller warns).
 */
export const loadFallback = async (
  texts: Iterable<string>,
  primaryCovers: (codePoint: number) => boolean
): Promise<Fallback> => {
  const loaded = new Map<string, fontkit.Font>()
  const wanted = new Map<string, Set<number>>()
  for (const text of texts) {
    if (/^[\t\n\r\x20-\x7e]*$/.test(text)) continue
    const han = hanStyleOf(text)
    for (const char of text) {
      const code = char.codePointAt(0)!
      if (code <= 0x7e || primaryCovers(code)) continue
      ;(wanted.get(han) ?? wanted.set(han, new Set()).get(han)!).add(code)
    }
  }
  const chosen = new Map<string, FallbackFace | undefined>()
  const instances = new Map<string, FallbackFace>()
  const faceOf = (chunk: Chunk, weight: 400 | 600): FallbackFace => {
    const key = `${chunk.file}@${weight}`
    const known = instances.get(key)
    if (known) return known
    const face = {
      key: `fallback-${instances.size}`,
      font: atWeight(loaded.get(chunk.file)!, weight),
      complex: complexFamilies.has(chunk.family)
    }
    instances.set(key, face)
    return face
  }
  // the first file for each character is read in parallel: most characters are found there
  const first = [...wanted].flatMap(([han, codes]) =>
    [...codes].flatMap((code) => candidates(code, han as HanStyle)[0] ?? [])
  )
  const files = [...new Set(first.map((chunk) => chunk.file))]
  ;(await Promise.all(files.map(load))).forEach((font, i) => loaded.set(files[i]!, font))
  for (const [han, codes] of wanted) {
    for (const code of codes) {
      for (const chunk of candidates(code, han as HanStyle)) {
        if (!loaded.has(chunk.file)) loaded.set(chunk.file, await load(chunk.file))
        if (loaded.get(chunk.file)!.hasGlyphForCodePoint(code)) {
          chosen.set(`${han}:${code}`, { key: chunk.file, font: loaded.get(chunk.file)!, complex: false })
          break
        }
      }
    }
  }
  const byFile = new Map(chunks().map((chunk) => [chunk.file, chunk]))
  return {
    faceFor: (codePoint, weight, han) => {
      // a fragment of a text can suggest another Han style than the whole text it was loaded for
      const found = chosen.get(`${han}:${codePoint}`) ?? chosen.get(`chinese:${codePoint}`) ??
        chosen.get(`japanese:${codePoint}`) ?? chosen.get(`korean:${codePoint}`)
      return found ? faceOf(byFile.get(found.key)!, weight) : undefined
    }
  }
}
