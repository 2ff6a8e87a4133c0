import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { fold } from "../../src/services/enforcement/ArchiveSnippet.ts"
import { lexeme, stem, type StemOptions, stopwords } from "../../src/services/enforcement/EnglishStem.ts"
import { engines } from "../support/SqlEngines.ts"

/**
 * Our English stemmer and stopwords against the engine's: every distinct word of the sample data
 * kept beside the project (../shared/data, absent in some checkouts) and a list of words the rules
 * treat specially, each as `ts_lexize('english_stem', …)` and as `to_tsvector('english', …)` see it.
 * Any difference fails, so the snippet highlights exactly what the stored vector matched.
 */

const shared = fileURLToPath(new URL("../../../shared/data/", import.meta.url))
const haveShared = existsSync(shared)
if (!haveShared) console.log("stemmer parity: ../shared/data is absent, only the listed words are compared")

const filesUnder = (folder: string): Array<string> =>
  readdirSync(folder).flatMap((name) => {
    const path = join(folder, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })

const wordsOf = (text: string) => fold(text).split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0)

// the exceptional forms, the region prefixes, y as a consonant, each step's suffixes and conditions,
// apostrophes, numbers and letters with digits, accents, letters beyond ASCII and beyond the basic plane
const listed = [
  ..."skis skies sky dying lying tying idly gently ugly early only singly news howe atlas cosmos bias andes"
    .split(" "),
  ..."inning innings outing outings canning cannings herring herrings earring earrings proceed proceeds exceed"
    .split(" "),
  ..."exceeded succeed succeeding proceeding generously generous general generate generation generic gener"
    .split(" "),
  ..."communism communication community commune commun arsenal arsenic arsen".split(" "),
  ..."y ya yy yes yesterday youth yellow yearly yield yielded yyy boy boys toy toying played playing sayying"
    .split(" "),
  ..."cry cried cries ties tied died dies flies shyly dryly enjoyed obeying sayings employees ayy eyed"
    .split(" "),
  ..."caresses ponies gas gaps kiwis this us bus gases consensus class classes abyss ss ies"
    .split(" "),
  ..."feed agreed agreedly bleed needed exceedingly surprisingly hoping hoped hopping hopped luxuriating troubled"
    .split(" "),
  ..."sized filing failing fizzed added adding egged odder offed aahed inning hissed hissing fuzzed bled"
    .split(" "),
  ..."rational national conditional valencies hesitancy dependably differently analogies archaeology biology"
    .split(" "),
  ..."fullness hopefulness hopefully carelessly formality sensibility possibly radically electrical goodness"
    .split(" "),
  ..."formative adjustable replacement adjustment dependent adoption revision controlling rolling criticism"
    .split(" "),
  ..."reexport reexports licensed licensing licenses exporting exportation exporters violations aircraft"
    .split(" "),
  ..."semiconductors oscilloscopes consignee consignees abetting aiding knowledge entity entities regulations"
    .split(" "),
  ..."ably hopelessly apology logical cheerfully ization izations alize icate ative atively ement ement"
    .split(" "),
  "'s",
  "''s",
  "'s'",
  "'tis",
  "company's",
  "companies'",
  "o'clock",
  "don't",
  "rock'n'roll",
  ..."1 12 123 1990s 3a001 3a001s 5e002 0a919 600series 9x515 abc1 a1b2 1e5 2nd 21st".split(" "),
  ...wordsOf("Société Générale exporté naïve café résumé Straße Ørsted Łódź Æon λόγος экспорт 𝒜pples"),
  "𠜎ies",
  "𠜎yed",
  "ab𠜎ing",
  "6e00x",
  "a".repeat(999) + "s",
  "a".repeat(1_000) + "s",
  "é".repeat(500) + "ies",
  ...stopwords
]

const vocabulary = [
  ...new Set([
    ...listed,
    ...(haveShared ? filesUnder(shared).flatMap((path) => wordsOf(readFileSync(path, "utf8"))) : [])
  ])
]

/** Only runs of letters and digits reach the dictionaries through the parser. */
const plainWord = /^[\p{L}\p{N}]+$/u

for (const engine of engines) {
  describe(`English stemmer parity on ${engine.name}`, () => {
    it.layer(engine.empty, { timeout: 120_000 })((it) => {
      it.effect("stems and drops stopwords as the engine's english configuration does", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient
          // PostgreSQL 15 and older ship a Snowball release that undoubles `added` to `ad`
          const [flavour] = yield* sql<{ legacy: boolean }>`
            SELECT ts_lexize('english_stem', 'added') = '{ad}' AS legacy`
          const options: StemOptions = { legacyUndouble: flavour?.legacy === true }
          const rows = yield* sql<{ word: string; stemmed: Array<string>; vector: Array<string>; tokens: number }>`
            SELECT word, ts_lexize('english_stem', word) AS stemmed,
              tsvector_to_array(to_tsvector('english', word)) AS vector,
              (SELECT count(*) FROM ts_parse('default', word))::int AS tokens
            FROM unnest(string_to_array(${vocabulary.join("\n")}, E'\n')) AS word`
          expect(rows).toHaveLength(vocabulary.length)
          const stemDifferences = rows.flatMap(({ stemmed, word }) => {
            const ours = stopwords.has(word) ? [] : [stem(word, options)]
            return JSON.stringify(ours) === JSON.stringify(stemmed) ? [] : [{ word, ours, engine: stemmed }]
          })
          expect(stemDifferences).toEqual([])
          // the parser reads digits, `e` and digits as a number in scientific notation, and the rest
          // (`6e00x`: `6e00`, `x`) as another word: a word like that is highlighted whole
          const split = rows.filter(({ tokens, word }) => plainWord.test(word) && tokens > 1).map(({ word }) => word)
          expect(split.filter((word) => !/^[0-9]+e[0-9]/.test(word))).toEqual([])
          const lexemeDifferences = rows.flatMap(({ tokens, vector, word }) => {
            if (!plainWord.test(word) || tokens > 1) return []
            const found = lexeme(word, options)
            const ours = found === null ? [] : [found]
            return JSON.stringify(ours) === JSON.stringify(vector) ? [] : [{ word, ours, engine: vector }]
          })
          expect(lexemeDifferences).toEqual([])
          // the comparison covers what it should: every stopword is one on the engine, and words were stemmed
          expect(rows.filter(({ stemmed }) => stemmed.length === 0).map(({ word }) => word).sort())
            .toEqual([...stopwords].sort())
          expect(rows.filter(({ stemmed, word }) => stemmed.length === 1 && stemmed[0] !== word).length)
            .toBeGreaterThan(haveShared ? 10_000 : 150)
        }))
    })
  })
}

describe("English stemmer", () => {
  it("follows the engine's Snowball release on a double letter after -ed and -ing", () => {
    expect(["added", "adding", "egged", "hopped"].map((word) => stem(word))).toEqual(["add", "add", "egg", "hop"])
    expect(["added", "egged", "hopped"].map((word) => stem(word, { legacyUndouble: true }))).toEqual([
      "ad",
      "eg",
      "hop"
    ])
  })

  it("gives words with digits whole and stopwords nothing, as the english configuration does", () => {
    expect([lexeme("3a001s"), lexeme("1990s"), lexeme("the"), lexeme("companies")]).toEqual([
      "3a001s",
      "1990s",
      null,
      "compani"
    ])
  })
})
