import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { NotFound } from "../../domain/Problem.ts"
import { ReadinessReport } from "../../domain/Readiness.ts"
import { Health, ProblemTypeInfo, ServiceIndex } from "../../domain/Service.ts"
import { CachePolicy, IndexGroup } from "../Annotations.ts"
import { PrincipalMiddleware } from "../middleware/Principal.ts"

export class ServiceGroup extends HttpApiGroup.make("service", { topLevel: true })
  .add(
    HttpApiEndpoint.get("index", "/")
      .addSuccess(ServiceIndex)
      .annotate(OpenApi.Summary, "service index: version, endpoint directory, supported CFR parts")
  )
  .add(
    HttpApiEndpoint.get("health", "/health")
      .addSuccess(Health)
      .annotate(OpenApi.Summary, "health, version and eCFR reachability (not cached)")
      .annotate(CachePolicy, "no-store")
  )
  .add(
    HttpApiEndpoint.get("ready", "/ready")
      .addSuccess(ReadinessReport)
      .annotate(
        OpenApi.Summary,
        "readiness: each dependency's state (eCFR parts, screening list, skills, archive, store); 503 when unavailable"
      )
      .annotate(
        OpenApi.Description,
        "The same document answers 200 while the service is `ok` or `degraded`, and 503 when a critical " +
          "dependency is unavailable, so a load balancer can take the instance out of rotation. Not cached."
      )
      .annotate(CachePolicy, "no-store")
  )
  .add(
    HttpApiEndpoint.get("openapi", "/openapi.json")
      .addSuccess(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
      .annotate(OpenApi.Summary, "OpenAPI 3.1 document of the REST endpoints visible to the caller")
      .middleware(PrincipalMiddleware)
  )
  .add(
    HttpApiEndpoint.get("problemType", "/problems/:slug")
      .setPath(Schema.Struct({ slug: Schema.String }))
      .addSuccess(ProblemTypeInfo)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "what an error `type` means")
  )
  .annotate(IndexGroup, "spec")
  .annotate(OpenApi.Title, "Service")
{}

export const DocsPath = "/docs"
