import { HttpClient, HttpClientRequest } from "@effect/platform"
import type { Duration } from "effect"
import { Clock, Data, Effect, Ref, Schedule, Schema } from "effect"

export type UpstreamFailureReason = "timeout" | "unreachable" | "status" | "decode" | "circuit-open"

/** A typed upstream failure. `detail` never contains request parameters (they may name parties). */
export class UpstreamError extends Data.TaggedError("UpstreamError")<{
  readonly upstream: string
  readonly reason: UpstreamFailureReason
  readonly status?: number | undefined
  readonly detail: string
}> {
  override get message() {
    return `${this.upstream}: ${this.detail}`
  }
}

export interface UpstreamResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array
  readonly text: () => string
}

export interface RequestOptions {
  readonly params?: Readonly<Record<string, string | number | ReadonlyArray<string>>>
  readonly headers?: Readonly<Record<string, string>>
  readonly timeout?: Duration.DurationInput
  /** Retries for transient failures (timeouts, network errors, 429, 5xx). */
  readonly retries?: number
  /** Statuses below 400 are always accepted; these are accepted too (e.g. 404 as an answer). */
  readonly acceptStatus?: ReadonlyArray<number>
}

export interface UpstreamClient {
  readonly name: string
  readonly baseUrl: string
  readonly get: (path: string, options?: RequestOptions) => Effect.Effect<UpstreamResponse, UpstreamError>
  readonly getJson: <A, I>(
    path: string,
    schema: Schema.Schema<A, I>,
    options?: RequestOptions
  ) => Effect.Effect<A, UpstreamError>
  readonly getText: (path: string, options?: RequestOptions) => Effect.Effect<string, UpstreamError>
  /** A JSON POST answered with any body (a rendering backend's PDF); retried only when `retries` is passed. */
  readonly post: (
    path: string,
    json: unknown,
    options?: RequestOptions
  ) => Effect.Effect<UpstreamResponse, UpstreamError>
  /**
   * A JSON POST for read-only query APIs (govinfo search). It is retried only when the caller
   * passes `retries`, asserting that repeating the request is harmless.
   */
  readonly postJson: <A, I>(
    path: string,
    body: unknown,
    schema: Schema.Schema<A, I>,
    options?: RequestOptions
  ) => Effect.Effect<A, UpstreamError>
}

export interface UpstreamPolicy {
  readonly name: string
  readonly baseUrl: string
  readonly timeout?: Duration.DurationInput
  readonly retries?: number
  readonly userAgent?: string
  /** Consecutive failed calls that open the circuit, and how long it stays open. */
  readonly breaker?: { readonly failures: number; readonly cooldownMillis: number }
}

const decoder = new TextDecoder()

/** Decodes a response body as JSON of the given shape; anything else is a `decode` failure. */
export const jsonBody =
  <A, I>(upstream: string, path: string, schema: Schema.Schema<A, I>) =>
  (response: UpstreamResponse): Effect.Effect<A, UpstreamError> => {
    const fail = (detail: string) => new UpstreamError({ upstream, reason: "decode", detail })
    return Effect.try({
      try: () => JSON.parse(response.text()) as unknown,
      catch: () => fail(`${path} did not answer JSON`)
    }).pipe(
      Effect.flatMap((json) =>
        Schema.decodeUnknown(schema)(json).pipe(Effect.mapError(() => fail(`${path} answered an unexpected shape`)))
      )
    )
  }

const transient = (error: UpstreamError) =>
  error.reason === "timeout" || error.reason === "unreachable" ||
  (error.reason === "status" && (error.status === 429 || (error.status ?? 0) >= 500))

/**
 * An upstream adapter's HTTP client: a timeout per attempt, bounded jittered retries of idempotent
 * GETs on transient failures, and a circuit breaker that fails fast while the upstream is down.
 */
export const make = (policy: UpstreamPolicy): Effect.Effect<UpstreamClient, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const breaker = policy.breaker ?? { failures: 5, cooldownMillis: 30_000 }
    const state = yield* Ref.make({ failures: 0, openUntil: 0 })
    const fail = (reason: UpstreamFailureReason, detail: string, status?: number) =>
      new UpstreamError({ upstream: policy.name, reason, status, detail })

    const attempt = (path: string, options: RequestOptions, body: { readonly json: unknown } | undefined) => {
      const url = `${policy.baseUrl}${path}`
      let request = (body === undefined ? HttpClientRequest.get(url) : HttpClientRequest.post(url)).pipe(
        HttpClientRequest.setHeaders({ "user-agent": policy.userAgent ?? "export-compliance-data-service/2.3.0" })
      )
      if (options.params) request = HttpClientRequest.setUrlParams(request, options.params as any)
      if (options.headers) request = HttpClientRequest.setHeaders(request, options.headers)
      if (body !== undefined) request = HttpClientRequest.bodyUnsafeJson(request, body.json)
      return client.execute(request).pipe(
        Effect.flatMap((response) =>
          Effect.map(response.arrayBuffer, (buffer): UpstreamResponse => {
            const body = new Uint8Array(buffer)
            return { status: response.status, headers: response.headers, body, text: () => decoder.decode(body) }
          })
        ),
        Effect.scoped,
        Effect.mapError(() => fail("unreachable", `request to ${path} failed`)),
        Effect.timeoutFail({
          duration: options.timeout ?? policy.timeout ?? "10 seconds",
          onTimeout: () => fail("timeout", `no answer for ${path} in time`)
        }),
        Effect.filterOrFail(
          (response) => response.status < 400 || (options.acceptStatus?.includes(response.status) ?? false),
          (response) => fail("status", `${path} answered ${response.status}`, response.status)
        )
      )
    }

    const guarded = (path: string, options: RequestOptions, body?: { readonly json: unknown }) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const current = yield* Ref.get(state)
        if (current.openUntil > now) return yield* fail("circuit-open", "upstream marked unavailable; retry later")
        const retries = options.retries ?? (body === undefined ? policy.retries ?? 2 : 0)
        return yield* attempt(path, options, body).pipe(
          Effect.retry({
            schedule: Schedule.exponential("200 millis").pipe(Schedule.jittered),
            times: retries,
            while: transient
          }),
          Effect.tapBoth({
            onSuccess: () => Ref.set(state, { failures: 0, openUntil: 0 }),
            onFailure: (error) =>
              transient(error)
                ? Ref.update(state, (s) =>
                  s.failures + 1 >= breaker.failures
                    ? { failures: 0, openUntil: now + breaker.cooldownMillis }
                    : { failures: s.failures + 1, openUntil: 0 })
                : Effect.void
          })
        )
      })

    const get = (path: string, options: RequestOptions = {}) => guarded(path, options)
    const decoded = <A, I>(path: string, schema: Schema.Schema<A, I>) => jsonBody(policy.name, path, schema)
    const acceptJson = (options?: RequestOptions): RequestOptions => ({
      ...options,
      headers: { accept: "application/json", ...options?.headers }
    })
    return {
      name: policy.name,
      baseUrl: policy.baseUrl,
      get,
      getText: (path, options) => Effect.map(get(path, options), (response) => response.text()),
      getJson: (path, schema, options) => Effect.flatMap(get(path, acceptJson(options)), decoded(path, schema)),
      post: (path, json, options = {}) => guarded(path, options, { json }),
      postJson: (path, body, schema, options) =>
        Effect.flatMap(guarded(path, acceptJson(options), { json: body }), decoded(path, schema))
    }
  })
