import { Clock, Context, Data, Effect, Layer } from "effect"
import { AppConfig } from "../src/services/AppConfig.ts"

export interface RateLimitDecision {
  readonly allowed: boolean
  readonly limit: number
  readonly remaining: number
  /** Seconds until the client's window resets. */
  readonly resetSeconds: number
}

export class RateLimiterError extends Data.TaggedError("RateLimiterError")<{ readonly reason: string }> {}

export interface RateLimiterShape {
  /** Requests allowed per window; 0 means the limit is off. */
  readonly limit: number
  readonly windowSeconds: number
  readonly consume: (key: string) => Effect.Effect<RateLimitDecision, RateLimiterError>
}

/** The anonymous per-client budget. Callers treat a failure as "allow" (the limit fails open). */
export class RateLimiter extends Context.Tag("app/RateLimiter")<RateLimiter, RateLimiterShape>() {}

interface Window {
  start: number
  count: number
}

/**
 * In-memory fixed windows that start at a client's first request. Memory is bounded: expired
 * windows are swept as the table grows, and past `maxClients` new clients are refused with an
 * error (so they are let through, never blocked).
 */
export const makeInMemory = (
  options: { readonly limit: number; readonly windowSeconds: number; maxClients?: number }
) =>
  Effect.sync((): RateLimiterShape => {
    const windowMs = options.windowSeconds * 1000
    const maxClients = options.maxClients ?? 100_000
    const windows = new Map<string, Window>()
    let nextSweep = 1024
    const sweep = (now: number) => {
      for (const [key, window] of windows) {
        if (now - window.start >= windowMs) windows.delete(key)
      }
      nextSweep = Math.max(1024, windows.size * 2)
    }
    return {
      limit: options.limit,
      windowSeconds: options.windowSeconds,
      consume: (key) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          let window = windows.get(key)
          if (window === undefined || now - window.start >= windowMs) {
            if (window === undefined && windows.size >= nextSweep) sweep(now)
            if (window === undefined && windows.size >= maxClients) {
              return Effect.fail(new RateLimiterError({ reason: "client table full" }))
            }
            window = { start: now, count: 0 }
            windows.set(key, window)
          }
          const allowed = window.count < options.limit
          if (allowed) window.count++
          return Effect.succeed({
            allowed,
            limit: options.limit,
            remaining: Math.max(0, options.limit - window.count),
            resetSeconds: Math.max(1, Math.ceil((window.start + windowMs - now) / 1000))
          })
        })
    }
  })

export const layer: Layer.Layer<RateLimiter, never, AppConfig> = Layer.effect(
  RateLimiter,
  Effect.flatMap(AppConfig, (config) => makeInMemory({ limit: config.rateLimitPerMinute, windowSeconds: 60 }))
)
