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

/**
 * Long synchronous work written as a generator that yields at points where pausing is safe; it
 * runs either at once (`runNow`) or in slices between which the event loop serves requests
 * (`runSliced`).
 */
export type Steps<A> = Generator<void, A, void>

/** Every this many loop iterations a step offers to pause (checking the clock each time costs). */
export const stepEvery = 256

export const runNow = <A>(steps: Steps<A>): A => {
  let step = steps.next()
  while (!step.done) step = steps.next()
  return step.value
}

export const runSliced = <A>(steps: Steps<A>, budgetMillis?: number): Effect.Effect<A> =>
  Effect.suspend(() => {
    const tick = slicer(budgetMillis)
    const resume: Effect.Effect<A> = Effect.suspend(() => {
      const step = steps.next()
      return step.done ? Effect.succeed(step.value) : Effect.zipRight(tick, resume)
    })
    return resume
  })
