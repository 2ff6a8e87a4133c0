import type { Duration } from "effect"
import { Cache, Clock, Effect, Exit, Schema } from "effect"
import type { UpstreamError } from "../Upstream.ts"

/** What a caller reads in `error` when an upstream let us down; never echoes request parameters. */
export const describeFailure = (label: string, error: UpstreamError): string => {
  switch (error.reason) {
    case "timeout":
      return `${label} did not answer in time; retry later.`
    case "unreachable":
      return `${label} could not be reached; retry later.`
    case "status":
      return `${label} answered HTTP ${error.status ?? "error"}; retry later.`
    case "decode":
      return `${label} answered in an unexpected format; the results could not be read.`
    case "circuit-open":
      return `${label} failed repeatedly and is paused for a short while; retry later.`
  }
}

/** Logs the failure (upstream and reason only) and turns it into the soft answer. */
export const softly = <A>(label: string, onFailure: (error: string) => A) => (error: UpstreamError) =>
  Effect.as(
    Effect.logWarning("upstream failed; answering fail-soft", {
      upstream: error.upstream,
      reason: error.reason,
      status: error.status ?? null
    }),
    onFailure(describeFailure(label, error))
  )

/**
 * A bounded in-memory cache in front of an upstream lookup. Successes live for `ttl` (unless `keep`
 * says a value is only partly good); failures are not kept, but concurrent callers of the same key
 * share one upstream request. Keys must have structural equality (`Data.Class`) or be primitives.
 */
export const cachedLookup = <Key, A>(options: {
  readonly capacity: number
  readonly ttl: Duration.DurationInput
  readonly lookup: (key: Key) => Effect.Effect<A, UpstreamError>
  readonly keep?: (value: A) => boolean
}): Effect.Effect<(key: Key) => Effect.Effect<A, UpstreamError>> =>
  Effect.map(
    Cache.makeWith({
      capacity: options.capacity,
      lookup: options.lookup,
      timeToLive: (exit) => Exit.isSuccess(exit) && (options.keep?.(exit.value) ?? true) ? options.ttl : 0
    }),
    (cache) => (key: Key) => cache.get(key)
  )

/**
 * Decodes each element on its own: one malformed record drops out (and is counted in the log)
 * instead of failing the whole answer.
 */
export const decodeEach = <A, I>(
  upstream: string,
  schema: Schema.Schema<A, I>,
  items: ReadonlyArray<unknown>
): Effect.Effect<Array<A>> => {
  const decode = Schema.decodeUnknownOption(schema)
  const valid: Array<A> = []
  for (const item of items) {
    const decoded = decode(item)
    if (decoded._tag === "Some") valid.push(decoded.value)
  }
  const dropped = items.length - valid.length
  return dropped === 0
    ? Effect.succeed(valid)
    : Effect.as(Effect.logWarning("upstream records skipped as malformed", { upstream, dropped }), valid)
}

export const optionalNullable = <S extends Schema.Schema.Any>(schema: S) => Schema.optional(Schema.NullOr(schema))

/** Today's date (UTC) from the Effect clock, YYYY-MM-DD. */
export const today = Effect.map(Clock.currentTimeMillis, (now) => new Date(now).toISOString().slice(0, 10))
