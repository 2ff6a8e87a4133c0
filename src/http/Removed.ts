import { HttpLayerRouter } from "@effect/platform"
import { Effect, Layer } from "effect"
import { EndpointRemoved } from "../domain/Problem.ts"
import { AppConfig } from "../services/AppConfig.ts"
import { problemResponse } from "./middleware/Problems.ts"
import { rawRoute, type RouteDescriptor } from "./RouteCatalog.ts"
import { DocsPath } from "./service/Api.ts"

const removedPrefixes = ["/api/classify", "/api/expert-review"] as const

export const removedRoutes: ReadonlyArray<RouteDescriptor> = removedPrefixes.flatMap((prefix) =>
  [prefix, `${prefix}/*`].map((path) =>
    rawRoute({ method: "*", path, group: undefined, summary: "removed: answers 410 with migration guidance" })
  )
)

const migration = (base: string) => ({
  skill: "svc-classify",
  skillUrl: `${base}/skills/svc-classify`,
  endpoints: [
    "GET /api/ecfr/{part}",
    "GET /api/ecfr/{part}/search?q=",
    "GET /api/eccn/{eccn}",
    "GET /api/country-chart?country=",
    "GET /api/csl?name="
  ],
  steps: [
    "Load the svc-classify skill (GET /skills/svc-classify or the MCP resource svc://skills/svc-classify).",
    "Follow its order of review: jurisdiction (22 CFR 121), the CCL entries (/api/eccn), then license " +
    "requirements by destination (/api/country-chart) and end-user screening (/api/csl).",
    "Record the determination yourself; the service supplies the regulatory text, not a classification."
  ]
})

/** `/api/classify/*` and `/api/expert-review/*` answer 410 to every method, with migration guidance. */
export const RemovedRoutesLive = Layer.unwrapEffect(Effect.gen(function*() {
  const config = yield* AppConfig
  const base = config.publicBaseUrl
  const headers = { deprecation: "true", link: `<${base}${DocsPath}>; rel="deprecation"` }
  const response = Effect.sync(() =>
    problemResponse(
      new EndpointRemoved({
        detail: "The classification workflow and the expert-review portal were removed. " +
          "Classify with the svc-classify skill and the regulatory data endpoints.",
        migration: migration(base)
      }),
      headers
    )
  )
  return HttpLayerRouter.addAll(removedRoutes.map((route) => HttpLayerRouter.route("*", route.path as any, response)))
}))
