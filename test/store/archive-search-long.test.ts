import { SqlClient } from "@effect/sql/SqlClient"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { synthetic } from "../../bench/lib/SyntheticArchive.ts"
import * as ArchiveRepo from "../../src/services/enforcement/ArchiveRepo.ts"
import { accentFreeCharacters } from "../../src/services/enforcement/ArchiveSearch.ts"
import { forEachEngine } from "../support/SqlEngines.ts"

/**
 * Snippets of long texts (as real enforcement PDFs run): the passage comes from around the first
 * occurrence of a query word however deep it is, whether the search for it stops in one of the
 * text's beginnings or reads the whole text, with or without accents to drop on the way.
 */

/** Filler of at least `chars` characters, with the punctuation PDFs' text carries. */
const filler = (tag: string, chars: number, accents: boolean) => {
  let text = ""
  for (let n = 0; text.length < chars; n++) {
    text += `${tag}${n} section § 764.2 — the respondent’s ${accents && n % 40 === 7 ? "Société " : ""}order `
  }
  return text
}

/** A text whose first `word` is at about `at`, with `first` words around it, and later ones elsewise. */
const body = (tag: string, word: string | null, at: number, chars: number, accents = false) =>
  word === null
    ? filler(tag, chars, accents)
    : `${filler(tag, at, accents)} before${tag} ${word} after${tag} ${filler(`${tag}x`, chars / 2, accents)} ` +
      `elsewhere ${word.toLowerCase()} again ${filler(`${tag}y`, chars / 2, accents)}`

const base = synthetic().slice(0, 8)
const cases = [
  { query: "quokka", word: "quokka", at: 3_000, chars: 80_000 },
  // cut by the 8,000-character beginning: found in the whole text
  { query: "megalaserbeam", word: "megalaserbeam", at: 7_990, chars: 80_000 },
  { query: "wombat", word: "wombat", at: 30_000, chars: 80_000, accents: true },
  // long enough for the 64,000-character beginning to be searched
  { query: "platypus", word: "platypus", at: 40_000, chars: 300_000 },
  { query: "numbat", word: "numbat", at: 75_000, chars: 80_000 },
  // the first occurrence carries accents the query leaves out
  { query: "zebra", word: "Zébra", at: 20_000, chars: 80_000, accents: true }
]

const writes = [
  ...cases.map(({ accents, at, chars, word }, i): ArchiveRepo.ArchiveWrite => ({
    ...base[i]!,
    body: body(`t${i}`, word, at, chars, accents),
    textChars: null
  })),
  // found by its party only: the snippet shows the party and the text's beginning
  { ...base[6]!, party: "Quagga Holdings", body: body("t6", null, 0, 80_000, true), textChars: null }
]

forEachEngine("archive search in long texts", (it) => {
  it.effect("takes the passage from around the first occurrence, however deep", () =>
    Effect.gen(function*() {
      const repo = yield* ArchiveRepo.make
      yield* repo.upsert(writes)
      for (const [i, { query, word }] of cases.entries()) {
        const { hits } = yield* repo.search(query, undefined, 20)
        expect(hits.map((hit) => hit.row.id)).toEqual([writes[i]!.id])
        expect(hits[0]?.snippet).toContain(`beforet${i} **${word}** aftert${i}`)
        expect(hits[0]?.snippet).not.toContain("elsewhere")
      }
      const { hits } = yield* repo.search("quagga", undefined, 20)
      expect(hits.map((hit) => hit.snippet)).toEqual([
        expect.stringMatching(/^\*\*Quagga\*\* Holdings Order Relating to .* t60 section § 764\.2 — the respondent’s/)
      ])
    }))

  it.effect("leaves accents undropped only in text that has none to drop", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      // every character of the basic plane the text is left alone for: decomposition changes none
      const [row] = yield* sql<{ listed: number; changed: number }>`
        SELECT count(*)::int AS listed,
          count(*) FILTER (WHERE normalize(chr(i), NFD) <> chr(i) OR chr(i) ~ '[\\u0300-\\u036f]')::int AS changed
        FROM generate_series(1, 65533) AS i
        WHERE (i < 55296 OR i > 57343) AND chr(i) ~ ('^[' || ${accentFreeCharacters} || ']$')`
      expect(row).toEqual({ listed: expect.any(Number), changed: 0 })
      expect(row!.listed).toBeGreaterThan(300)
      // and no accented letter is among them
      const [accented] = yield* sql<{ free: boolean }>`
        SELECT ${"Société"} ~ ('^[' || ${accentFreeCharacters} || ']+$') AS free`
      expect(accented?.free).toBe(false)
    }))
})
