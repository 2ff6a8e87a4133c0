import type { HttpClient } from "@effect/platform"
import { Clock, Context, Effect, Layer, Ref } from "effect"
import { AppConfig } from "./AppConfig.ts"
import * as Upstream from "./Upstream.ts"

export interface EcfrReachabilityShape {
  /** `ok`, or `error: <detail>` from a real request to the eCFR API with a short timeout. */
  readonly check: Effect.Effect<string>
}

export class EcfrReachability extends Context.Tag("app/EcfrReachability")<
  EcfrReachability,
  EcfrReachabilityShape
>() {}

/** Probes are remembered briefly so that health checks cannot be used to hammer the upstream. */
const rememberMillis = 15_000

export const make = Effect.gen(function*() {
  const config = yield* AppConfig
  const client = yield* Upstream.make({
    name: "ecfr",
    baseUrl: config.ecfrBaseUrl,
    timeout: "3 seconds",
    retries: 0,
    breaker: { failures: 1_000_000, cooldownMillis: 0 }
  })
  const last = yield* Ref.make<{ readonly at: number; readonly result: string } | undefined>(undefined)
  const probe = client.get("/api/versioner/v1/titles.json", { headers: { accept: "application/json" } }).pipe(
    Effect.as("ok"),
    Effect.catchAll((error) => Effect.succeed(`error: ${error.detail}`))
  )
  const check = Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const remembered = yield* Ref.get(last)
    if (remembered !== undefined && now - remembered.at < rememberMillis) return remembered.result
    const result = yield* probe
    yield* Ref.set(last, { at: now, result })
    return result
  })
  return { check } satisfies EcfrReachabilityShape
})

export const layer: Layer.Layer<EcfrReachability, never, AppConfig | HttpClient.HttpClient> = Layer.effect(
  EcfrReachability,
  make
)
