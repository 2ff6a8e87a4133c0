import { describe, expect, it } from "@effect/vitest"
import type { BulkRecord } from "../src/services/screening/BulkFile.ts"
import { toEntry } from "../src/services/screening/ListEntry.ts"
import * as Matcher from "../src/services/screening/Matcher.ts"
import * as NameIndex from "../src/services/screening/NameIndex.ts"
import type { AlignedStep } from "../src/services/screening/Scorer.ts"
import { greekKey, spelledWithoutVowels, transliterationKey } from "../src/services/screening/TokenSimilarity.ts"

/**
 * Explanations (issue "screening decisions", item 4): the alignment each score rests on, step by
 * step, with how every query word relates to the listed word it paired with.
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

const entries = [
  record("FEDERAL STATE ENTERPRISE YA M SVERDLOV PLANT", "Entity"),
  record("Shenzhen Huawei Technologies", "Entity"),
  record("Huawei Technologies (Bolivia) S.R.L.", null),
  record("PEOPLE'S LIBERATION ARMY", "Entity"),
  record("Open Joint Stock Company Gazprom Neft", "Entity"),
  record("SECHIN, Igor Ivanovich", "Individual"),
  record("MUHAMMAD, Yusuf", "Individual"),
  record("JAMSHIDOV, Jamshid", "Individual"),
  record("Hans FRIEDRICH", "Individual"),
  record("Brigade 44", "Entity"),
  record("MAO, Zedong", "Individual"),
  record("Karimov Trading Company", "Entity"),
  record("Chengdu Huawei High-Tech Investment Co., Ltd.", null),
  record("MOHAMMADI, Mohammad Reza", "Individual"),
  record("SHAQIRI, Shaqir", "Individual"),
  record("Wuxi Hyatech Co., Ltd.", null),
  record("Rim Yong-hyok", "Individual"),
  record("KIM, Yong Bok", "Individual")
].map(toEntry)
const matcher = Matcher.make(NameIndex.build(entries))

/** The best hit's listed name, score and alignment steps as `query>listed:kind`. */
const explained = (query: string) => {
  const hit = matcher.search(query, { fuzzy: true })![0]!
  const [alignment] = matcher.explain(query, [hit])
  return {
    name: entries[hit.entry]!.record.name,
    score: hit.score,
    reordered: alignment!.reordered,
    steps: alignment!.steps.map((step: AlignedStep) => `${step.query ?? ""}>${step.listed ?? ""}:${step.kind}`),
    raw: alignment!.steps
  }
}

describe("match explanations", () => {
  it("names the kind of every pair: typo, phonetic, transliteration, number, legal form", () => {
    expect(explained("Igor Sechn").steps).toEqual(["igor>igor:exact", "sechn>sechin:typo", ">ivanovich:dropped"])
    expect(explained("Dzhamshid Dzhamshidov").steps).toEqual([
      "dzhamshid>jamshid:phonetic",
      "dzhamshidov>jamshidov:phonetic"
    ])
    expect(explained("محمد يوسف").steps).toEqual(["mhmd>muhammad:transliteration", "ywsf>yusuf:transliteration"])
    expect(explained("Mao Tse-tung").steps).toEqual(["mao>mao:exact", "tse tung>zedong:transliteration"])
    expect(explained("Brigade Forty-Four").steps).toEqual(["brigade>brigade:exact", "forty four>44:number"])
    expect(explained("OAO Gazprom Neft").steps).toEqual([
      "oao>open joint stock company:legal_form",
      "gazprom neft>gazprom neft:exact"
    ])
  })

  it("names abbreviations, cut words, acronyms and joined words", () => {
    expect(explained("Shen Huawei Tech").steps).toEqual([
      "shen>shenzhen:abbreviation",
      "huawei>huawei:exact",
      "tech>technologies:abbreviation"
    ])
    expect(explained("PLA").steps).toEqual(["pla>peoples liberation army:abbreviation"])
    expect(explained("Hua Wei Technologies Bolivia").steps).toEqual([
      "hua wei>huawei:joined",
      "technologies bolivia>technologies bolivia:exact",
      ">srl:legal_form"
    ])
  })

  it("shows titles and words on one side only, each with the little or full weight it carried", () => {
    const titled = explained("Hajji Yusuf Muhammad")
    expect(titled.steps).toEqual(["hajji>:title", "yusuf muhammad>muhammad yusuf:exact"])
    expect(titled.raw[0]!.weight).toBeLessThan(0.1)
    const added = explained("Karimov Trading Company Zagreb")
    expect(added.steps).toEqual([
      "karimov trading>karimov trading:exact",
      "company>company:exact",
      "zagreb>:added"
    ])
    expect(added.raw[2]!.weight).toBe(1)
    expect(added.score).toBeLessThan(0.85)
  })

  it("reports the order penalty on a person's swapped names", () => {
    const swapped = explained("Friedrich Hans")
    expect(swapped.name).toBe("Hans FRIEDRICH")
    expect(swapped.reordered).toBe(true)
    expect(swapped.score).toBeCloseTo(0.8, 5)
    expect(explained("Hans Friedrich").reordered).toBe(false)
  })

  it("comes from the scoring alignment: the steps' weights give the score", () => {
    for (const query of ["Igor Sechn", "Shen Huawei Tech", "Karimov Trading Company Zagreb", "Dzhamshid Dzhamshidov"]) {
      const { raw, score } = explained(query)
      const paired = raw.filter((step) => step.query !== null && step.listed !== null)
      const found = paired.reduce((sum, step) => sum + step.similarity * step.weight, 0)
      const total = raw.reduce((sum, step) => sum + step.weight, 0)
      // weights and similarities are rounded to two decimals in the explanation
      expect(found / total, query).toBeCloseTo(score, 1)
    }
  })

  it("explains nothing for no hits", () => {
    expect(matcher.explain("Igor Sechin", [])).toEqual([])
  })
})

