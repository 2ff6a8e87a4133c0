import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Layer, TestClock } from "effect"
import type { RadarItem, RadarResponse } from "../src/domain/Radar.ts"
import { Radar } from "../src/services/Radar.ts"
import * as Products from "../src/services/workspace/Products.ts"
import { freshStore } from "./support/TestStore.ts"

const rule: RadarItem = {
  documentNumber: "2026-90001",
  title: "Test Fixture: Rule Amending Entry 3A090",
  type: "Rule",
  agencies: ["Industry and Security Bureau"],
  publicationDate: "2026-08-20",
  effectiveOn: "2026-08-20",
  abstract: null,
  citation: "91 FR 90001",
  htmlUrl: "https://www.federalregister.gov/documents/2026/08/20/2026-90001/test-fixture",
  pdfUrl: null,
  eccns: ["3A090", "3A090.a"],
  cfrParts: ["15 CFR 774"]
}

/** The radar as of the (test) clock: a rule is listed from its publication day on; `down` fails soft like the real one. */
const radarAsOfClock = (options: { readonly down: boolean }) =>
  Layer.succeed(Radar, {
    recent: () =>
      Effect.map(Clock.currentTimeMillis, (now): RadarResponse => {
        const today = new Date(now).toISOString().slice(0, 10)
        const results = options.down ? [] : [rule].filter((item) => item.publicationDate <= today)
        return {
          topic: null,
          query: { agencies: [], types: [], term: null },
          count: results.length,
          results,
          source: "fixture",
          fetchedAt: null,
          stale: false,
          ...(options.down ? { error: "Federal Register unreachable" } : {})
        }
      })
  })

const productsWith = (options: { readonly down: boolean }) =>
  Products.layer.pipe(Layer.provide(Layer.merge(freshStore, radarAsOfClock(options))))

const at = (day: string) => TestClock.setTime(Date.parse(`${day}T12:00:00Z`))

describe("product staleness", () => {
  it.effect(
    "turns stale after a rule change naming its ECCN, and after 30 days without one",
    () =>
      Effect.gen(function*() {
        const products = yield* Products.Products
        yield* at("2026-08-10")
        const gpu = yield* products.upsert("key:t", {
          label: "Accelerator X1",
          jurisdiction: "EAR",
          eccn: "3A090.a",
          classified_by: "A. Analyst"
        })
        expect(gpu).toMatchObject({ classified_on: "2026-08-10", stale: false, stale_reasons: [] })
        yield* products.upsert("key:t", { label: "Radio R2", jurisdiction: "EAR", eccn: "5A002", classified_by: "A" })

        yield* at("2026-08-25")
        const afterRule = yield* products.get("key:t", "accelerator x1")
        expect(afterRule.stale).toBe(true)
        expect(afterRule.stale_reasons).toEqual([
          "rule change naming 3A090 published 2026-08-20 after classification: 91 FR 90001, " +
          "Test Fixture: Rule Amending Entry 3A090"
        ])
        expect((yield* products.get("key:t", "Radio R2")).stale).toBe(false)

        yield* at("2026-09-10")
        const radio = yield* products.get("key:t", "Radio R2")
        expect(radio.stale_reasons).toEqual(["classified 31 days ago (review after 30 days)"])

        // a re-classification after the rule clears the rule reason
        const reviewed = yield* products.upsert("key:t", {
          label: "ACCELERATOR X1",
          jurisdiction: "EAR",
          eccn: "3A090.a",
          classified_by: "B. Reviewer"
        })
        expect(reviewed).toMatchObject({ label: "ACCELERATOR X1", stale: false, rule_changes_checked: true })
        const listed = yield* products.list("key:t", {})
        expect(listed.products.map((product) => [product.label, product.stale])).toEqual([
          ["ACCELERATOR X1", false],
          ["Radio R2", true]
        ])
      }).pipe(Effect.provide(productsWith({ down: false }))),
    { timeout: 60_000 }
  )

  it.effect("says when rule changes could not be checked", () =>
    Effect.gen(function*() {
      const products = yield* Products.Products
      yield* at("2026-08-10")
      const product = yield* products.upsert("key:t", {
        label: "Accelerator X1",
        jurisdiction: "EAR",
        eccn: "3A090",
        classified_by: "A"
      })
      expect(product).toMatchObject({ stale: false, rule_changes_checked: false })
    }).pipe(Effect.provide(productsWith({ down: true }))), { timeout: 60_000 })
})
