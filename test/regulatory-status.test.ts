import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { PublicApp } from "../src/layers/Public.ts"
import * as RegulatoryStatus from "../src/services/RegulatoryStatus.ts"
import * as WebApp from "./support/WebApp.ts"

const at = (iso: string) => TestClock.setTime(Date.parse(iso))
const status = RegulatoryStatus.make

describe("RegulatoryStatus", () => {
  it.effect("the Affiliates Rule is suspended through 2026-11-09 and snaps back on 2026-11-10", () =>
    Effect.gen(function*() {
      yield* at("2026-11-09T23:59:59Z")
      const before = yield* status.affiliatesRule
      assert.strictEqual(before.state, "suspended")
      assert.strictEqual(before.daysUntilSnapBack, 1)
      assert.strictEqual(before.asOf, "2026-11-09")

      yield* at("2026-11-10T00:00:00Z")
      const after = yield* status.affiliatesRule
      assert.strictEqual(after.state, "in_force")
      assert.strictEqual(after.daysUntilSnapBack, null)
      expect(after.citations.join(" ")).toContain("2025-19001")
    }))

  it.effect("before the suspension began the rule was in force, and counts days to the snap-back", () =>
    Effect.gen(function*() {
      yield* at("2025-10-15T12:00:00Z")
      assert.strictEqual((yield* status.affiliatesRule).state, "in_force")
      yield* at("2026-01-01T12:00:00Z")
      const suspended = yield* status.affiliatesRule
      assert.strictEqual(suspended.state, "suspended")
      assert.strictEqual(suspended.daysUntilSnapBack, 313)
    }))

  it.effect("the suppressor transfer is pending until 2026-11-20, then effective under 0A501.f and 0A502.f", () =>
    Effect.gen(function*() {
      yield* at("2026-11-19T18:00:00Z")
      const pending = (yield* status.document).items.find((item) => item.id === "suppressor-transfer")!
      assert.strictEqual(pending.state, "pending")
      assert.deepStrictEqual(pending.nextTransition, { date: "2026-11-20", state: "effective" })
      assert.strictEqual(pending.daysUntilNextTransition, 1)

      yield* at("2026-11-20T00:00:00Z")
      const effective = (yield* status.document).items.find((item) => item.id === "suppressor-transfer")!
      assert.strictEqual(effective.state, "effective")
      assert.strictEqual(effective.nextTransition, null)
      assert.deepStrictEqual(effective.eccns, ["0A501.f", "0A502.f"])
    }))

  it.effect("the discovery object is derived from the same states", () =>
    Effect.gen(function*() {
      yield* at("2026-11-05T08:00:00Z")
      const early = yield* status.discovery
      assert.deepStrictEqual(
        { ...early, banner: undefined },
        {
          as_of: "2026-11-05",
          affiliates_rule: "suspended",
          affiliates_snapback: "2026-11-10",
          days_until_affiliates_snapback: 5,
          suppressor_transfer: "pending",
          suppressor_effective: "2026-11-20",
          banner: undefined,
          tool: "get_regulatory_status"
        }
      )
      expect(early.banner).toContain("snap-back 2026-11-10 (5 days)")

      yield* at("2026-11-22T08:00:00Z")
      const late = yield* status.discovery
      assert.strictEqual(late.affiliates_rule, "in_force")
      assert.strictEqual(late.days_until_affiliates_snapback, 0)
      assert.strictEqual(late.suppressor_transfer, "effective")
      expect(late.banner).toContain("in force again since 2026-11-10")
    }))

  it.effect("every item carries citations or says where to confirm it", () =>
    Effect.gen(function*() {
      yield* at("2026-11-22T00:00:00Z")
      const document = yield* status.document
      expect(document.items.map((item) => item.id)).toEqual([
        "affiliates-rule",
        "suppressor-transfer",
        "ai-diffusion-rescission",
        "destination-syria",
        "destination-uae",
        "advanced-computing-guidance"
      ])
      for (const item of document.items) {
        assert.isTrue(item.citations.length > 0 || item.summary.includes("/api/radar") || item.cfr.length > 0)
      }
    }))
})

describe("GET /api/regulatory-status", () => {
  it.scoped("answers today's status with the facts version and cache headers", () =>
    Effect.gen(function*() {
      const app = yield* WebApp.make(PublicApp)
      const { body, response } = yield* app.json("/api/regulatory-status")
      expect(response.status).toBe(200)
      expect(response.headers.get("cache-control")).toBe("public, max-age=3600, stale-while-revalidate=86400")
      expect(body.as_of).toBe(new Date().toISOString().slice(0, 10))
      expect(body.facts_version).toMatch(/^\d{4}-\d{2}-\d{2}\.\d+$/)
      expect(["suspended", "in_force"]).toContain(body.affiliates_rule.state)
      expect(body.items).toHaveLength(6)
    }))
})
