import { HttpLayerRouter, HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, FiberRef, Option } from "effect"
import * as Tracing from "../src/layers/Tracing.ts"
import * as WebApp from "./support/WebApp.ts"

/** How the current fiber traces: whether spans are real, and the id of a span made in it. */
const tracingState = Effect.gen(function*() {
  const enabled = yield* FiberRef.get(FiberRef.currentTracerEnabled)
  const span = yield* Effect.option(Effect.currentSpan).pipe(Effect.withSpan("probe"))
  return { enabled, spanId: Option.map(span, (made) => made.spanId) }
})

/** A route answering how its request fiber traces. */
const probe = HttpLayerRouter.add(
  "GET",
  "/tracing",
  Effect.flatMap(
    tracingState,
    (state) => HttpServerResponse.json({ enabled: state.enabled, spanId: Option.getOrNull(state.spanId) })
  )
)

describe("tracing", () => {
  it.effect("is on without the layer: spans get real ids", () =>
    Effect.gen(function*() {
      const state = yield* tracingState
      expect(state.enabled).toBe(true)
      expect(state.spanId).toEqual(Option.some(expect.stringMatching(/^[0-9a-f]{16}$/)))
    }))

  it.effect("is off under Tracing.disabled: spans are no-ops", () =>
    Effect.gen(function*() {
      expect(yield* tracingState).toEqual({ enabled: false, spanId: Option.some("noop") })
    }).pipe(Effect.provide(Tracing.disabled)))

  it.scoped("is off in the requests of an app assembled for a runtime (forRuntime)", () =>
    Effect.gen(function*() {
      const app = yield* WebApp.make(probe)
      const { body, response } = yield* app.json("/tracing")
      expect(response.status).toBe(200)
      expect(body).toEqual({ enabled: false, spanId: "noop" })
    }))
})
