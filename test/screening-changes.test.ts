import { afterAll, beforeAll, describe, expect, it, layer } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { runNow } from "../src/services/Cooperative.ts"
import * as DataGeneration from "../src/services/DataGeneration.ts"
import * as Screening from "../src/services/Screening.ts"
import { snapshotSteps } from "../src/services/screening/ListSnapshot.ts"
import { load } from "../src/services/screening/LoadedList.ts"
import * as ScreeningChanges from "../src/services/ScreeningChanges.ts"
import * as ScreeningRegistry from "../src/services/workspace/ScreeningRegistry.ts"
import { writeScreening } from "../src/services/workspace/Tables.ts"
import { fixedRegulatoryStatus, fixtureText, screeningApp, suspendedAffiliatesRule } from "./support/ScreeningApp.ts"
import { SqlClient } from "./support/SqlEngines.ts"
import { type RunningServer, startServer } from "./support/TestServer.ts"
import { freshStore } from "./support/TestStore.ts"

const first = JSON.parse(fixtureText)

/** The 23-entry fixture a day later: one entry removed, one changed, two added. */
const second = JSON.stringify({
  ...first,
  search_performed_at: "2026-11-21T13:15:00.000000+00:00",
  results: [
    ...first.results
      .filter((record: { id: string }) => record.id !== "90013")
      .map((record: { id: string; alt_names: Array<string> }) =>
        record.id === "90001" ? { ...record, alt_names: [...record.alt_names, "KARIMOV, R. V."] } : record
      ),
    { ...first.results[2], id: "99999", name: "QUILLFEATHER HOLDINGS LIMITED", alt_names: [] },
    { ...first.results[3], id: "99998", name: "NORTHWIND STAR", alt_names: [] }
  ]
})

const snapshotOf = (text: string, recordedAt: string) => {
  const list = load(text, recordedAt)
  if (Either.isLeft(list)) throw new Error("fixture did not load")
  return runNow(snapshotSteps(list.right.entries, list.right.publishedAt, recordedAt))
}

/** The screening service as the registry sees it: only the status of the list in use. */
const listInUse: Screening.ScreeningShape = {
  search: () => Effect.die("not used"),
  batch: () => Effect.die("not used"),
  refresh: Effect.die("not used"),
  status: Effect.succeed({
    loaded: true,
    entries: 24,
    loadedAt: "2026-11-21T14:00:00.000Z",
    publishedAt: "2026-11-21T13:15:00.000000+00:00",
    stale: false
  })
}

const ids = (entries: ReadonlyArray<{ id: string }>) => entries.map((entry) => entry.id)

