import { HttpServerResponse } from "@effect/platform"
import { Effect, Schema } from "effect"

/**
 * Fail-soft answers are 200s, but one that carries an `error` must not be cached downstream as if
 * it were data: it goes out with `Cache-Control: no-store` instead of the data policy.
 */
export const noStoreWhenDegraded = <A, I>(schema: Schema.Schema<A, I>, degraded: (value: A) => boolean) => {
  const encode = Schema.encode(schema)
  return (value: A): Effect.Effect<A | HttpServerResponse.HttpServerResponse> =>
    degraded(value)
      ? encode(value).pipe(
        Effect.map((body) => HttpServerResponse.unsafeJson(body, { headers: { "cache-control": "no-store" } })),
        Effect.orDie
      )
      : Effect.succeed(value)
}

export const hasError = (value: { readonly error?: string | undefined }) => value.error !== undefined
