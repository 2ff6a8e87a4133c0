import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber } from "effect"
import { makeTurns } from "../../src/services/store/PgliteTurns.ts"

// PGlite's single connection is shared through turns: what a waiting, interrupted or failing
// statement and a held transaction turn do to the ones behind them.

/** A task whose promise the test settles, recording when it starts. */
const gate = (log: Array<string>, name: string) => {
  let settle: (outcome: { ok: boolean }) => void = () => {}
  const task = () =>
    new Promise<string>((resolve, reject) => {
      log.push(`${name} started`)
      settle = ({ ok }) => (ok ? resolve(name) : reject(new Error(`${name} failed`)))
    })
  return { task, settle: (ok = true) => settle({ ok }) }
}

/** Lets every pending promise callback and queued fiber step run. */
const settled = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))

const failure = (cause: unknown) => ({ _tag: "Failed" as const, message: String(cause) })

describe("PGlite turns", () => {
  it.effect("runs statements one at a time, in the order they asked", () =>
    Effect.gen(function*() {
      const turns = makeTurns()
      const log: Array<string> = []
      const [a, b] = [gate(log, "a"), gate(log, "b")]
      const first = yield* Effect.fork(turns.statement(a.task, failure))
      const second = yield* Effect.fork(turns.statement(b.task, failure))
      yield* settled
      expect(log).toEqual(["a started"])
      a.settle()
      expect(yield* Fiber.join(first)).toBe("a")
      yield* settled
      expect(log).toEqual(["a started", "b started"])
      b.settle(false)
      expect(yield* Effect.flip(Fiber.join(second))).toEqual({ _tag: "Failed", message: "Error: b failed" })
    }))

  it.effect("skips a statement interrupted while it waited; the next one runs", () =>
    Effect.gen(function*() {
      const turns = makeTurns()
      const log: Array<string> = []
      const [a, b, c] = [gate(log, "a"), gate(log, "b"), gate(log, "c")]
      yield* Effect.fork(turns.statement(a.task, failure))
      const waiting = yield* Effect.fork(turns.statement(b.task, failure))
      const last = yield* Effect.fork(turns.statement(c.task, failure))
      yield* settled
      yield* Fiber.interrupt(waiting)
      a.settle()
      yield* settled
      expect(log).toEqual(["a started", "c started"])
      c.settle()
      expect(yield* Fiber.join(last)).toBe("c")
    }))

  it.effect("a statement that began runs to its end before the next, even when its fiber was interrupted", () =>
    Effect.gen(function*() {
      const turns = makeTurns()
      const log: Array<string> = []
      const [a, b] = [gate(log, "a"), gate(log, "b")]
      const running = yield* Effect.fork(turns.statement(a.task, failure))
      const next = yield* Effect.fork(turns.statement(b.task, failure))
      yield* settled
      expect(Exit.isInterrupted(yield* Fiber.interrupt(running))).toBe(true)
      yield* settled
      expect(log).toEqual(["a started"])
      a.settle()
      yield* settled
      expect(log).toEqual(["a started", "b started"])
      b.settle()
      expect(yield* Fiber.join(next)).toBe("b")
    }))

  it.effect("a held turn keeps statements waiting until it ends", () =>
    Effect.gen(function*() {
      const turns = makeTurns()
      const log: Array<string> = []
      const a = gate(log, "a")
      const end = yield* turns.hold
      const waiting = yield* Effect.fork(turns.statement(a.task, failure))
      yield* settled
      expect(log).toEqual([])
      end()
      yield* settled
      expect(log).toEqual(["a started"])
      a.settle()
      expect(yield* Fiber.join(waiting)).toBe("a")
    }))

  it.effect("a hold interrupted while it waited gives its turn on", () =>
    Effect.gen(function*() {
      const turns = makeTurns()
      const log: Array<string> = []
      const [a, b] = [gate(log, "a"), gate(log, "b")]
      yield* Effect.fork(turns.statement(a.task, failure))
      const holding = yield* Effect.fork(turns.hold)
      const after = yield* Effect.fork(turns.statement(b.task, failure))
      yield* settled
      yield* Fiber.interrupt(holding)
      a.settle()
      yield* settled
      expect(log).toEqual(["a started", "b started"])
      b.settle()
      expect(yield* Fiber.join(after)).toBe("b")
    }))
})
