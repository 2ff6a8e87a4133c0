import { HttpApiBuilder, HttpServerResponse, OpenApi } from "@effect/platform"
import { Clock, Effect } from "effect"
import { CurrentPrincipal, hasUsableCredential } from "../../domain/Principal.ts"
import { NotFound } from "../../domain/Problem.ts"
import { ServiceName, ServiceVersion, supportedParts } from "../../domain/Service.ts"
import { AccessPolicy } from "../../services/AccessPolicy.ts"
import { AppConfig } from "../../services/AppConfig.ts"
import { EcfrReachability } from "../../services/EcfrReachability.ts"
import { Readiness } from "../../services/Readiness.ts"
import { RuntimeInfo } from "../../services/RuntimeInfo.ts"
import { Api, PublicApi } from "../Api.ts"
import { DataCacheControl, weakEtag } from "../middleware/Caching.ts"
import { problemTypesOf } from "../ProblemTypes.ts"
import { RouteCatalog } from "../RouteCatalog.ts"
import { DocsPath } from "./Api.ts"

const encoder = new TextEncoder()

/** A JSON body encoded once, with its validator, for documents that never change while running. */
const prebuiltJson = (value: unknown, headers: Record<string, string> = {}) => {
  const body = encoder.encode(JSON.stringify(value))
  const etag = weakEtag(body)
  return () => HttpServerResponse.uint8Array(body, { contentType: "application/json", headers: { etag, ...headers } })
}

export const ServiceHttpLive = HttpApiBuilder.group(Api, "service", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const catalog = yield* RouteCatalog
    const runtime = yield* RuntimeInfo
    const ecfr = yield* EcfrReachability
    const readiness = yield* Readiness
    const access = yield* AccessPolicy
    const base = config.publicBaseUrl
    const withServer = (spec: OpenApi.OpenAPISpec) => ({ ...access.describeSecurity(spec), servers: [{ url: base }] })
    // the document depends on the caller's credentials: shared caches keep them apart
    const publicDocument = prebuiltJson(withServer(OpenApi.fromApi(PublicApi)), { vary: "authorization" })
    const fullDocument = prebuiltJson(withServer(OpenApi.fromApi(Api)), {
      vary: "authorization",
      "cache-control": "private, max-age=3600"
    })
    const problemTypes = problemTypesOf(Api)
    const index = prebuiltJson({
      name: ServiceName,
      version: ServiceVersion,
      runtime: runtime.name,
      docs: `${base}${DocsPath}`,
      health: `${base}/health`,
      endpoints: catalog.directory(),
      supportedParts: supportedParts.map((p) => ({ ...p, url: `${base}/api/ecfr/${p.part}` })),
      ...access.indexFields
    })

    return handlers
      .handle("index", () => Effect.succeed(index()))
      .handle("health", () =>
        Effect.gen(function*() {
          const reachability = yield* ecfr.check
          const now = yield* Clock.currentTimeMillis
          return {
            status: reachability === "ok" ? "ok" as const : "degraded" as const,
            service: ServiceName,
            version: ServiceVersion,
            runtime: runtime.name,
            timestamp: new Date(now).toISOString(),
            ecfr: reachability,
            cache: {
              dataCacheControl: DataCacheControl,
              cfrEdgeTtlSeconds: 3600,
              skillsEdgeTtlSeconds: 21600,
              screeningEdgeTtlSeconds: 3600,
              dailyRefresh: "00:00 UTC"
            }
          }
        }))
      .handleRaw("ready", () =>
        Effect.map(readiness.report, (report) =>
          HttpServerResponse.unsafeJson(report, {
            status: report.status === "unavailable" ? 503 : 200,
            headers: { "cache-control": "no-store" }
          })))
      .handle("openapi", () =>
        Effect.map(
          CurrentPrincipal,
          (principal) => (hasUsableCredential(principal) ? fullDocument() : publicDocument())
        ))
      .handle("problemType", ({ path }) => {
        const type = problemTypes.get(path.slug)
        return type === undefined
          ? Effect.fail(new NotFound({ detail: `No problem type named ${JSON.stringify(path.slug)}.` }))
          : Effect.succeed({
            type: `${base}/problems/${type.slug}`,
            title: type.title,
            status: type.status,
            description: type.description
          })
      })
  }))
