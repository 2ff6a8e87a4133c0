import { Clock, Context, Effect, Layer } from "effect"
import { overallStatus, type ReadinessCheck, type ReadinessReport } from "../domain/Readiness.ts"
import { ServiceName, ServiceVersion } from "../domain/Service.ts"

/** What a check finds: its status, a one-line summary and the facts behind it. */
export type CheckResult = Omit<ReadinessCheck, "name" | "critical">

/**
 * One dependency's check, contributed by the service that owns it. It reads state the service
 * already holds (no upstream request per call), so `/ready` stays cheap enough to poll.
 */
export interface Contribution<R> {
  readonly name: string
  readonly critical: boolean
  readonly check: Effect.Effect<CheckResult, never, R>
}

export const contribution = <R>(
  name: string,
  critical: boolean,
  check: Effect.Effect<CheckResult, never, R>
): Contribution<R> => ({ name, critical, check })

export interface ReadinessShape {
  readonly report: Effect.Effect<ReadinessReport>
}

export class Readiness extends Context.Tag("app/Readiness")<Readiness, ReadinessShape>() {}

type Requirements<C> = C extends Contribution<infer R> ? R : never

/** The readiness report over the given contributions; each deployment lists the ones it has. */
export const layer = <const C extends ReadonlyArray<Contribution<any>>>(
  contributions: C
): Layer.Layer<Readiness, never, Requirements<C[number]>> =>
  Layer.effect(
    Readiness,
    Effect.map(Effect.context<Requirements<C[number]>>(), (context) => ({
      report: Effect.gen(function*() {
        const checks = yield* Effect.forEach(
          contributions,
          (item) =>
            Effect.map(
              Effect.provide(item.check as Effect.Effect<CheckResult, never, Requirements<C[number]>>, context).pipe(
                // a check that breaks (its service's store is down) is that dependency unavailable,
                // never a failed readiness document
                Effect.catchAllCause(() =>
                  Effect.as(Effect.logWarning("readiness check failed", { check: item.name }), {
                    status: "unavailable" as const,
                    summary: "the check could not run: its data cannot be read (is the store reachable?)",
                    details: {}
                  })
                )
              ),
              (result): ReadinessCheck => ({ name: item.name, critical: item.critical, ...result })
            ),
          { concurrency: "unbounded" }
        )
        return {
          status: overallStatus(checks),
          service: ServiceName,
          version: ServiceVersion,
          timestamp: new Date(yield* Clock.currentTimeMillis).toISOString(),
          checks
        }
      })
    }))
  )
