import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { readFileSync } from "node:fs"
import { DefaultMinScore } from "../src/domain/Screening.ts"
import { runSliced } from "../src/services/Cooperative.ts"
import { namesIn } from "../src/services/screening/Aliases.ts"
import * as BulkFile from "../src/services/screening/BulkFile.ts"
import { load, loadSteps } from "../src/services/screening/LoadedList.ts"
import { normalize, TokenClass } from "../src/services/screening/Normalize.ts"
import { sourceCode } from "../src/services/screening/Sources.ts"
import { editDistance, phoneticKeys, similarity } from "../src/services/screening/TokenSimilarity.ts"

const fixture = readFileSync("test/fixtures/screening/consolidated.json", "utf8")
const list = Either.getOrThrow(load(fixture, "2026-11-22T00:00:00.000Z"))

/** Best hit for a query: the listed primary name and its score (0–100). */
const top = (query: string, fuzzy = true) => {
  const hit = list.matcher.search(query, { fuzzy })?.[0]
  return hit === undefined ? undefined : {
    name: list.entries[hit.entry]!.record.name,
    score: Math.round(hit.score * 1000) / 10
  }
}

const sim = (a: string, b: string) => similarity(a, b, phoneticKeys(a), phoneticKeys(b))

describe("normalization", () => {
  it("folds case, punctuation, apostrophes, dotted acronyms and diacritics", () => {
    expect(normalize("AL-HAMADI, Mohammed Yusuf").tokens).toEqual(["al", "hamadi", "mohammed", "yusuf"])
    expect(normalize("Xi’an  O'Brien U.S.A. & Co.").tokens).toEqual(["xian", "obrien", "usa", "and", "co"])
    expect(normalize("Müller Łódź Çelik Øresund Straße").tokens).toEqual([
      "muller",
      "lodz",
      "celik",
      "oresund",
      "strasse"
    ])
  })

  it("transliterates other scripts, splitting syllables of scripts written without spaces", () => {
    expect(normalize("Юрий Гагарин").tokens).toEqual(["yuriy", "gagarin"])
    expect(normalize("ХАЧАТУРОВ").tokens).toEqual(["khachaturov"])
    expect(normalize("金正恩").tokens).toEqual(["jin", "zheng", "en"])
    expect(normalize("Ελληνικά").tokens).toEqual(["ellinika"])
  })

  it("keeps legal-form words, classes them, and gives them one canonical exact key", () => {
    const long = normalize("Orion Limited Liability Company")
    const short = normalize("ORION LLC")
    expect(long.tokens).toEqual(["orion", "limited", "liability", "company"])
    expect(long.classes).toEqual([TokenClass.name, TokenClass.legalForm, TokenClass.legalForm, TokenClass.legalForm])
    expect(long.key).toBe(short.key)
    expect(long.forms).toContainEqual({ text: "llc", mask: 0b1110 })
    expect(normalize("Acme Ltd").key).toBe(normalize("ACME LIMITED").key)
  })

  it("classes honorifics and connecting words", () => {
    expect(normalize("Dr. Sheikh Rustam of the Plant").classes).toEqual([
      TokenClass.honorific,
      TokenClass.honorific,
      TokenClass.name,
      TokenClass.filler,
      TokenClass.filler,
      TokenClass.name
    ])
  })

  it("splits packed listed names into their aliases", () => {
    expect(namesIn("Vertex Components Ltd.; a.k.a. Vertex Parts Ltd.")).toEqual([
      "Vertex Components Ltd.; a.k.a. Vertex Parts Ltd.",
      "Vertex Components Ltd.",
      "Vertex Parts Ltd."
    ])
    expect(namesIn("PEARL (A.K.A. NEI-CHIEN CHU) LI")).toEqual([
      "PEARL (A.K.A. NEI-CHIEN CHU) LI",
      "PEARL LI",
      "NEI-CHIEN CHU"
    ])
    expect(namesIn("Acme Trading; and any successor, sub-unit, or subsidiary thereof")).toEqual([
      "Acme Trading; and any successor, sub-unit, or subsidiary thereof",
      "Acme Trading"
    ])
  })

  it("maps full list names to their query codes", () => {
    expect(sourceCode("Entity List (EL) - Bureau of Industry and Security")).toBe("EL")
    expect(sourceCode("Non-SDN Menu-Based Sanctions List (NS-MBS List) - Treasury Department")).toBe("MBS")
    expect(sourceCode("Military End User (MEU) List - Bureau of Industry and Security")).toBe("MEU")
  })
})

