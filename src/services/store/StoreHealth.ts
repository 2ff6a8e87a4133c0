import { SqlClient } from "@effect/sql/SqlClient"
import { Clock, Context, Effect, Layer } from "effect"

export interface StoreHealthReport {
  readonly engine: "embedded" | "postgresql"
  readonly ok: boolean
  readonly latencyMillis: number
  /** Why the check failed; a class of failure, never a connection string. */
  readonly error?: string
}

/**
 * A cheap probe of the shared-state store for readiness documents: `SELECT 1` within a short
 * deadline. Never fails; an unreachable store is `ok: false`.
 */
export interface StoreHealthShape {
  readonly engine: StoreHealthReport["engine"]
  readonly check: Effect.Effect<StoreHealthReport>
}

export class StoreHealth extends Context.Tag("app/StoreHealth")<StoreHealth, StoreHealthShape>() {}

export const make = (engine: StoreHealthReport["engine"], timeout: "1 second" | "2 seconds" = "2 seconds") =>
  Effect.map(SqlClient, (sql): StoreHealthShape => ({
    engine,
    check: Effect.gen(function*() {
      const start = yield* Clock.currentTimeMillis
      const outcome = yield* sql`SELECT 1`.pipe(
        Effect.timeoutFail({ duration: timeout, onTimeout: () => "no answer within " + timeout }),
        Effect.as(undefined),
        Effect.catchAll((error) => Effect.succeed(typeof error === "string" ? error : "the store refused the query"))
      )
      const latencyMillis = (yield* Clock.currentTimeMillis) - start
      return outcome === undefined
        ? { engine, ok: true, latencyMillis }
        : { engine, ok: false, latencyMillis, error: outcome }
    })
  }))

export const layer = (engine: StoreHealthReport["engine"]): Layer.Layer<StoreHealth, never, SqlClient> =>
  Layer.effect(StoreHealth, make(engine))
