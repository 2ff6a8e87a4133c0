import { describe, expect, it } from "@effect/vitest"
import type { ScreeningMatch } from "../../src/domain/Screening.ts"
import { compactMatch, enginePage, rankParentsFirst, why } from "../../src/mcp/ScreeningCompact.ts"

const match = (name: string, score: number, extra: Partial<ScreeningMatch> = {}): ScreeningMatch => ({
  id: name,
  name,
  matched_name: name,
  matched_name_kind: "name",
  match_type: "name",
  matched_id: null,
  field_agreement: null,
  score,
  source: "Entity List (EL) - Bureau of Industry and Security",
  source_code: "EL",
  type: null,
  programs: [],
  alt_names: [],
  countries: [],
  addresses: [],
  ids: [],
  remarks: null,
  title: null,
  dates_of_birth: [],
  places_of_birth: [],
  nationalities: [],
  citizenships: [],
  federal_register_notice: null,
  start_date: null,
  end_date: null,
  license_requirement: null,
  license_policy: null,
  vessel: null,
  source_list_url: null,
  source_information_url: null,
  ...extra
})

describe("compact screening presentation", () => {
  it("ranks an exact name first and a parent at or above the subsidiaries that contain its name", () => {
    const ranked = rankParentsFirst([
      match("Huawei Technologies Co., Ltd. (Huawei). Affiliated Entity: Huawei Marine Networks Co., Ltd.", 100),
      match("Chengdu Huawei Technologies Co., Ltd.", 98),
      match("Shenzhen Huaxing Photonics Technology Co., Ltd.", 97),
      match("Huawei Technologies Co., Ltd. (Huawei)", 92)
    ], "Huawei Technologies Co Ltd")
    expect(ranked.map((m) => m.name)).toEqual([
      "Huawei Technologies Co., Ltd. (Huawei)",
      "Huawei Technologies Co., Ltd. (Huawei). Affiliated Entity: Huawei Marine Networks Co., Ltd.",
      "Chengdu Huawei Technologies Co., Ltd.",
      "Shenzhen Huaxing Photonics Technology Co., Ltd."
    ])
    // scores are the engine's: only the order changes
    expect(ranked[0]!.score).toBe(92)
    // a parent that is not the query still precedes what contains it
    const parentOnly = rankParentsFirst([
      match("Alpha Beta Gamma Trading Llc", 99),
      match("Beta Gamma", 90),
      match("Delta", 95)
    ], "Beta Gamma Holdings")
    expect(parentOnly.map((m) => m.name)).toEqual(["Beta Gamma", "Alpha Beta Gamma Trading Llc", "Delta"])
  })

  it("keeps the fields an analyst adjudicates on and leaves empty ones out", () => {
    const compact = compactMatch(match("KARIMOV, Rustam", 91.5, {
      matched_name: "KARIMOFF, Rustam",
      matched_name_kind: "alt_name",
      source_code: "SDN",
      programs: ["RUSSIA-EO14024"],
      alt_names: ["KARIMOFF, Rustam", "KARIMOV, R."],
      addresses: [{ address: null, city: "Moscow", state: null, postal_code: null, country: "RU" }],
      ids: [{ type: "Passport", number: "123", country: "RU", issue_date: null, expiration_date: null }],
      remarks: "x".repeat(400)
    }))
    expect(compact).toEqual({
      id: "KARIMOV, Rustam",
      name: "KARIMOV, Rustam",
      matched_name: "KARIMOFF, Rustam",
      score: 91.5,
      list: "SDN",
      programs: ["RUSSIA-EO14024"],
      addresses: ["Moscow, RU"],
      ids: ["Passport, 123, RU"],
      alt_names: 2,
      remarks: `${"x".repeat(300)}…`
    })
  })

  it("asks the engine for the pages up to the one shown, so the order is the same on every page", () => {
    expect(enginePage(0, 5, 50)).toEqual({ offset: 0, size: 10 })
    expect(enginePage(10, 5, 50)).toEqual({ offset: 0, size: 20 })
    expect(enginePage(45, 5, 50)).toEqual({ offset: 45, size: 5 })
  })

  it("says why in one short line: pairs with their kind, words on one side only, the order penalty", () => {
    const explanation = {
      alignment: [
        { query: "haji", listed: null, kind: "title" as const, similarity: 0, weight: 0.06 },
        { query: "igor", listed: "igor", kind: "exact" as const, similarity: 1, weight: 1 },
        { query: "sech1n", listed: "sechin", kind: "typo" as const, similarity: 0.97, weight: 1 },
        { query: "moscow", listed: null, kind: "added" as const, similarity: 0, weight: 1 },
        { query: null, listed: "ivanovich", kind: "dropped" as const, similarity: 0, weight: 0.06 }
      ],
      reordered: true
    }
    expect(why(explanation)).toBe("+haji title, igor, sech1n→sechin typo, +moscow, -ivanovich, order x0.8")
    expect(compactMatch(match("Igor Sechin", 90, { explanation })).why).toBe(why(explanation))
    expect(compactMatch(match("Igor Sechin", 90))).not.toHaveProperty("why")
  })
})
