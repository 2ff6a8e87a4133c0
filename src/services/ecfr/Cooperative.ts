import { Effect } from "effect"

/** Gives the event loop a turn (timers and I/O), whatever the Effect clock is. */
const yieldToEventLoop = Effect.async<void>((resume) => {
  const timer = setTimeout(() => resume(Effect.void), 0)
  return Effect.sync(() => clearTimeout(timer))
})

/**
 * A time slicer for long CPU work (parsing and rendering a 2 MB part): `yield* tick` between units
 * of work pauses once `budgetMillis` of uninterrupted work has passed, so requests keep being
 * served while a part is refreshed.
 */
export const slicer = (budgetMillis = 8): Effect.Effect<void> => {
  let since = performance.now()
  return Effect.suspend(() =>
    performance.now() - since < budgetMillis
      ? Effect.void
      : Effect.tap(yieldToEventLoop, () =>
        Effect.sync(() => {
          since = performance.now()
        }))
  )
}