describe("token similarity", () => {
  it("prices edits by length, counts an adjacent swap once and refuses beyond the budget", () => {
    expect(editDistance("karimov", "karmiov")).toBe(1)
    expect(sim("karimov", "karimov")).toBe(1)
    expect(sim("karimov", "karimof")).toBeGreaterThan(0.9)
    expect(sim("karimov", "karmiov")).toBeGreaterThan(0.9)
    expect(sim("park", "pak")).toBeGreaterThan(0.8)
    expect(sim("karimov", "petrov")).toBe(0)
    expect(sim("al", "an")).toBe(0)
  })

  it("rescues transliteration variants by sound", () => {
    expect(sim("hussein", "husayn")).toBeGreaterThan(0.8)
    expect(sim("dzhamshid", "jamshid")).toBeGreaterThan(0.8)
    expect(sim("iurii", "yuri")).toBeGreaterThan(0.8)
  })
})

describe("scoring each variant kind", () => {
  const cases: ReadonlyArray<readonly [string, string, string]> = [
    ["exact", "KARIMOV, Rustam Valerievich", "KARIMOV, Rustam Valerievich"],
    ["case and punctuation", "karimov rustam valerievich", "KARIMOV, Rustam Valerievich"],
    ["single typo", "KARIMOV, Rustam Valerievitch", "KARIMOV, Rustam Valerievich"],
    ["double typo", "Shenzen Huaxing Photonix Technology", "Shenzhen Huaxing Photonics Technology Co., Ltd."],
    ["transposition", "ORION MARITIME TRDAING LLC", "ORION MARITIME TRADING LLC"],
    ["reordered", "Rustam Valerievich Karimov", "KARIMOV, Rustam Valerievich"],
    ["dropped middle name", "Sergei Ivanov", "Sergei Petrovich Ivanov"],
    ["honorific", "Dr. Mohammed Yusuf Al-Hamadi", "AL-HAMADI, Mohammed Yusuf"],
    ["company form", "Novatek Microsystems JSC", "Novatek Microsystems Joint Stock Company"],
    ["split word", "Nova tek Microsystems", "Novatek Microsystems Joint Stock Company"],
    ["joined words", "SEAFALCON", "SEA FALCON"],
    ["diacritics", "Kazán Aviatión Repair Plant", "Kazan Aviation Repair Plant"],
    ["alias typo", "Huaxing Fotonics", "Shenzhen Huaxing Photonics Technology Co., Ltd."],
    ["transliteration", "Muhammad Yousif Al Hamadi", "AL-HAMADI, Mohammed Yusuf"],
    ["abbreviated first word", "R. V. Karimov", "KARIMOV, Rustam Valerievich"],
    ["other script", "Карімов Рустам", "KARIMOV, Rustam Valerievich"]
  ]
  for (const [kind, query, expected] of cases) {
    it(`${kind}: "${query}" finds ${expected}`, () => {
      expect(top(query)?.name).toBe(expected)
    })
  }

  it("puts exact and near-exact names above the default threshold, unrelated names below it", () => {
    expect(top("KARIMOV, Rustam Valerievich")?.score).toBe(100)
    expect(top("Rustam Karimov")!.score).toBeGreaterThanOrEqual(DefaultMinScore)
    expect(top("ORION MARITIME TRDAING LLC")!.score).toBeGreaterThanOrEqual(DefaultMinScore)
    for (
      const unrelated of ["Maria Gonzalez", "Acme Widgets Incorporated", "Rustam Petrenko Trading", "Orion Bakery"]
    ) {
      expect(top(unrelated)?.score ?? 0).toBeLessThan(DefaultMinScore)
    }
  })

  it("weighs common words less than identifying ones", () => {
    const commonMissing = top("ORION MARITIME TRADING")!.score
    const identifyingMissing = top("MARITIME TRADING LLC")?.score ?? 0
    expect(commonMissing).toBeGreaterThan(identifyingMissing)
  })

  it("exact mode matches the normalized name only", () => {
    expect(top("orion maritime trading l.l.c", false)?.name).toBe("ORION MARITIME TRADING LLC")
    expect(top("ORION MARITIME TRDAING LLC", false)).toBeUndefined()
  })

  it("reports no hits for a query without letters or digits", () => {
    expect(list.matcher.search("— ,.;", { fuzzy: true })).toBeUndefined()
  })
})

