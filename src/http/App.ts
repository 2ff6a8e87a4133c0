import { HttpApiScalar, HttpLayerRouter } from "@effect/platform"
import { Layer } from "effect"
import { EndpointGroups } from "../domain/Service.ts"
import type { McpCatalog } from "../mcp/Catalog.ts"
import { McpCatalogLive } from "../mcp/ToolCatalog.ts"
import { Api, PublicApi } from "./Api.ts"
import { CountryChartHttpLive } from "./country/Http.ts"
import { DocumentFilesHttpLive, DocumentsHttpLive } from "./documents/Http.ts"
import { EccnHttpLive } from "./eccn/Http.ts"
import { EcfrHttpLive } from "./ecfr/Http.ts"
import { EnforcementHttpLive } from "./enforcement/Http.ts"
import { McpHttpLive } from "./mcp/Http.ts"
import { mcpRoutes, McpRoutesLive } from "./mcp/Routes.ts"
import { AppMiddleware } from "./Middleware.ts"
import { PrincipalMiddlewareLive } from "./middleware/Principal.ts"
import { RadarHttpLive } from "./radar/Http.ts"
import { removedRoutes, RemovedRoutesLive } from "./Removed.ts"
import { ResearchHttpLive } from "./research/Http.ts"
import * as RouteCatalog from "./RouteCatalog.ts"
import { ScreeningBatchHttpLive } from "./screening/Batch.ts"
import { ScreeningHttpLive } from "./screening/Http.ts"
import { DocsPath } from "./service/Api.ts"
import { ServiceHttpLive } from "./service/Http.ts"
import { SkillsHttpLive } from "./skills/Http.ts"
import { RegulatoryStatusHttpLive } from "./status/Http.ts"

const docsRoute = RouteCatalog.rawRoute({
  method: "GET",
  path: DocsPath,
  group: "spec",
  summary: "interactive API reference (free surface)",
  cachePolicy: "data"
})

/** Every route both deployments answer, HttpApi endpoints and raw routes alike. */
export const routes: ReadonlyArray<RouteCatalog.RouteDescriptor> = [
  ...RouteCatalog.fromHttpApi(Api),
  docsRoute,
  ...mcpRoutes,
  ...removedRoutes
]

/** The route catalog of a deployment: the shared routes plus the ones only it serves. */
export const routeCatalogLayer = (deploymentRoutes: ReadonlyArray<RouteCatalog.RouteDescriptor>) =>
  Layer.succeed(RouteCatalog.RouteCatalog, RouteCatalog.make([...routes, ...deploymentRoutes], EndpointGroups))

const ApiRoutes = HttpLayerRouter.addHttpApi(Api).pipe(
  Layer.provide([
    ServiceHttpLive,
    EcfrHttpLive,
    EccnHttpLive,
    CountryChartHttpLive,
    RegulatoryStatusHttpLive,
    RadarHttpLive,
    EnforcementHttpLive,
    ResearchHttpLive,
    SkillsHttpLive,
    ScreeningHttpLive,
    ScreeningBatchHttpLive,
    DocumentsHttpLive,
    DocumentFilesHttpLive,
    McpHttpLive
  ]),
  Layer.provide(PrincipalMiddlewareLive)
)

const DocsRoute = HttpApiScalar.layerHttpLayerRouter({ api: PublicApi, path: DocsPath })

/**
 * The app over the MCP catalogue `catalog`: routes plus the global middleware (which also provides
 * each request's `CurrentPrincipal`). Runtime adapters serve it; deployments provide services.
 */
export const appRoutesWith = <E, R>(catalog: Layer.Layer<McpCatalog, E, R>) =>
  Layer.mergeAll(ApiRoutes, DocsRoute, McpRoutesLive, RemovedRoutesLive).pipe(
    Layer.provideMerge(AppMiddleware),
    Layer.provide(catalog)
  )

/**
 * The app with the production MCP catalogue. The catalogue binds its tools to services when it is
 * built, so it is built here, beside the routes, not among the services: whatever is provided to
 * the routes (a test's renderer double, a deployment's payers) reaches the MCP tools as it reaches
 * the REST handlers.
 */
export const AppRoutes = appRoutesWith(McpCatalogLive)
