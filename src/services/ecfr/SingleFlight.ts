import { Deferred, Effect, FiberId, type Scope } from "effect"

export interface SingleFlight {
  /** Runs `effect` unless a run under the same key is in flight, in which case its result is shared. */
  readonly run: <A, E>(key: string, effect: Effect.Effect<A, E>) => Effect.Effect<A, E>
  readonly inFlight: (key: string) => boolean
}

/**
 * Collapses concurrent identical work into one run. The run is forked into `scope`, so a caller
 * that goes away (a client disconnecting) does not cancel it for the others, and a background
 * revalidation outlives the request that started it.
 */
export const make = (scope: Scope.Scope): SingleFlight => {
  const flights = new Map<string, Deferred.Deferred<any, any>>()
  return {
    inFlight: (key) => flights.has(key),
    run: <A, E>(key: string, effect: Effect.Effect<A, E>) =>
      Effect.suspend((): Effect.Effect<A, E> => {
        const existing = flights.get(key) as Deferred.Deferred<A, E> | undefined
        if (existing !== undefined) return Deferred.await(existing)
        const deferred = Deferred.unsafeMake<A, E>(FiberId.none)
        flights.set(key, deferred)
        return effect.pipe(
          Effect.exit,
          Effect.flatMap((exit) => Deferred.done(deferred, exit)),
          Effect.onInterrupt(() => Deferred.interrupt(deferred)),
          Effect.ensuring(Effect.sync(() => flights.delete(key))),
          Effect.forkIn(scope),
          Effect.zipRight(Deferred.await(deferred))
        )
      })
  }
}
