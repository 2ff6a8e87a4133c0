import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Option } from "effect"
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as DataGeneration from "../src/services/DataGeneration.ts"
import * as Screening from "../src/services/Screening.ts"
import * as ListSource from "../src/services/screening/ListSource.ts"
import { type FakeUpstream, json, startFakeUpstream } from "./support/FakeUpstream.ts"
import { captureLogs } from "./support/LogCapture.ts"
import { fixedRegulatoryStatus, fixtureText, screeningApp, suspendedAffiliatesRule } from "./support/ScreeningApp.ts"
import { type RunningServer, startServer } from "./support/TestServer.ts"

const fixture = JSON.parse(fixtureText)
const withExtraEntry = JSON.stringify({
  ...fixture,
  results: [...fixture.results, {
    ...fixture.results[0],
    id: "99999",
    name: "QUILLFEATHER HOLDINGS LIMITED",
    alt_names: []
  }]
})

/** Polls `GET /api/csl` until the list is loaded (the live layer loads it in the background). */
const screenWhenReady = async (server: RunningServer, query: string) => {
  for (let attempt = 0; attempt < 200; attempt++) {
    const response = await server.get(`/api/csl?${query}`)
    if (response.status !== 503) return response
    await response.arrayBuffer()
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error("the screening list never loaded")
}

describe("live screening list", () => {
  let upstream: FakeUpstream | undefined
  const servers: Array<RunningServer> = []
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close()
    await upstream?.close()
  })
  const start = async (dataDir: string) => {
    const server = await startServer({
      config: { dataDir, cslBulkUrl: `${upstream!.url}/downloadable_consolidated_screening_list/v1/consolidated.json` },
      app: screeningApp(Screening.layer)
    })
    servers.push(server)
    return server
  }

  it("downloads CSL_BULK_URL, keeps the copy under DATA_DIR, and screens from it after a restart without upstream", async () => {
    upstream = await startFakeUpstream([
      () => ({ ...json(fixture), headers: { "content-type": "application/json", etag: "\"v1\"" } })
    ])
    const dataDir = mkdtempSync(join(tmpdir(), "ecds-csl-"))
    const first = await start(dataDir)
    const fresh = await (await screenWhenReady(first, "name=Rustam%20Karimov")).json()
    expect(fresh.matches[0].name).toBe("KARIMOV, Rustam Valerievich")
    expect(fresh.dataset.stale).toBe(false)
    expect(upstream.hits.get("/downloadable_consolidated_screening_list/v1/consolidated.json")).toBe(1)
    expect(existsSync(join(dataDir, "csl", "consolidated.json"))).toBe(true)
    await servers.pop()!.close()

    upstream.down = 503
    const restarted = await start(dataDir)
    const stored = await (await screenWhenReady(restarted, "name=Rustam%20Karimov")).json()
    expect(stored.matches[0].name).toBe("KARIMOV, Rustam Valerievich")
    expect(stored.dataset.stale).toBe(true)
  })

  it("answers 503 while no list was ever loaded", async () => {
    upstream = await startFakeUpstream()
    upstream.down = 503
    const server = await start(mkdtempSync(join(tmpdir(), "ecds-csl-")))
    const response = await server.get("/api/csl?name=Rustam%20Karimov")
    expect(response.status).toBe(503)
    const body = await response.json()
    expect(body).toMatchObject({ status: 503, upstream: "csl" })
    expect(JSON.stringify(body)).not.toContain("Rustam")
  })

  it("reads CSL_FILE when it is set", async () => {
    const server = await startServer({
      config: { cslFile: Option.some("test/fixtures/screening/consolidated.json") },
      app: screeningApp(Screening.layer)
    })
    servers.push(server)
    const body = await (await screenWhenReady(server, "name=Sea%20Falcon")).json()
    expect(body.matches[0]).toMatchObject({ name: "SEA FALCON", type: "Vessel", vessel: { call_sign: "3EXY7" } })
  })
})

/** A source whose answer the test changes, and the service built on it. */
const controllable = (initial: string) => {
  let next: () => Effect.Effect<ListSource.Fetched, ListSource.ListSourceError> = () =>
    Effect.succeed({ _tag: "Fetched", text: initial, etag: undefined })
  const source: ListSource.ListSource = { kind: "url", origin: "https://lists.example/csl.json", fetch: () => next() }
  const serve = (text: string) => {
    next = () => Effect.succeed({ _tag: "Fetched", text, etag: undefined })
  }
  const fail = () => {
    next = () => Effect.fail(new ListSource.ListSourceError({ reason: "bulk list download failed: 503" }))
  }
  return { source, serve, fail }
}

