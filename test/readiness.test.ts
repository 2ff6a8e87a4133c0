import { FetchHttpClient } from "@effect/platform"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { overallStatus } from "../src/domain/Readiness.ts"
import * as AppConfig from "../src/services/AppConfig.ts"
import type { AppConfigShape } from "../src/services/AppConfig.ts"
import * as PartFills from "../src/services/ecfr/PartFills.ts"
import * as Sync from "../src/services/ecfr/Sync.ts"
import { ecfrFixtures, ecfrRoutes, tempDataDir } from "./support/EcfrFake.ts"
import { type FakeUpstream, startFakeUpstream } from "./support/FakeUpstream.ts"
import { fixtureText } from "./support/ScreeningApp.ts"
import { startServer } from "./support/TestServer.ts"

interface Check {
  readonly name: string
  readonly status: string
  readonly critical: boolean
  readonly summary: string
  readonly details: Record<string, any>
}

/** Starts the public deployment, asks `/ready` until `settled` holds, and closes it. */
const readiness = async (
  config: Partial<AppConfigShape>,
  settled: (checks: Record<string, Check>) => boolean = () => true
) => {
  const server = await startServer({ config: { rateLimitPerMinute: 0, ...config } })
  try {
    for (let attempt = 0;; attempt++) {
      const response = await server.get("/ready")
      const body = await response.json()
      const checks: Record<string, Check> = Object.fromEntries(body.checks.map((check: Check) => [check.name, check]))
      if (settled(checks) || attempt > 100) {
        return { status: response.status, cacheControl: response.headers.get("cache-control"), body, checks }
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  } finally {
    await server.close()
  }
}

const syncFixtures = (dataDir: string) =>
  Sync.sync({ from: ecfrFixtures, parts: [740, 121] }, () => undefined).pipe(
    Effect.provide(Layer.mergeAll(AppConfig.layerWith({ dataDir }), FetchHttpClient.layer, PartFills.layerAlone)),
    Logger.withMinimumLogLevel(LogLevel.None),
    Effect.runPromise
  )

describe("GET /ready under each fault of the upstreams", () => {
  let ecfr: FakeUpstream
  let csl: FakeUpstream
  beforeAll(async () => {
    ecfr = await startFakeUpstream([ecfrRoutes()])
    csl = await startFakeUpstream([() => ({ headers: { "content-type": "application/json" }, body: fixtureText })])
  })
  afterAll(async () => {
    await ecfr.close()
    await csl.close()
  })

  it("everything reachable: the screening list loaded, parts fetched on first use; the empty archive degrades", async () => {
    const ready = await readiness(
      { ecfrBaseUrl: ecfr.url, cslBulkUrl: `${csl.url}/consolidated.json` },
      (checks) => checks.screening_list?.status === "ok"
    )
    expect(ready.status).toBe(200)
    expect(ready.cacheControl).toBe("no-store")
    expect(ready.checks.ecfr).toMatchObject({
      status: "ok",
      critical: true,
      summary: "0 of 12 parts stored; the others are fetched from eCFR on first use",
      details: { upstream: "ok", stored_parts: 0 }
    })
    expect(ready.checks.ecfr!.details.parts).toHaveLength(12)
    expect(ready.checks.screening_list).toMatchObject({
      status: "ok",
      details: { source: "CSL_BULK_URL", stale: false }
    })
    expect(ready.checks.screening_list!.details.entries).toBeGreaterThan(0)
    expect(ready.checks.skills).toMatchObject({ status: "ok", details: { source: "bundled", skills: 20 } })
    expect(ready.checks.enforcement_archive).toMatchObject({ status: "degraded", details: { documents: 0 } })
    // a real query through the store; not critical: reads are served without it
    expect(ready.checks.store).toMatchObject({
      status: "ok",
      critical: false,
      summary: "the embedded database answers; DATA_DIR is writable",
      details: { engine: "embedded", data_dir_writable: true }
    })
    expect(ready.checks.store!.details.latency_millis).toBeGreaterThanOrEqual(0)
    expect(ready.body.status).toBe("degraded")
  })

  it("eCFR down with nothing stored: unavailable, 503, and the summary says how to fill the store", async () => {
    ecfr.down = 503
    try {
      const ready = await readiness({ ecfrBaseUrl: ecfr.url, cslBulkUrl: `${csl.url}/consolidated.json` })
      expect(ready.status).toBe(503)
      expect(ready.body.status).toBe("unavailable")
      expect(ready.checks.ecfr).toMatchObject({ status: "unavailable" })
      expect(ready.checks.ecfr!.summary).toContain("ecds sync")
      expect(ready.checks.ecfr!.details.upstream).toMatch(/^error/)
    } finally {
      ecfr.down = undefined
    }
  })

  it("eCFR resetting connections with two parts stored: degraded, the missing parts named as answering 503", async () => {
    const dataDir = tempDataDir()
    await syncFixtures(dataDir)
    ecfr.down = "reset"
    try {
      const ready = await readiness({ dataDir, ecfrBaseUrl: ecfr.url, cslBulkUrl: `${csl.url}/consolidated.json` })
      expect(ready.status).toBe(200)
      expect(ready.checks.ecfr).toMatchObject({
        status: "degraded",
        summary: "eCFR cannot be reached; 2 of 12 parts stored, the others answer 503",
        details: { stored_parts: 2 }
      })
      const part740 = ready.checks.ecfr!.details.parts.find((part: { part: number }) => part.part === 740)
      expect(part740).toMatchObject({ issue_date: "2026-11-18" })
      expect(part740.age_seconds).toBeGreaterThanOrEqual(0)
    } finally {
      ecfr.down = undefined
    }
  })

  it("screening list source down: the list is unavailable, the service only degraded", async () => {
    csl.down = 500
    try {
      const ready = await readiness({ ecfrBaseUrl: ecfr.url, cslBulkUrl: `${csl.url}/consolidated.json` })
      expect(ready.status).toBe(200)
      expect(ready.checks.screening_list).toMatchObject({ status: "unavailable", critical: false })
      expect(ready.body.status).toBe("degraded")
    } finally {
      csl.down = undefined
    }
  })

  it("an unavailable non-critical check degrades; a critical one makes the whole service unavailable", () => {
    const check = (status: "ok" | "degraded" | "unavailable", critical: boolean) =>
      ({ name: "x", status, critical, summary: "", details: {} }) as const
    expect(overallStatus([check("ok", true), check("ok", false)])).toBe("ok")
    expect(overallStatus([check("ok", true), check("unavailable", false)])).toBe("degraded")
    expect(overallStatus([check("unavailable", true), check("ok", false)])).toBe("unavailable")
  })
})
