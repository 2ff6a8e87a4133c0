import { Context, Layer } from "effect"

/** One access-log record: what was asked and how it went, never what was sent. */
export interface AccessRecord {
  readonly requestId: string
  readonly method: string
  /** The matched route template (`/api/ecfr/:part`), never the raw path or query string. */
  readonly route: string
  readonly status: number
  readonly durationMs: number
}

/**
 * The per-request access log. It is written on every request, so it bypasses the general logger's
 * per-call machinery; the logging layer provides it with the same JSON line format and level filter.
 */
export interface AccessLogShape {
  readonly record: (entry: AccessRecord) => void
}

export class AccessLog extends Context.Tag("app/AccessLog")<AccessLog, AccessLogShape>() {}

export const layerSilent: Layer.Layer<AccessLog> = Layer.succeed(AccessLog, { record: () => {} })
