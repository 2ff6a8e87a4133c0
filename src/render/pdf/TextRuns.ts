import type { Bidi } from "bidi-js"
import { createRequire } from "node:module"
import type { Fallback, FallbackFace } from "./FallbackFonts.ts"
import { hanStyleOf } from "./FallbackFonts.ts"
import { type FontName, fonts } from "./Fonts.ts"

/**
 * A string cut into runs that one face can draw, in the order they appear on the line: the
 * primary face where it has the glyph, else the first fallback face that does (so a name mixing
 * Latin, Cyrillic and Japanese prints on one line). Right-to-left text is ordered by the Unicode
 * bidirectional algorithm (bidi-js); fontkit shapes each Arabic or Hebrew run and lays its glyphs
 * out right to left.
 */
export interface TextRun {
  readonly text: string
  readonly face: FontName | FallbackFace
}

// a UMD file whose types declare an ES default export: required, so both agree on what it is
const bidi = (createRequire(import.meta.url)("bidi-js") as () => Bidi)()

const ascii = /^[\t\n\r\x20-\x7e]*$/
const rightToLeft = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/
const letter = /\p{L}|\p{M}/u

const coverage = new Map<FontName, Map<number, boolean>>()

/** Whether the embedded face `name` has a glyph for the code point (cached: a property of the face). */
export const faceCovers = (name: FontName, codePoint: number): boolean => {
  let known = coverage.get(name)
  if (known === undefined) coverage.set(name, known = new Map())
  let covers = known.get(codePoint)
  if (covers === undefined) known.set(codePoint, covers = fonts().faces[name].hasGlyphForCodePoint(codePoint))
  return covers
}

const weightOf = (name: FontName): 400 | 600 => /SemiBold|Bold/.test(name) ? 600 : 400

const draws = (face: FontName | FallbackFace, code: number) =>
  typeof face === "string" ? faceCovers(face, code) : face.font.hasGlyphForCodePoint(code)

/** Visual order of runs by their embedding levels (rule L2 of UAX #9, applied to whole runs). */
const reorder = <A extends { readonly level: number }>(runs: Array<A>): Array<A> => {
  const highest = Math.max(...runs.map((run) => run.level))
  const lowestOdd = Math.min(...runs.map((run) => run.level).filter((level) => level % 2 === 1))
  for (let level = highest; level >= lowestOdd; level--) {
    let start = -1
    for (let i = 0; i <= runs.length; i++) {
      const inside = i < runs.length && runs[i]!.level >= level
      if (inside && start < 0) start = i
      if (!inside && start >= 0) {
        runs.splice(start, i - start, ...runs.slice(start, i).reverse())
        start = -1
      }
    }
  }
  return runs
}

/** A right-to-left run fontkit will not reverse itself (no right-to-left letters): reversed and mirrored here. */
const mirrored = (text: string) => [...text].reverse().map((char) => bidi.getMirroredCharacter(char) ?? char).join("")

const lineRuns = (line: string, primary: FontName, fallback: Fallback): Array<TextRun> => {
  const weight = weightOf(primary)
  const han = hanStyleOf(line)
  const levels = rightToLeft.test(line) ? bidi.getEmbeddingLevels(line).levels : undefined
  const pieces: Array<{ text: string; face: FontName | FallbackFace; level: number }> = []
  let index = 0
  for (const char of line) {
    const code = char.codePointAt(0)!
    const level = levels ? levels[index]! : 0
    index += char.length
    const previous = pieces[pieces.length - 1]
    // spaces, digits and punctuation stay in the face of the run they sit in, so runs are not cut at every space
    const face = previous && !letter.test(char) && draws(previous.face, code)
      ? previous.face
      : faceCovers(primary, code)
      ? primary
      : fallback.faceFor(code, weight, han) ?? primary
    if (previous && previous.face === face && previous.level === level) previous.text += char
    else pieces.push({ text: char, face, level })
  }
  if (pieces.length === 0) return [{ text: line, face: primary }]
  return reorder(pieces).map(({ face, level, text }) => ({
    face,
    text: level % 2 === 1 && !rightToLeft.test(text) ? mirrored(text) : text
  }))
}

/** The runs of `text` in `primary`, line by line in visual order; ASCII text is one run without further work. */
export const textRuns = (text: string, primary: FontName, fallback: Fallback): ReadonlyArray<TextRun> => {
  if (ascii.test(text)) return [{ text, face: primary }]
  return text.split("\n").flatMap((line, i) => [
    ...(i > 0 ? [{ text: "\n", face: primary }] : []),
    ...lineRuns(line, primary, fallback)
  ])
}

/** Code points of `text` that neither the primary face nor any loaded fallback can draw. */
export const unprintable = (text: string, primary: FontName, fallback: Fallback): number => {
  if (ascii.test(text)) return 0
  const han = hanStyleOf(text)
  let missing = 0
  for (const char of text) {
    const code = char.codePointAt(0)!
    if (code <= 0x7e || /\s/.test(char) || faceCovers(primary, code)) continue
    if (fallback.faceFor(code, weightOf(primary), han) === undefined) missing++
  }
  return missing
}