const withService = <A, E>(
  source: ListSource.ListSource,
  body: (service: Screening.ScreeningShape, generation: DataGeneration.DataGenerationShape) => Effect.Effect<A, E>
) =>
  Effect.gen(function*() {
    const generation = DataGeneration.make()
    const { service } = yield* Screening.make({
      source,
      store: ListSource.makeStore(mkdtempSync(join(tmpdir(), "ecds-csl-")))
    }).pipe(
      Effect.provide(Layer.mergeAll(
        Layer.succeed(DataGeneration.DataGeneration, generation),
        fixedRegulatoryStatus(suspendedAffiliatesRule)
      ))
    )
    return yield* body(service, generation)
  })

describe("refresh", () => {
  it.effect("keeps the last good index when the new file is malformed, truncated or unreachable", () => {
    const control = controllable(fixtureText)
    return withService(control.source, (service) =>
      Effect.gen(function*() {
        expect(yield* service.refresh).toBe("updated")
        const refusals = [
          () => control.serve("{\"results\": \"KARIMOV"),
          () => control.serve(JSON.stringify({ ...fixture, results: fixture.results.slice(0, 5) })),
          () => control.fail()
        ]
        for (const refuse of refusals) {
          refuse()
          expect(yield* service.refresh).toBe("failed")
          const status = yield* service.status
          expect(status).toMatchObject({ loaded: true, entries: 23, stale: true })
          const response = yield* service.search({ name: "Rustam Karimov" })
          expect(response.matches[0]!.name).toBe("KARIMOV, Rustam Valerievich")
          expect(response.dataset.stale).toBe(true)
        }
        control.serve(withExtraEntry)
        expect(yield* service.refresh).toBe("updated")
        expect(yield* service.status).toMatchObject({ entries: 24, stale: false })
      }))
  })

  it.effect("swaps atomically: searches running during refreshes see either the old or the new list, never a mix", () => {
    const control = controllable(fixtureText)
    return withService(control.source, (service, generation) =>
      Effect.gen(function*() {
        yield* service.refresh
        const before = generation.current()
        const search = service.search({ name: "Quillfeather Holdings Ltd", min_score: 90 }).pipe(
          Effect.map((response) => ({ entries: response.dataset.entries, found: response.total > 0 }))
        )
        const observed: Array<{ entries: number; found: boolean }> = []
        const searcher = yield* Effect.fork(
          Effect.forever(search.pipe(Effect.tap((o) => observed.push(o)), Effect.zipLeft(Effect.yieldNow())))
        )
        for (const text of [withExtraEntry, fixtureText, withExtraEntry]) {
          control.serve(text)
          yield* service.refresh
          for (let turn = 0; turn < 5; turn++) yield* Effect.yieldNow()
        }
        yield* Fiber.interrupt(searcher)
        expect(new Set(observed.map((o) => o.entries))).toEqual(new Set([23, 24]))
        for (const o of observed) expect(o.found).toBe(o.entries === 24)
        expect(generation.current()).toBe(before + 3)
        expect((yield* search).found).toBe(true)
      }))
  })

  it.effect("an unchanged download (304) keeps the index and clears staleness", () =>
    Effect.gen(function*() {
      let calls = 0
      const source: ListSource.ListSource = {
        kind: "url",
        origin: "https://lists.example/csl.json",
        fetch: (etag) =>
          Effect.sync((): ListSource.Fetched => {
            calls++
            return etag === "\"v1\"" ? { _tag: "Unchanged" } : { _tag: "Fetched", text: fixtureText, etag: "\"v1\"" }
          })
      }
      yield* withService(source, (service, generation) =>
        Effect.gen(function*() {
          expect(yield* service.refresh).toBe("updated")
          const loaded = generation.current()
          expect(yield* service.refresh).toBe("unchanged")
          expect(generation.current()).toBe(loaded)
          expect((yield* service.status).stale).toBe(false)
        }))
      expect(calls).toBe(2)
    }))
})

