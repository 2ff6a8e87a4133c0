import { RateLimiterStore, RateLimitStoreError } from "@effect/experimental/RateLimiter"
import { Cause, Duration, Effect, Layer, Schema } from "effect"
import { Redis, type RedisOptions } from "ioredis"
import { createHash } from "node:crypto"

/**
 * ioredis options for `REDIS_URL` (`redis://[user:password@]host[:port][/db]`, `rediss://` for TLS).
 * Tuned to fail open fast: a command waits at most 500 ms (also while disconnected), is given up
 * after one failed reconnection, and reconnection backs off to 5 s. Auto-pipelining sends the
 * counters of requests arriving in the same event-loop turn in one write (one round trip for a
 * burst instead of one each; `npm run bench -- rate-limit`).
 */
export const redisOptions = (url: string): RedisOptions => {
  const parsed = new URL(url)
  const database = parsed.pathname.replace(/^\//, "")
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: parsed.port === "" ? 6379 : Number(parsed.port),
    ...(parsed.username === "" ? {} : { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password === "" ? {} : { password: decodeURIComponent(parsed.password) }),
    ...(/^\d+$/.test(database) ? { db: Number(database) } : {}),
    ...(parsed.protocol === "rediss:" ? { tls: { servername: parsed.hostname } } : {}),
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
    connectTimeout: 2_000,
    retryStrategy: (attempt: number) => Math.min(attempt * 200, 5_000)
  }
}

/**
 * A fixed window: KEYS[1] counts the tokens taken, expiring when the window of the tokens taken so
 * far has passed; ARGV = tokens, refill milliseconds per token, limit ("" for none). Answers the
 * count after taking and its time to live; over the limit nothing is taken (the count answered is
 * then above the limit). The key layout is that of `@effect/experimental`'s Redis store, so
 * instances of the version that used it count with these.
 */
const fixedWindowScript = `
local taken = tonumber(redis.call("GET", KEYS[1]) or "0")
local ttl = 0
if taken > 0 then ttl = math.max(redis.call("PTTL", KEYS[1]), 0) end
local tokens = tonumber(ARGV[1])
local limit = tonumber(ARGV[3])
if limit ~= nil and taken + tokens > limit then return { taken + tokens, ttl } end
ttl = math.ceil(ttl + tonumber(ARGV[2]) * tokens)
redis.call("SET", KEYS[1], taken + tokens, "PX", ttl)
return { taken + tokens, ttl }`

/**
 * A token bucket in a hash at KEYS[1] (tokens left, when last refilled); ARGV = tokens, refill
 * milliseconds per token, limit, now (epoch ms), "1" to allow overflow. Answers the tokens left
 * after taking; without overflow a take that does not fit is answered negative but not stored. The
 * hash expires once the bucket would be full again, which is the state of a key never seen.
 */
const tokenBucketScript = `
local tokens, refill, limit, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local held = redis.call("HMGET", KEYS[1], "left", "at")
local left, at = tonumber(held[1]), tonumber(held[2])
if left == nil or at == nil then
  left, at = limit, now
else
  local refills = math.floor((now - at) / refill)
  if refills > 0 then
    left = math.min(limit, left + refills)
    at = at + refills * refill
  end
end
local after = left - tokens
if ARGV[5] == "1" or after >= 0 then left = after end
redis.call("HSET", KEYS[1], "left", left, "at", at)
redis.call("PEXPIRE", KEYS[1], math.max(1, math.ceil((limit - left) * refill)))
return after`

const storeError = (command: string) => (cause: unknown) =>
  new RateLimitStoreError({ message: `Redis did not run the ${command} counter`, cause })

/** A script run by its digest (the body crosses the wire once per Redis server, not per call). */
const script = (body: string) => ({ body, sha: createHash("sha1").update(body).digest("hex") })

const runScript = (
  client: Redis,
  { body, sha }: ReturnType<typeof script>,
  key: string,
  args: ReadonlyArray<string | number>
): Promise<unknown> =>
  client.evalsha(sha, 1, key, ...args).catch((error: unknown) =>
    // a Redis that restarted (or never ran it) has forgotten the script: send it once more
    error instanceof Error && error.message.startsWith("NOSCRIPT")
      ? client.eval(body, 1, key, ...args)
      : Promise.reject(error)
  )

const fixedWindow = script(fixedWindowScript)
const tokenBucket = script(tokenBucketScript)

/** A script's reply read as `schema`; a reply of another shape is a store failure like any other. */
const reply = <A, I>(schema: Schema.Schema<A, I>, command: string) => {
  const decode = Schema.decodeUnknown(schema)
  return (value: unknown) => Effect.mapError(decode(value), storeError(command))
}
const decodeWindow = reply(Schema.Tuple(Schema.Number, Schema.Number), "fixed-window")
const decodeLeft = reply(Schema.Number, "token-bucket")

/**
 * The rate limiter's counters in Redis, over a client this layer owns. Owning it is what lets the
 * layer listen to the client's connection errors: without a listener ioredis writes each failed
 * reconnection (every few seconds of an outage) to stderr as an "unhandled error" with its stack,
 * outside the JSON log. A failed call is a `RateLimitStoreError`, which the callers let through and
 * log. Shutting down cannot leak the connection: reconnection stops once the layer closes, and a
 * `QUIT` Redis cannot take (it is away) gives way to a disconnect.
 */
export const layer = (options: { readonly url: string; readonly prefix: string }): Layer.Layer<RateLimiterStore> =>
  Layer.scoped(
    RateLimiterStore,
    Effect.gen(function*() {
      let closing = false
      const client = yield* Effect.acquireRelease(
        Effect.sync(() => {
          const redis = new Redis({
            ...redisOptions(options.url),
            retryStrategy: (attempt: number) => closing ? null : Math.min(attempt * 200, 5_000)
          })
          // the outage shows as failed calls (logged by the callers) and in /ready; see above
          redis.on("error", () => {})
          return redis
        }),
        (redis) =>
          Effect.suspend(() => {
            closing = true
            // a client that is not connected would hold QUIT until it connects: it simply closes
            if (redis.status !== "ready") return Effect.sync(() => redis.disconnect())
            return Effect.promise(() => redis.quit()).pipe(
              Effect.interruptible,
              Effect.timeout("3 seconds"),
              Effect.catchAllCause((cause) =>
                Effect.as(
                  Effect.logDebug("Redis connection closed without a clean QUIT", Cause.pretty(cause).split("\n")[0]),
                  redis.disconnect()
                )
              )
            )
          })
      )
      return RateLimiterStore.of({
        fixedWindow: (request) =>
          Effect.tryPromise({
            try: () =>
              runScript(client, fixedWindow, `${options.prefix}${request.key}`, [
                request.tokens,
                Duration.toMillis(request.refillRate),
                request.limit ?? ""
              ]),
            catch: storeError("fixed-window")
          }).pipe(Effect.flatMap(decodeWindow)),
        tokenBucket: (request) =>
          Effect.clockWith((clock) =>
            Effect.tryPromise({
              try: () =>
                runScript(client, tokenBucket, `${options.prefix}${request.key}`, [
                  request.tokens,
                  Duration.toMillis(request.refillRate),
                  request.limit,
                  clock.unsafeCurrentTimeMillis(),
                  request.allowOverflow ? "1" : "0"
                ]),
              catch: storeError("token-bucket")
            }).pipe(Effect.flatMap(decodeLeft))
          )
      })
    })
  )