layer(ScreeningChanges.layer.pipe(Layer.provideMerge(freshStore)), { timeout: 60_000 })("list-change history", (it) => {
  it.effect("records a baseline, then what a refresh added, changed and removed; pages with a cursor", () =>
    Effect.gen(function*() {
      const changes = yield* ScreeningChanges.ScreeningChanges
      expect(yield* changes.record(snapshotOf(fixtureText, "2026-11-20T14:00:00.000Z"))).toBe("baseline")
      expect(yield* changes.record(snapshotOf(second, "2026-11-21T14:00:00.000Z"))).toBe("recorded")
      // the same list again (a second instance, a restart) and an older copy add nothing
      expect(yield* changes.record(snapshotOf(second, "2026-11-21T15:00:00.000Z"))).toBe("unchanged")
      expect(yield* changes.record(snapshotOf(fixtureText, "2026-11-21T16:00:00.000Z"))).toBe("older")

      const all = yield* changes.since({ since: "2026-11-01" })
      expect(all.refreshes.map((r) => [r.recorded_at, r.entries, r.added, r.changed, r.removed, r.baseline])).toEqual([
        ["2026-11-20T14:00:00.000Z", 23, 0, 0, 0, true],
        ["2026-11-21T14:00:00.000Z", 24, 2, 1, 1, false]
      ])
      expect(all.added.map((e) => [e.id, e.name, e.source_code])).toEqual([
        ["99998", "NORTHWIND STAR", "SDN"],
        ["99999", "QUILLFEATHER HOLDINGS LIMITED", "SDN"]
      ])
      expect(all.changed).toEqual([{
        id: "90001",
        name: "KARIMOV, Rustam Valerievich",
        source_code: "SDN",
        source: "Specially Designated Nationals (SDN) - Treasury Department",
        recorded_at: "2026-11-21T14:00:00.000Z"
      }])
      expect(ids(all.removed)).toEqual(["90013"])
      expect(all.removed[0]!.name).toBe("HADDAD, Samir")
      expect(all.next_cursor).toBeNull()

      const later = yield* changes.since({ since: "2026-11-20T14:00:00Z" })
      expect(later.refreshes).toHaveLength(1)
      expect(later.since).toBe("2026-11-20T14:00:00.000Z")
      expect((yield* changes.since({ since: "2026-11-22" })).refreshes).toEqual([])

      const seen: Array<string> = []
      let cursor: string | undefined
      for (let page = 0; page < 10; page++) {
        const got = yield* changes.since({ since: "2026-11-01", limit: 1, ...(cursor ? { cursor } : {}) })
        seen.push(...ids(got.added), ...ids(got.changed), ...ids(got.removed))
        if (got.next_cursor === null) break
        cursor = got.next_cursor
      }
      expect(seen).toEqual(["90001", "90013", "99998", "99999"])

      const bad = yield* Effect.flip(changes.since({ since: "2026-11-01", cursor: "not-a-cursor" }))
      expect(bad._tag).toBe("InvalidRequest")

      const changedIds = yield* changes.changedEntries(["90001", "90013", "99999", "90002"], "2026-11-20T23:00:00Z")
      expect([...changedIds].sort()).toEqual(["90001", "90013"])
      expect((yield* changes.changedEntries(["90001"], "2026-11-21T14:00:00.000Z")).size).toBe(0)

      // the screening registry: a party whose matched entry changed since its screening is due
      const sql = yield* SqlClient
      const screened = (id: string, party: string, hit: string) =>
        writeScreening(sql, "ws-changes", {
          id,
          party,
          decision: "false_positive",
          analyst: "A. Analyst",
          hits: [{ id: hit }],
          screened_at: "2026-11-20T20:00:00.000Z",
          list_published_at: "2026-11-20T13:15:00.015113+00:00"
        })
      yield* screened("scr_1", "Rustam Karimoff Trading", "90001")
      yield* screened("scr_2", "Orion Maritime", "90003")
      const registry = yield* ScreeningRegistry.make.pipe(Effect.provideService(Screening.Screening, listInUse))
      const due = yield* registry.partyStatus("ws-changes", { party: "Rustam Karimoff Trading", rescreen_days: 3650 })
      expect(due.rescreen_reasons).toContain("list entries it matched changed or were removed since (ids 90001)")
      const unchanged = yield* registry.partyStatus("ws-changes", { party: "Orion Maritime", rescreen_days: 3650 })
      expect(unchanged.rescreen_reasons.some((reason) => reason.startsWith("list entries"))).toBe(false)
    }))
})

describe("GET /api/csl/changes", () => {
  let server: RunningServer
  beforeAll(async () => {
    // a screening service that loads the list twice, as two daily refreshes would
    const twoRefreshes = Layer.effect(
      Screening.Screening,
      Effect.gen(function*() {
        const texts = [fixtureText, second]
        const { service } = yield* Screening.make({
          source: {
            kind: "file",
            origin: "text:two-refreshes",
            fetch: () => Effect.succeed({ _tag: "Fetched", text: texts.shift() ?? second, etag: undefined })
          },
          changes: yield* ScreeningChanges.ScreeningChanges
        })
        yield* service.refresh
        yield* service.refresh
        return service
      })
    ).pipe(Layer.provide(Layer.mergeAll(DataGeneration.layer, fixedRegulatoryStatus(suspendedAffiliatesRule))))
    server = await startServer({ app: screeningApp(twoRefreshes) })
  })
  afterAll(() => server.close())

  it("answers the refreshes since a date with their added, changed and removed entries, paged", async () => {
    const response = await server.get("/api/csl/changes?since=2000-01-01&limit=2")
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body.refreshes.map((r: { baseline: boolean }) => r.baseline)).toEqual([true, false])
    expect([...ids(body.added), ...ids(body.changed), ...ids(body.removed)]).toEqual(["90001", "90013"])
    const next = await (await server.get(`/api/csl/changes?since=2000-01-01&limit=2&cursor=${body.next_cursor}`))
      .json()
    expect(ids(next.added)).toEqual(["99998", "99999"])
    expect(next.next_cursor).toBeNull()
    // the list in use is the second one
    const screened = await (await server.get("/api/csl?name=Quillfeather%20Holdings")).json()
    expect(screened.matches[0].id).toBe("99999")
  })

  it("rejects a since that is not a date, and a foreign cursor", async () => {
    for (const query of ["since=yesterday", "since=2026-13-45", "", "since=2026-11-01&limit=501"]) {
      const response = await server.get(`/api/csl/changes?${query}`)
      expect(response.status, query).toBe(400)
      await response.arrayBuffer()
    }
    const foreign = await server.get("/api/csl/changes?since=2026-11-01&cursor=WyJ4Il0")
    expect(foreign.status).toBe(400)
    expect((await foreign.json()).invalidParams[0].name).toBe("cursor")
  })
})
