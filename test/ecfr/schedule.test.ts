import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Fiber, Layer, Logger, LogLevel, Supervisor, TestClock } from "effect"
import * as AppConfig from "../../src/services/AppConfig.ts"
import * as DataGeneration from "../../src/services/DataGeneration.ts"
import * as Ecfr from "../../src/services/ecfr/Live.ts"
import * as PartFills from "../../src/services/ecfr/PartFills.ts"
import { EcfrSource } from "../../src/services/EcfrSource.ts"
import { ecfrRoutes, tempDataDir } from "../support/EcfrFake.ts"
import { type FakeUpstream, startFakeUpstream } from "../support/FakeUpstream.ts"

/** Real-time polling: the upstream calls are real I/O while the service's clock is the TestClock. */
const until = (condition: () => boolean) =>
  Effect.promise(async () => {
    const deadline = Date.now() + 10_000
    while (!condition()) {
      if (Date.now() > deadline) throw new Error("condition not reached in time")
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  })

/**
 * Runs a read and keeps hold of every fiber it forked, at any depth: the background re-check a
 * read starts. `settled` waits (in real time, the clock standing still) until all of them have
 * ended, so what the re-check did or did not ask the upstream can be asserted without guessing
 * how long it takes.
 */
const tracked = <A, E>(read: Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const tracker = yield* Supervisor.track
    const value = yield* Effect.supervised(read, tracker)
    const settled = Effect.gen(function*() {
      for (let live = yield* tracker.value; live.length > 0; live = yield* tracker.value) {
        yield* Fiber.awaitAll(live)
      }
    })
    return { value, settled, running: Effect.map(tracker.value, (live) => live.length > 0) }
  })

/** Like `settled`, moving the TestClock on so that the retry back-offs of failing calls elapse. */
const settledAdvancing = (running: Effect.Effect<boolean>) =>
  Effect.gen(function*() {
    for (let i = 0; i < 200 && (yield* running); i++) {
      yield* TestClock.adjust("1 second")
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
    }
    if (yield* running) throw new Error("the background refresh did not end in time")
  })

const count = (fake: FakeUpstream, pattern: RegExp) => fake.requests.filter((r) => pattern.test(r.url)).length
const downloads740 = (fake: FakeUpstream) => count(fake, /\/full\/.*\?part=740$/)
const titleChecks = (fake: FakeUpstream) => count(fake, /\/titles\.json$/)

const withSource = Effect.gen(function*() {
  const fake = yield* Effect.acquireRelease(
    Effect.promise(() => startFakeUpstream([ecfrRoutes()])),
    (started) => Effect.promise(() => started.close())
  )
  yield* TestClock.setTime(Date.parse("2026-11-20T22:00:00Z"))
  const layer = Ecfr.layer.pipe(
    Layer.provide(AppConfig.layerWith({ ecfrBaseUrl: fake.url, dataDir: tempDataDir() })),
    Layer.provide(FetchHttpClient.layer),
    Layer.provide(DataGeneration.layer),
    Layer.provide(PartFills.layerAlone)
  )
  const source = Context.get(yield* Layer.build(layer), EcfrSource)
  return { fake, source }
}).pipe(Logger.withMinimumLogLevel(LogLevel.None))

const partState = (source: Context.Tag.Service<EcfrSource>, part: number) =>
  Effect.map(source.cacheReport, (report) => report.parts.find((p) => p.part === part)!)

describe("eCFR freshness and the daily refresh", () => {
  it.scoped("re-checks a part after one hour and downloads every part again at 00:00 UTC", () =>
    Effect.gen(function*() {
      const { fake, source } = yield* withSource
      yield* source.structure(740)
      expect(downloads740(fake)).toBe(1)
      expect((yield* source.cacheReport).nextDailyRefresh).toBe("2026-11-21T00:00:00.000Z")

      yield* TestClock.adjust("59 minutes")
      const early = yield* tracked(source.structure(740))
      yield* early.settled
      expect(titleChecks(fake)).toBe(1)

      yield* TestClock.adjust("2 minutes")
      const due = yield* tracked(source.structure(740))
      expect(due.value.stale).toBe(false)
      yield* due.settled
      expect(titleChecks(fake)).toBe(2)
      expect(downloads740(fake)).toBe(1)
      expect(yield* partState(source, 740)).toMatchObject({ state: "fresh", verifiedAt: "2026-11-20T23:01:00.000Z" })

      yield* TestClock.adjust("59 minutes")
      yield* until(() => downloads740(fake) === 2 && count(fake, /\/full\/.*\?part=121$/) === 1)
      yield* until(() => count(fake, /\?part=774$/) > 0)
      expect((yield* source.cacheReport).nextDailyRefresh).toBe("2026-11-22T00:00:00.000Z")
    }))

  it.scoped("turns stale while eCFR is down and recovers when it is back", () =>
    Effect.gen(function*() {
      const { fake, source } = yield* withSource
      yield* source.sections(740)
      fake.down = 503
      yield* TestClock.adjust("61 minutes")
      const failing = yield* tracked(source.sections(740))
      expect(failing.value.stale).toBe(false)
      yield* settledAdvancing(failing.running)
      // the first attempt and two retries, then the failure is recorded
      expect(titleChecks(fake)).toBe(4)
      const stale = yield* source.sections(740)
      expect(stale.stale).toBe(true)
      expect(stale.value.count).toBe(5)
      expect(yield* partState(source, 740)).toMatchObject({
        state: "stale",
        lastFailure: { detail: expect.any(String) }
      })

      fake.down = undefined
      yield* TestClock.adjust("61 seconds")
      const recovering = yield* tracked(source.sections(740))
      yield* recovering.settled
      expect(titleChecks(fake)).toBe(5)
      expect(fake.requests.at(-1)?.url).toMatch(/\/titles\.json$/)
      expect((yield* source.sections(740)).stale).toBe(false)
      expect(yield* partState(source, 740)).toMatchObject({ state: "fresh", lastFailure: null })
    }))
})
