import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Fiber, Option, Ref, TestClock } from "effect"
import * as DataGeneration from "../../src/services/DataGeneration.ts"
import type { EcfrArchive } from "../../src/services/ecfr/Archive.ts"
import { directoryArchive } from "../../src/services/ecfr/DirectoryArchive.ts"
import * as Mirror from "../../src/services/ecfr/Mirror.ts"
import { memoryStore } from "../../src/services/ecfr/SnapshotStore.ts"
import { UpstreamError } from "../../src/services/Upstream.ts"
import { ecfrFixtures, ecfrRoutes, tempDataDir } from "../support/EcfrFake.ts"
import { startFakeUpstream } from "../support/FakeUpstream.ts"
import { startServer } from "../support/TestServer.ts"

/**
 * Issue 19 finding 4: a request waiting on eCFR has an overall deadline, the download it started
 * goes on for the requests after it, and a part that could not be fetched is not asked for by every
 * request (negative caching with a doubling backoff). Time is the TestClock's: nothing here waits.
 */
type Behaviour = { readonly _tag: "Slow"; readonly seconds: number } | { readonly _tag: "Down" } | {
  readonly _tag: "Up"
}

const controlledArchive = Effect.gen(function*() {
  const behaviour = yield* Ref.make<Behaviour>({ _tag: "Up" })
  const downloads = yield* Ref.make(0)
  const base = directoryArchive(ecfrFixtures)
  const archive: EcfrArchive = {
    ...base,
    partXml: (title, date, part) =>
      Effect.gen(function*() {
        yield* Ref.update(downloads, (n) => n + 1)
        const now = yield* Ref.get(behaviour)
        if (now._tag === "Down") {
          return yield* new UpstreamError({ upstream: "ecfr", reason: "status", status: 503, detail: "answered 503" })
        }
        if (now._tag === "Slow") yield* Effect.sleep(`${now.seconds} seconds`)
        return yield* base.partXml(title, date, part)
      })
  }
  return { archive, behaviour, downloads }
})

const mirrorOver = (archive: EcfrArchive) =>
  Mirror.make({
    archive,
    store: memoryStore(),
    generation: DataGeneration.make(),
    options: { ...Mirror.defaultOptions, requestDeadlineMillis: 8_000, missingBackoffMillis: 2_000 }
  })

const failureDetail = <A>(exit: Exit.Exit<A, { readonly detail: string }>) =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Cause.failureOption(exit.cause))?.detail : undefined

describe("eCFR deadlines and negative caching", () => {
  it.scoped("a cold read answers 503 at the deadline while the download goes on for later requests", () =>
    Effect.gen(function*() {
      const { archive, behaviour, downloads } = yield* controlledArchive
      yield* Ref.set(behaviour, { _tag: "Slow", seconds: 30 })
      const mirror = yield* mirrorOver(archive)
      const first = yield* Effect.fork(Effect.exit(mirror.get(740)))
      // the download reads saved files before it sleeps: let it reach the upstream call first
      while ((yield* Ref.get(downloads)) === 0) yield* Effect.promise(() => new Promise((r) => setTimeout(r, 5)))
      yield* TestClock.adjust("8 seconds")
      const exit = yield* Fiber.join(first)
      expect(failureDetail(exit)).toBe(
        "part 740 is not stored yet and eCFR has not delivered it within 8 s; the download goes on. Retry later."
      )
      yield* TestClock.adjust("22 seconds")
      const served = yield* mirror.get(740)
      expect(served.value.part).toBe(740)
      expect(served.stale).toBe(false)
      expect(yield* Ref.get(downloads)).toBe(1)
    }))

  it.scoped("after a failed download requests answer at once until the doubling backoff has passed", () =>
    Effect.gen(function*() {
      const { archive, behaviour, downloads } = yield* controlledArchive
      yield* Ref.set(behaviour, { _tag: "Down" })
      const mirror = yield* mirrorOver(archive)
      const first = yield* Effect.exit(mirror.get(740))
      expect(failureDetail(first)).toContain("eCFR could not be reached (answered 503)")
      expect(yield* Ref.get(downloads)).toBe(1)

      const cached = yield* Effect.exit(mirror.get(740))
      expect(failureDetail(cached)).toContain("the next attempt is in 2 s")
      expect(yield* Ref.get(downloads)).toBe(1)

      yield* TestClock.adjust("2 seconds")
      yield* Effect.exit(mirror.get(740))
      expect(yield* Ref.get(downloads)).toBe(2)
      const doubled = yield* Effect.exit(mirror.get(740))
      expect(failureDetail(doubled)).toContain("the next attempt is in 4 s")
      expect(yield* Ref.get(downloads)).toBe(2)

      yield* Ref.set(behaviour, { _tag: "Up" })
      yield* TestClock.adjust("4 seconds")
      const served = yield* mirror.get(740)
      expect(served.value.part).toBe(740)
      expect(yield* Ref.get(downloads)).toBe(3)
    }))
})

describe("eCFR search under UPSTREAM_DEADLINE_SECONDS", () => {
  it("answers from the local index when eCFR search has not answered by the deadline", async () => {
    const fake = await startFakeUpstream([ecfrRoutes()])
    // a search that would answer after a minute: the per-call timeout and a retry would hold the request 30 s
    fake.route((
      _request,
      url
    ) => (url.pathname === "/api/search/v1/results" ? { delay: 60_000, body: "{}" } : undefined))
    const server = await startServer({
      config: { ecfrBaseUrl: fake.url, dataDir: tempDataDir(), rateLimitPerMinute: 0, upstreamDeadlineSeconds: 1 }
    })
    try {
      expect((await server.get("/api/ecfr/740")).status).toBe(200)
      const response = await server.get("/api/ecfr/740/search?q=lantern")
      expect(response.status).toBe(200)
      const body = await response.json()
      expect(body.meta.engine).toBe("local-index")
      expect(body.meta.notice).toContain("eCFR search is unavailable (no answer within 1 s)")
      expect(body.results[0].section).toBe("740.1")
    } finally {
      await server.close()
      await fake.close()
    }
  }, 60_000)
})
