import { lexeme, type StemOptions } from "./EnglishStem.ts"

/**
 * A search hit's highlighted passage, built from the text the search statement returns (party,
 * title and a window of the document's text). A word is highlighted when the `english`
 * configuration sees it as a query word: same lexeme (folded, stopwords dropped, stemmed; see
 * EnglishStem.ts), the last query word as a prefix, as `tsQuery` asks the engine. Words are runs of
 * letters and digits, highlighted in the original text, so accents stay as written.
 *
 * Up to two fragments of at most `maxWords` words, each around a highlight, the second preferring
 * query words the first lacks (see `fragments`), shown in text order and joined by ` … ` (by a
 * space where they touch); whitespace normalised. A text without a highlight shows its first
 * `maxWords` words. Only words of the given text are returned, whole (a word is what lies between
 * white space), with `**` around the highlighted runs of letters and digits in them.
 */

/** As `ts_headline` was asked for: two fragments of at most 30 words. */
export const maxWords = 30
const minWords = 12
/** Words a highlight needs beside it, where its fragment is cut, to count as shown. */
const context = 3
const maxFragments = 2
export const fragmentDelimiter = " … "

/** A query word as the engine matches it: a lexeme, equal or (the last word) as a prefix. */
interface Key {
  readonly lexeme: string
  readonly prefix: boolean
}

/** Case and accents folded, as both the stored vector and the query see words. */
export const fold = (text: string) => text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()

const nonAscii = /[^\x00-\x7f]/
const letterOrDigitRun = /[\p{L}\p{N}]+/gu
const wordPart = /[\p{L}\p{M}\p{N}]+/gu
const chunk = /\S+/g

const isAsciiLetterOrDigit = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122)

/** A word (text between white space) and which keys its letter-and-digit runs match, as bits. */
interface Word {
  readonly text: string
  readonly keys: number
  /** Where each matching run starts and ends in `text`. */
  readonly marks: ReadonlyArray<number>
}

interface Span {
  readonly start: number
  readonly end: number
}

const bitCount = (bits: number) => {
  let n = 0
  for (let b = bits; b !== 0; b &= b - 1) n++
  return n
}

/**
 * The highlighter for one query's folded terms (see `queryTerms`): its lexemes are computed once,
 * and each distinct word's once per highlighter (a page of hits shares most words).
 */
export const highlighter = (terms: ReadonlyArray<string>, options: StemOptions = {}) => {
  const keys: Array<Key> = []
  terms.forEach((term, i) => {
    const found = lexeme(term, options)
    const prefix = i === terms.length - 1
    if (found !== null && !keys.some((key) => key.lexeme === found && key.prefix === prefix)) {
      keys.push({ lexeme: found, prefix })
    }
  })
  // a lexeme starts with its word's first letter, so other words need no stemming
  const firstLetters = new Set(keys.map((key) => key.lexeme[0]!))
  // as character codes, lower case set by the 0x20 bit (which leaves digits as they are)
  const firstCodes = new Set([...firstLetters].map((letter) => letter.charCodeAt(0) | 0x20))
  const known = new Map<string, number>()

  /** The keys a folded run of letters and digits matches, as bits. */
  const keysOfPart = (part: string): number => {
    if (!firstLetters.has(part[0]!)) return 0
    const cached = known.get(part)
    if (cached !== undefined) return cached
    const word = lexeme(part, options)
    let bits = 0
    if (word !== null) {
      keys.forEach((key, i) => {
        if (key.prefix ? word.startsWith(key.lexeme) : word === key.lexeme) bits |= 1 << i
      })
    }
    known.set(part, bits)
    return bits
  }

  /** The keys a run of letters, marks and digits matches: each folded part of it counts. */
  const keysOfRun = (run: string): number => {
    if (!nonAscii.test(run)) return firstLetters.has(run[0]!.toLowerCase()) ? keysOfPart(run.toLowerCase()) : 0
    let bits = 0
    for (const [part] of fold(run).matchAll(letterOrDigitRun)) bits |= keysOfPart(part)
    return bits
  }

  /** Where `word`'s matching runs of letters and digits are (start, end pairs), and their keys. */
  const marked = (word: string): Word => {
    // (no closures here: the loader names each one it creates, at a cost per word)
    let keys = 0
    const marks: Array<number> = []
    let i = 0
    // ASCII, the usual case, without a regular expression: runs of letters and digits
    while (i < word.length) {
      let code = word.charCodeAt(i)
      while (i < word.length && !isAsciiLetterOrDigit(code) && code < 128) code = word.charCodeAt(++i)
      if (i >= word.length || code >= 128) break
      const start = i
      while (i < word.length && isAsciiLetterOrDigit(code)) code = word.charCodeAt(++i)
      if (code >= 128 && i < word.length) {
        i = start
        break
      }
      if (firstCodes.has(word.charCodeAt(start) | 0x20)) {
        const bits = keysOfPart(word.slice(start, i).toLowerCase())
        if (bits !== 0) {
          keys |= bits
          marks.push(start, i)
        }
      }
    }
    if (i < word.length) {
      for (const run of word.slice(i).matchAll(wordPart)) {
        const bits = keysOfRun(run[0])
        if (bits !== 0) {
          keys |= bits
          marks.push(i + run.index, i + run.index + run[0].length)
        }
      }
    }
    return { text: word, keys, marks }
  }

  const words = (text: string): Array<Word> => Array.from(text.matchAll(chunk), ([word]) => marked(word))

  return (text: string): string | null => {
    const all = words(text)
    if (all.length === 0) return null
    const chosen = keys.length === 0 ? [] : fragments(all)
    const spans = chosen.length === 0 ? [{ start: 0, end: Math.min(maxWords, all.length) }] : chosen
    return spans.map((span, i) => {
      const shown = all.slice(span.start, span.end).map(highlighted).join(" ")
      const before = spans[i - 1]
      return before === undefined ? shown : `${before.end === span.start ? " " : fragmentDelimiter}${shown}`
    }).join("")
  }
}

