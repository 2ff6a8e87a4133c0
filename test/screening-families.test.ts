import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as DataGeneration from "../src/services/DataGeneration.ts"
import * as Screening from "../src/services/Screening.ts"
import type { BulkRecord } from "../src/services/screening/BulkFile.ts"
import { toEntry } from "../src/services/screening/ListEntry.ts"
import * as Matcher from "../src/services/screening/Matcher.ts"
import * as NameIndex from "../src/services/screening/NameIndex.ts"
import { fixedRegulatoryStatus, suspendedAffiliatesRule } from "./support/ScreeningApp.ts"

/**
 * Corporate families (issue "screening decisions", item 3): the listed names that contain the
 * query, as a separate group beside the matches, ranked and paged.
 */

const el = "Entity List (EL) - Bureau of Industry and Security"
const sdn = "Specially Designated Nationals (SDN) - Treasury Department"
const records = [
  { name: "Huawei Technologies Co., Ltd.", source: el, id: "h1" },
  { name: "Huawei Technologies (Bolivia) S.R.L.", source: el, id: "h2" },
  { name: "Chengdu Huawei Technologies Co., Ltd.", source: el, id: "h3" },
  { name: "Huawei Marine Networks Co., Ltd.", source: el, id: "h4" },
  { name: "Beijing Huawei Digital Technologies Co., Ltd.", source: sdn, id: "h5", type: "Entity" },
  { name: "Huawen Trading Company", source: el, id: "x1" },
  { name: "ZTE Corporation", source: el, id: "x2" },
  { name: "Marine Networks Trading", source: el, id: "x3" }
]
const bulk = JSON.stringify({ results: records, search_performed_at: null, sources_used: [], offset: 0, total: 8 })

const search = (request: Parameters<Screening.ScreeningShape["search"]>[0]) =>
  Effect.flatMap(Screening.Screening, (screening) => screening.search(request)).pipe(
    Effect.provide(
      Screening.layerFromText(bulk).pipe(
        Layer.provide(Layer.merge(DataGeneration.layer, fixedRegulatoryStatus(suspendedAffiliatesRule)))
      )
    )
  )

describe("corporate families", () => {
  it.effect("lists the names containing the query apart from the matches, ranked by score", () =>
    Effect.gen(function*() {
      const answer = yield* search({ name: "Huawei" })
      const matched = answer.matches.map((match) => match.id)
      const family = answer.name_contained!
      expect(family.match_type).toBe("name_contained")
      expect(family.words).toEqual(["huawei"])
      const members = family.matches.map((match) => match.id)
      // every Huawei entry is shown once: as a match or as a family member; Huawen and ZTE are not
      expect([...matched, ...members].sort()).toEqual(["h1", "h2", "h3", "h4", "h5"])
      expect(members.filter((id) => matched.includes(id))).toEqual([])
      expect(family.total).toBe(members.length)
      expect(family.too_broad).toBe(false)
      // family members do not inflate the matches: they stay under min_score or outside total
      expect(answer.total).toBe(matched.length)
      const scores = family.matches.map((match) => match.score)
      expect(scores).toEqual([...scores].sort((a, b) => b - a))
      // each carries the alignment its score rests on, and the Affiliates Rule says what a family hit means
      expect(family.matches[0]!.explanation!.alignment).toContainEqual(
        expect.objectContaining({ query: "huawei", listed: "huawei", kind: "exact" })
      )
      expect(answer.affiliates_rule.name_contained).toMatch(/subsidiary, branch or affiliate/)
    }))

  it.effect("pages with size and offset, and keeps to the list, type and country filters", () =>
    Effect.gen(function*() {
      const all = (yield* search({ name: "Huawei", min_score: 100 })).name_contained!
      expect(all.total).toBe(5)
      const page = (yield* search({ name: "Huawei", min_score: 100, size: 2, offset: 2 })).name_contained!
      expect(page.total).toBe(5)
      expect(page.matches.map((match) => match.id)).toEqual(all.matches.slice(2, 4).map((match) => match.id))
      const sdnOnly = (yield* search({ name: "Huawei", min_score: 100, sources: ["SDN"] })).name_contained!
      expect(sdnOnly.matches.map((match) => match.id)).toEqual(["h5"])
    }))

  it.effect("requires every identifying word, leaves common words out beside rarer ones, needs a name word", () =>
    Effect.gen(function*() {
      const two = (yield* search({ name: "Marine Networks", min_score: 100 })).name_contained!
      expect(two.words).toEqual(["marine", "networks"])
      expect(two.matches.map((match) => match.id).sort()).toEqual(["h4", "x3"])
      expect((yield* search({ name: "Chengdu Marine", min_score: 100 })).name_contained!.total).toBe(0)
      // a word most listed names share is left out beside a rarer one (here "huawei", in 5 of 8 entries)
      const common = (yield* search({ name: "Huawei Marine", min_score: 100 })).name_contained!
      expect(common.words).toEqual(["marine"])
      // a word no listed name has: nothing contains the query
      const unknown = (yield* search({ name: "Huawei Zzyzx" })).name_contained!
      expect(unknown.total).toBe(0)
      expect(unknown.matches).toEqual([])
      // only legal forms: no identifying word, no group
      expect((yield* search({ name: "Co., Ltd." })).name_contained).toBeUndefined()
    }))
})

describe("family bounds", () => {
  const entries = records.map((record) => toEntry(record as BulkRecord))
  const matcher = Matcher.make(NameIndex.build(entries))

  it("counts but does not rank a family larger than the limit", () => {
    const broad = matcher.family("Huawei", undefined, 3)!
    expect(broad.tooBroad).toBe(true)
    expect(broad.total).toBe(5)
    expect(broad.hits).toEqual([])
    const ranked = matcher.family("Huawei", undefined, 20)!
    expect(ranked.tooBroad).toBe(false)
    expect(ranked.hits.map((hit) => entries[hit.entry]!.record.id).sort()).toEqual(["h1", "h2", "h3", "h4", "h5"])
  })
})
