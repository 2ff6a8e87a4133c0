import { describe, expect, it } from "@effect/vitest"
import { DefaultMinScore } from "../src/domain/Screening.ts"
import type { BulkRecord } from "../src/services/screening/BulkFile.ts"
import { toEntry } from "../src/services/screening/ListEntry.ts"
import * as Matcher from "../src/services/screening/Matcher.ts"
import * as NameIndex from "../src/services/screening/NameIndex.ts"
import { normalize, TokenClass, TokenMark } from "../src/services/screening/Normalize.ts"
import { isPinyin } from "../src/services/screening/Sinitic.ts"
import { consonantSkeleton } from "../src/services/screening/TokenSimilarity.ts"

/**
 * The name kinds of the screening-decisions and scripts-and-structures issues, each against a
 * small list: what must alert at the default threshold, and what must not.
 */

const record = (name: string, type: string | null, altNames: Array<string> = []): BulkRecord =>
  ({
    name,
    type,
    alt_names: altNames,
    source: type === null
      ? "Entity List (EL) - Bureau of Industry and Security"
      : "Specially Designated Nationals (SDN) - Treasury Department"
  }) as BulkRecord

const records = [
  record("FEDERAL STATE ENTERPRISE YA M SVERDLOV PLANT", "Entity"),
  record("Shenzhen Huawei Technologies", "Entity"),
  record("Huawei Technologies (Bolivia) S.R.L.", null),
  record("PEOPLE'S LIBERATION ARMY", "Entity"),
  record("Open Joint Stock Company Gazprom Neft", "Entity"),
  record("Inelso LLC", null),
  record("Brigade 44", "Entity"),
  record("First International Bank", "Entity"),
  record("SECHIN, Igor Ivanovich", "Individual"),
  record("Hans FRIEDRICH", "Individual"),
  record("Rashid bin Mahmud AL-HABSI", "Individual"),
  record("SHOIGU, Sergei Kuzhugetovich", "Individual"),
  record("MUHAMMAD, Yusuf", "Individual"),
  record("WANG, Wei", "Individual"),
  record("MAO, Zedong", "Individual"),
  record("Xiaoming ZHANG", "Individual"),
  record("BORISOV, Anatoly", "Individual"),
  record("Korea Mining Development Trading Corporation", "Entity"),
  record("Kolmar Group AG", "Entity"),
  record("Petrov Trading Company", "Entity"),
  record("Ivan PETROV", "Individual")
]
const entries = records.map(toEntry)
const matcher = Matcher.make(NameIndex.build(entries))

/** Best hit: its primary name and score 0–100. */
const top = (query: string) => {
  const hit = matcher.search(query, { fuzzy: true })?.[0]
  return hit === undefined ? { name: undefined, score: 0 } : {
    name: entries[hit.entry]!.record.name,
    score: Math.round(hit.score * 1000) / 10
  }
}

const alerts = (query: string, listed: string) => {
  const hit = top(query)
  expect(hit.name, query).toBe(listed)
  expect(hit.score, query).toBeGreaterThanOrEqual(DefaultMinScore)
}
const staysQuiet = (query: string) => expect(top(query).score, query).toBeLessThan(DefaultMinScore)