describe("Latin names written in other scripts", () => {
  it("folds a Cyrillic or Greek spelling back to the listed Latin word", () => {
    expect(transliterationKey("khuavei")).toBe(transliterationKey("huawei"))
    expect(transliterationKey("pdzhsk")).toBe(transliterationKey("pjsc"))
    expect(transliterationKey("ko")).toBe(transliterationKey("co"))
    expect(transliterationKey("schagosev", true)).toBe(transliterationKey("shkhagoshev"))
    expect(transliterationKey("chengdu")).not.toBe(transliterationKey("hengdu"))
    expect(greekKey(transliterationKey("iok", true))).toBe(greekKey(transliterationKey("hyok")))
  })

  it("reads an abjad word's W and Y as the listed long vowels", () => {
    expect(spelledWithoutVowels("mwhmdy", "mohammadi")).toBe(true)
    expect(spelledWithoutVowels("mwhmdy", "mohammad")).toBe(false)
    expect(spelledWithoutVowels("ly", "ali")).toBe(true)
    // a join's extra consonant is not a vowel
    expect(spelledWithoutVowels("kml", "kamalali")).toBe(false)
  })

  it("matches companies spelled in Cyrillic and persons in Arabic and Greek letters, in order", () => {
    const company = explained("Ченгду Хуавеи Хигх-Теч Инвестмент Ко., Лтд.")
    expect(company.name).toBe("Chengdu Huawei High-Tech Investment Co., Ltd.")
    expect(company.score).toBeGreaterThanOrEqual(0.85)
    expect(company.steps).toContain("khuavei>huawei:transliteration")
    expect(company.steps).toContain("ko>co:transliteration")
    expect(explained("Вукси Хятеч Ко., Лтд.").score).toBeGreaterThanOrEqual(0.85)
    const arabic = explained("موحمدي موحمد رزا")
    expect(arabic.name).toBe("MOHAMMADI, Mohammad Reza")
    expect(arabic.reordered).toBe(false)
    expect(arabic.steps.slice(0, 2)).toEqual([
      "mwhmdy>mohammadi:transliteration",
      "mwhmd>mohammad:transliteration"
    ])
    expect(arabic.score).toBeGreaterThanOrEqual(0.85)
    expect(explained("ΣΑΚΙΡΙ ΣΑΚΙΡ").score).toBeGreaterThanOrEqual(0.85)
    // Greek has no H: "ΙΟΚ" is HYOK
    const greek = explained("ΡΙΜ ΙΟΝΓΚ ΙΟΚ")
    expect(greek.name).toBe("Rim Yong-hyok")
    expect(greek.steps).toContain("iok>hyok:transliteration")
  })
})