describe("bulk file", () => {
  it("accepts the bulk shape and keeps per-list facts", () => {
    expect(list.entries).toHaveLength(23)
    expect(list.publishedAt).toBe("2026-11-20T13:15:00.015113+00:00")
    expect(list.lists.find((l) => l.code === "SDN")).toMatchObject({
      entries: 8,
      source_last_updated: expect.any(String)
    })
    expect(list.lists.find((l) => l.code === "FSE")?.entries).toBe(0)
  })

  it("refuses malformed files without quoting their content", () => {
    const refused = (text: string) => Either.getLeft(BulkFile.parse(text))
    expect(refused("{ not json")._tag).toBe("Some")
    const notAList = refused(JSON.stringify({ results: "KARIMOV" }))
    expect(notAList._tag).toBe("Some")
    expect(JSON.stringify(notAList)).not.toContain("KARIMOV")
    expect(refused(JSON.stringify({ results: [] }))._tag).toBe("Some")
    const broken = JSON.parse(fixture)
    broken.results = broken.results.map((record: Record<string, unknown>) => ({ ...record, name: 42 }))
    const error = Either.getLeft(BulkFile.parse(JSON.stringify(broken)))
    expect(error._tag).toBe("Some")
    expect(JSON.stringify(error)).not.toContain("KARIMOV")
  })

  it("skips a rare malformed record and keeps the rest", () => {
    const parsed = JSON.parse(fixture)
    const many = {
      ...parsed,
      results: Array.from({ length: 200 }, (_, i) => ({ ...parsed.results[i % 23], id: `r${i}` }))
    }
    many.results[7] = { name: null }
    const loaded = Either.getOrThrow(BulkFile.parse(JSON.stringify(many)))
    expect(loaded.records).toHaveLength(199)
    expect(loaded.rejected).toBe(1)
  })
})

describe("loading a large list", () => {
  it("builds in slices, letting timers run in between, to the same index as at once", async () => {
    const parsed = JSON.parse(fixture)
    // distinct names so the dictionary, postings and deletion index grow like a real list's
    const results = Array.from({ length: 12_000 }, (_, i) => {
      const record = parsed.results[i % parsed.results.length]
      return { ...record, id: `r${i}`, name: `${record.name} ${i.toString(36)}x${(i * 7919).toString(36)}` }
    })
    const text = JSON.stringify({ ...parsed, results })
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    const sliced = await Effect.runPromise(runSliced(loadSteps(text, "2026-11-22T00:00:00.000Z"))).finally(() =>
      clearInterval(timer)
    )
    expect(ticks).toBeGreaterThan(5)
    const atOnce = Either.getOrThrow(load(text, "2026-11-22T00:00:00.000Z"))
    const slicedList = Either.getOrThrow(sliced)
    expect(slicedList.entries).toHaveLength(12_000)
    const query = results[9_876]!.name
    const hits = slicedList.matcher.search(query, { fuzzy: true })
    expect(hits).toEqual(atOnce.matcher.search(query, { fuzzy: true }))
    expect(slicedList.entries[hits![0]!.entry]!.record.name).toBe(query)
  })
})