describe("normalization of structures", () => {
  it("marks abbreviation points and abjad script, folds Greek digraphs", () => {
    const dotted = normalize("Fed. State U.S.A.")
    expect(dotted.tokens).toEqual(["fed", "state", "usa"])
    expect(dotted.marks).toEqual([TokenMark.dotted, 0, 0])
    expect(normalize("محمد يوسف").marks).toEqual([TokenMark.abjad, TokenMark.abjad])
    expect(normalize("ΜΠΟΡΙΣ ΝΤΕΝΙΣ").tokens).toEqual(["boris", "denis"])
  })

  it("gives numbers in words, ordinals and Roman numerals their digits; classes patronymics", () => {
    expect(normalize("Brigade Forty-Four").forms).toContainEqual({ text: "44", mask: 0b110 })
    expect(normalize("First Bank").forms).toContainEqual({ text: "1", mask: 0b1 })
    expect(normalize("Shayan XII").forms).toContainEqual({ text: "12", mask: 0b10 })
    expect(normalize("Unit 07").forms).toContainEqual({ text: "7", mask: 0b10 })
    expect(normalize("Sergei Kuzhugetovich Shoigu").classes[1]).toBe(TokenClass.patronymic)
    expect(normalize("OAO Gazprom").forms.map((form) => form.text)).toContain("ojsc")
  })

  it("reads consonant skeletons and Pinyin shapes", () => {
    expect(consonantSkeleton("muhammad")).toBe(consonantSkeleton("mhmd"))
    expect(consonantSkeleton("yusuf")).toBe(consonantSkeleton("ywsf"))
    expect(isPinyin("xiaoming")).toBe(true)
    expect(isPinyin("friedrich")).toBe(false)
    expect(isPinyin("hamza")).toBe(false)
  })
})

describe("alerting at the default threshold", () => {
  it("finds abbreviated and cut words", () => {
    alerts("Fed. State Enterprise Ya M Sverdlov Plant", "FEDERAL STATE ENTERPRISE YA M SVERDLOV PLANT")
    alerts("Shen Huawei Tech", "Shenzhen Huawei Technologies")
    alerts("Kor. Mining Dev. Trdg Corp", "Korea Mining Development Trading Corporation")
  })

  it("finds honorifics, repeated words and inserted name parts", () => {
    alerts("Hajji Mr Yusuf Muhammad", "MUHAMMAD, Yusuf")
    alerts("President Sergei Shoigu", "SHOIGU, Sergei Kuzhugetovich")
    alerts("Sergey Sergey Shoigu", "SHOIGU, Sergei Kuzhugetovich")
    alerts("Anatoly Petrovich BORISOV", "BORISOV, Anatoly")
  })

  it("finds legal forms across languages, numbers in any notation and lookalike digits", () => {
    alerts("OAO Gazprom Neft", "Open Joint Stock Company Gazprom Neft")
    alerts("Inelso Obshchestvo s Ogranichennoi Otvetstvennostyu", "Inelso LLC")
    alerts("Brigade Forty-Four", "Brigade 44")
    alerts("1st International Bank", "First International Bank")
    alerts("Ig0r Sech1n", "SECHIN, Igor Ivanovich")
  })

  it("finds acronyms and other scripts", () => {
    const pla = top("PLA")
    expect(pla.name).toBe("PEOPLE'S LIBERATION ARMY")
    expect(pla.score).toBeGreaterThanOrEqual(DefaultMinScore)
    expect(pla.score).toBeLessThan(100)
    alerts("محمد يوسف", "MUHAMMAD, Yusuf")
    alerts("Игорь Сечин", "SECHIN, Igor Ivanovich")
    alerts("王伟", "WANG, Wei")
    alerts("Mao Tse-tung", "MAO, Zedong")
    alerts("Hsiao-ming Chang", "Xiaoming ZHANG")
  })

  it("keeps a series number significant", () => {
    staysQuiet("Brigade 45")
    staysQuiet("Brigade Forty-Five")
  })

  it("does not alert on a person's names swapped or on father and son swapped", () => {
    expect(top("Hans Friedrich").score).toBe(100)
    staysQuiet("Friedrich Hans")
    expect(top("Rashid bin Mahmud al-Habsi").score).toBe(100)
    staysQuiet("Mahmud bin Rashid al-Habsi")
    // Surname first with the comma's order, and Chinese names either way, stay matches.
    alerts("Sechin Igor Ivanovich", "SECHIN, Igor Ivanovich")
    alerts("Wei Wang", "WANG, Wei")
  })

  it("does not alert on other parties sharing a word", () => {
    staysQuiet("Petrov Ivanovich Sidorov")
    staysQuiet("Kolmar Mining Trading")
    staysQuiet("Sergey Lavrov")
  })
})