const highlighted = ({ marks, text }: Word) => {
  if (marks.length === 0) return text
  let out = ""
  let from = 0
  for (let i = 0; i < marks.length; i += 2) {
    out += `${text.slice(from, marks[i])}**${text.slice(marks[i], marks[i + 1])}**`
    from = marks[i + 1]!
  }
  return out + text.slice(from)
}

/**
 * Up to `maxFragments` spans of words, in text order; none when no word is highlighted. A span is
 * `maxWords` words (or what its region holds) centred on one highlight; the highlights it shows with
 * `context` words on each side where it is cut count for it. The best span covers the most query
 * words not shown yet, then the most query words, then the most highlights; the earliest wins a tie.
 * A highlight it shows without that context is cut off instead (the span stopping before it, if
 * `minWords` remain), to be the centre of the next span, which then continues the text.
 */
const fragments = (words: ReadonlyArray<Word>): Array<Span> => {
  const hits = words.flatMap((word, at) => (word.keys === 0 ? [] : [at]))
  const chosen: Array<Span> = []
  let covered = 0
  for (let n = 0; n < maxFragments; n++) {
    let best: { readonly centre: number; readonly span: Span; readonly score: ReadonlyArray<number> } | undefined
    for (const region of freeRegions(chosen, words.length)) {
      for (const centre of hits) {
        if (centre < region.start || centre >= region.end) continue
        const span = around(centre, region)
        let bits = 0
        const inside = shownHits(hits, span, cutsOf(span, chosen, words.length))
        for (const at of inside) bits |= words[at]!.keys
        const score = [bitCount(bits & ~covered), bitCount(bits), inside.length]
        if (best === undefined || better(score, best.score)) best = { centre, span, score }
      }
    }
    if (best === undefined) break
    const { centre, span } = best
    const cut = cutsOf(span, chosen, words.length)
    const shown = shownHits(hits, span, cut)
    const bare = hits.filter((at) => at >= span.start && at < span.end && !shown.includes(at))
    const before = cut.start ? bare.filter((at) => at < centre).at(-1) : undefined
    const after = cut.end ? bare.find((at) => at > centre) : undefined
    const start = before !== undefined && span.end - (before + 1) >= minWords ? before + 1 : span.start
    const end = after !== undefined && after - start >= minWords ? after : span.end
    chosen.push({ start, end })
    for (let at = start; at < end; at++) covered |= words[at]!.keys
    chosen.sort((a, b) => a.start - b.start)
  }
  return chosen
}

/** Whether the span's start and end cut the text (not at its ends, nor where a chosen span goes on). */
const cutsOf = (span: Span, chosen: ReadonlyArray<Span>, length: number) => ({
  start: span.start > 0 && !chosen.some((other) => other.end === span.start),
  end: span.end < length && !chosen.some((other) => other.start === span.end)
})

/** The highlights a span shows with `context` words beside them where it is cut. */
const shownHits = (hits: ReadonlyArray<number>, span: Span, cut: { readonly start: boolean; readonly end: boolean }) =>
  hits.filter((at) =>
    at >= span.start && at < span.end && (!cut.start || at - span.start >= context) &&
    (!cut.end || span.end - 1 - at >= context)
  )

/** Strictly better: more on the first count that differs (an equal score keeps the earlier span). */
const better = (score: ReadonlyArray<number>, than: ReadonlyArray<number>) => {
  for (let i = 0; i < score.length; i++) if (score[i] !== than[i]) return score[i]! > than[i]!
  return false
}

/** The words not yet shown, as regions between the chosen spans. */
const freeRegions = (chosen: ReadonlyArray<Span>, length: number): Array<Span> => {
  const regions: Array<Span> = []
  let start = 0
  for (const span of chosen) {
    if (span.start > start) regions.push({ start, end: span.start })
    start = span.end
  }
  if (start < length) regions.push({ start, end: length })
  return regions
}

/** `maxWords` words of the region (all, if fewer) with `centre` as near their middle as the region allows. */
const around = (centre: number, region: Span): Span => {
  const size = Math.min(maxWords, region.end - region.start)
  const start = Math.max(region.start, Math.min(centre - Math.floor((size - 1) / 2), region.end - size))
  return { start, end: start + size }
}
