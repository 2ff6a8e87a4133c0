import { HttpMiddleware } from "@effect/platform"
import { Function, Layer } from "effect"

/**
 * Tracing off, where an entry assembles its runtime. The service installs no tracer and exports no
 * spans, yet Effect's default tracer builds a real one (random trace and span ids, an attribute map
 * holding the SQL text, clock reads) for every SQL statement and transaction, every outbound HTTP
 * call (whose ids it sends upstream as `traceparent` and `b3` headers) and, on the web-handler
 * path (Deno), every request: garbage on every request's hot path, for nobody. Disabled, spans are
 * no-ops, outbound calls carry no trace headers, and the server skips its request span. Logs and
 * their annotations (the request id) do not depend on spans.
 *
 * To trace, provide an exporter's layer (for example `@effect/opentelemetry`'s `NodeSdk.layer`) in
 * place of this one, in `forRuntime` (`Main.ts`) and in the stdio MCP command (docs/operations.md).
 */
export const disabled: Layer.Layer<never> = Layer.mergeAll(
  Layer.setTracerEnabled(false),
  Layer.locallyScoped(HttpMiddleware.currentTracerDisabledWhen, Function.constTrue)
)
