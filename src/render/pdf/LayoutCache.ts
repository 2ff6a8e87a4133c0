import type * as fontkit from "fontkit"

/**
 * pdfkit lays text out word by word and caches each word's glyph run on the font object it makes
 * for one document, so every document laid the same words out again through fontkit (most of
 * the cost of setting a line). The runs depend only on the fontkit face and the word (pdfkit
 * scales them by the face's units per em and never changes them afterwards), so one cache per
 * face serves every document. Runs in scripts shaped as a whole (Arabic, Hebrew, Thai,
 * Devanagari, Greek and Cyrillic in the Noto faces: pdfkit passes OpenType features, here none)
 * were shaped through the face's GSUB/GPOS tables on every measurement and every line drawn; they
 * are kept the same way, by face and text. Both are bounded: past `maxWords` entries a face starts
 * afresh, and only the `maxFaces` faces used last keep theirs (fallback faces come and go with the
 * scripts of the documents rendered; a certificate with names in nine scripts uses 28 faces).
 */
const maxWords = 4_000
const maxFaces = 40

interface Run {
  readonly glyphs: ReadonlyArray<unknown>
  readonly positions: ReadonlyArray<unknown>
  readonly advanceWidth: number
}

interface EmbeddedFont {
  readonly font?: fontkit.Font
  layoutCache?: Record<string, unknown>
  shapedCache?: Record<string, Run>
  layout: (text: string, features?: unknown, onlyWidth?: boolean) => unknown
  layoutRun(text: string, features?: unknown): Run
  layoutCached(text: string): Run
  encode: (text: string, features?: unknown) => [Array<string>, ReadonlyArray<unknown>]
  readonly subset: { includeGlyph(id: number): number }
  readonly widths: Array<number | undefined>
  readonly unicode: Array<unknown>
  readonly scale: number
}

/** Glyph ids in the subset as pdfkit writes them (4 hex digits), made once per id, not per glyph. */
const hexIds: Array<string> = []

/** pdfkit's `encode`, with each subset id's hex text taken from the table above: the same output. */
function encodeWithHexIds(
  this: EmbeddedFont,
  text: string,
  features?: unknown
): [Array<string>, ReadonlyArray<unknown>] {
  const { glyphs, positions } = this.layout(text, features) as {
    glyphs: ReadonlyArray<{ id: number; advanceWidth: number; codePoints: unknown }>
    positions: ReadonlyArray<unknown>
  }
  const res = new Array<string>(glyphs.length)
  for (let i = 0; i < glyphs.length; i++) {
    const glyph = glyphs[i]!
    const gid = this.subset.includeGlyph(glyph.id)
    res[i] = hexIds[gid] ??= `0000${gid.toString(16)}`.slice(-4)
    if (this.widths[gid] == null) this.widths[gid] = glyph.advanceWidth * this.scale
    if (this.unicode[gid] == null) this.unicode[gid] = glyph.codePoints
  }
  return [res, positions]
}

/**
 * pdfkit's word-by-word layout, with the same words and results: it tested each character
 * against a new array and copied the line's glyphs and positions once per word.
 */
function layoutByWords(this: EmbeddedFont, text: string, features?: unknown, onlyWidth?: boolean) {
  if (features) {
    // only runs shaped with the default features (an empty list) are shared
    if (!Array.isArray(features) || features.length > 0 || this.shapedCache === undefined) {
      return this.layoutRun(text, features)
    }
    return this.shapedCache[text] ??= this.layoutRun(text, features)
  }
  const glyphs: Array<unknown> | null = onlyWidth ? null : []
  const positions: Array<unknown> | null = onlyWidth ? null : []
  let advanceWidth = 0
  let last = 0
  const length = text.length
  for (let index = 0; index <= length; index++) {
    const code = text.charCodeAt(index)
    // a word ends after a space or a tab, and at the end of the text
    if (code === 32 || code === 9 || (index === length && last < index)) {
      const run = this.layoutCached(last === 0 && index + 1 >= length ? text : text.slice(last, index + 1))
      if (glyphs !== null && positions !== null) {
        for (let i = 0; i < run.glyphs.length; i++) glyphs.push(run.glyphs[i])
        for (let i = 0; i < run.positions.length; i++) positions.push(run.positions[i])
      }
      advanceWidth += run.advanceWidth
      last = index + 1
    }
  }
  return { glyphs, positions, advanceWidth }
}

/** Caches by face, in order of last use. */
const caches = new Map<fontkit.Font, { words: Record<string, unknown>; shaped: Record<string, Run> }>()

/** Makes the fonts `doc` opens share their word layouts with other documents using the same face. */
export const sharedLayouts = (doc: PDFKit.PDFDocument): { readonly trim: () => void } => {
  const hooks = doc as unknown as { _font: EmbeddedFont | null; font: (...args: Array<unknown>) => unknown }
  const open = hooks.font.bind(doc)
  const seen = new Set<EmbeddedFont>()
  hooks.font = (...args) => {
    open(...args)
    const font = hooks._font
    if (font !== null && !seen.has(font)) {
      seen.add(font)
      // a font with pdfkit's layout cache switched off, or a standard font, keeps pdfkit's own behaviour
      if (font.font !== undefined && font.layoutCache !== undefined) {
        let shared = caches.get(font.font)
        if (shared === undefined) shared = { words: Object.create(null), shaped: Object.create(null) }
        caches.delete(font.font)
        caches.set(font.font, shared)
        if (caches.size > maxFaces) caches.delete(caches.keys().next().value!)
        font.layoutCache = shared.words
        font.shapedCache = shared.shaped
        font.layout = layoutByWords
        font.encode = encodeWithHexIds
      }
    }
    return doc
  }
  return {
    // called once a document is laid out: a face whose cache grew past the bound starts afresh
    trim: () => {
      for (const font of seen) {
        const shared = font.font === undefined ? undefined : caches.get(font.font)
        if (shared === undefined) continue
        if (Object.keys(shared.words).length > maxWords) shared.words = Object.create(null)
        if (Object.keys(shared.shaped).length > maxWords) shared.shaped = Object.create(null)
      }
    }
  }
}