describe("real list (skipped when ../shared/data is absent)", () => {
  const path = "../shared/data/csl/consolidated.json"
  it.skipIf(!existsSync(path))("loads the full consolidated list and finds listed names", () =>
    Effect.gen(function*() {
      const control = controllable(readFileSync(path, "utf8"))
      yield* withService(control.source, (service) =>
        Effect.gen(function*() {
          expect(yield* service.refresh).toBe("updated")
          expect((yield* service.status).entries).toBeGreaterThan(20_000)
          const cuba = yield* service.search({ name: "Banco Nacional de Cuba" })
          expect(cuba.matches[0]).toMatchObject({ name: "BANCO NACIONAL DE CUBA", score: 100, source_code: "SDN" })
          const huawei = yield* service.search({ name: "Hua Wei Technologies Co Ltd", sources: ["EL"] })
          expect(huawei.matches.every((match) => match.source_code === "EL")).toBe(true)
          expect(huawei.total).toBeGreaterThan(0)
        }))
    }).pipe(Effect.runPromise), 120_000)
})

describe("the stored copy remembers its source", () => {
  const sourceOf = (origin: string, text: string | undefined): ListSource.ListSource => ({
    kind: "url",
    origin,
    fetch: () =>
      text === undefined
        ? Effect.fail(new ListSource.ListSourceError({ reason: "unreachable" }))
        : Effect.succeed({ _tag: "Fetched", text, etag: undefined })
  })
  const serviceOver = (source: ListSource.ListSource, dataDir: string) =>
    Screening.make({ source, store: ListSource.makeStore(dataDir) }).pipe(
      Effect.provide(Layer.mergeAll(
        Layer.succeed(DataGeneration.DataGeneration, DataGeneration.make()),
        fixedRegulatoryStatus(suspendedAffiliatesRule)
      ))
    )
  const loaded = (service: Screening.ScreeningShape) =>
    service.search({ name: "KARIMOV" }).pipe(Effect.match({ onFailure: () => false, onSuccess: () => true }))

  it.effect("a restart with another source never screens against the copy the first one kept", () =>
    Effect.gen(function*() {
      const dataDir = mkdtempSync(join(tmpdir(), "ecds-csl-"))
      const test = yield* serviceOver(sourceOf("file:/tmp/test-list.json", fixtureText), dataDir)
      expect(yield* test.service.refresh).toBe("updated")

      const other = yield* serviceOver(sourceOf("https://data.trade.gov/consolidated.json", undefined), dataDir)
      yield* other.restore
      expect(yield* loaded(other.service)).toBe(false)

      const same = yield* serviceOver(sourceOf("file:/tmp/test-list.json", undefined), dataDir)
      yield* same.restore
      expect(yield* loaded(same.service)).toBe(true)
    }))

  it.effect("a failed refresh says whether a last good list answers or none was ever loaded", () =>
    Effect.gen(function*() {
      const { lines, logger } = captureLogs()
      const dataDir = mkdtempSync(join(tmpdir(), "ecds-csl-"))
      const never = yield* serviceOver(sourceOf("https://data.trade.gov/consolidated.json", undefined), dataDir)
      expect(yield* never.service.refresh.pipe(Effect.provide(logger))).toBe("failed")
      expect(lines.join("\n")).toContain(
        "screening list refresh failed; no list is loaded yet, so screening answers 503"
      )
      expect(lines.join("\n")).not.toContain("last good list")

      lines.length = 0
      let text: string | undefined = fixtureText
      const flaky = yield* serviceOver({
        ...sourceOf("file:/tmp/flaky.json", undefined),
        fetch: () =>
          text === undefined
            ? Effect.fail(new ListSource.ListSourceError({ reason: "unreachable" }))
            : Effect.succeed({ _tag: "Fetched" as const, text, etag: undefined })
      }, dataDir)
      expect(yield* flaky.service.refresh).toBe("updated")
      text = undefined
      expect(yield* flaky.service.refresh.pipe(Effect.provide(logger))).toBe("failed")
      expect(lines.join("\n")).toContain("screening list refresh failed; keeping the last good list")
    }))

  it.effect("a first start on an empty DATA_DIR has no copy to restore and warns of none", () =>
    Effect.gen(function*() {
      const { lines, logger } = captureLogs()
      const dataDir = mkdtempSync(join(tmpdir(), "ecds-csl-"))
      const fresh = yield* serviceOver(sourceOf("https://data.trade.gov/consolidated.json", undefined), dataDir)
      yield* fresh.restore.pipe(Effect.provide(logger))
      expect(lines).toEqual([])
      expect(yield* loaded(fresh.service)).toBe(false)
    }))
})
