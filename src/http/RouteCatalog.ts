import { HttpApi, HttpLayerRouter, OpenApi } from "@effect/platform"
import { Context, Option, type SchemaAST } from "effect"
import type { EndpointGroup } from "../domain/Service.ts"
import { CachePolicy, type CachePolicyName, Enterprise, IndexGroup } from "./Annotations.ts"

/** One route the service answers: an HttpApi endpoint or a raw route (MCP, removed endpoints). */
export interface RouteDescriptor {
  readonly method: string
  /** find-my-way syntax: `/api/ecfr/:part`, `/api/classify/*` */
  readonly path: string
  /** Where the index lists it; unlisted routes (removed endpoints) have none. */
  readonly group: EndpointGroup | undefined
  readonly summary: string
  readonly enterprise: boolean
  readonly cachePolicy: CachePolicyName
  /** Counted against the anonymous per-IP budget. */
  readonly rateLimited: boolean
  /** The schemas HttpApi decodes the request with (path, query, body), to explain a rejected input. */
  readonly inputs?: ReadonlyArray<SchemaAST.AST>
}

const rateLimitedPath = (path: string) =>
  path.startsWith("/api/") || path === "/skills" || path.startsWith("/skills/") || path === "/openapi.json"

/** The descriptors of every endpoint of an HttpApi, read from its annotations. */
export const fromHttpApi = (api: HttpApi.HttpApi.Any): Array<RouteDescriptor> => {
  const routes: Array<RouteDescriptor> = []
  HttpApi.reflect(api as any, {
    onGroup() {},
    onEndpoint({ endpoint, group, mergedAnnotations }) {
      const annotation = <I, S>(tag: Context.Tag<I, S>) =>
        Context.getOption(endpoint.annotations, tag).pipe(
          Option.orElse(() => Context.getOption(mergedAnnotations, tag))
        )
      routes.push({
        method: endpoint.method,
        path: endpoint.path,
        group: Option.getOrUndefined(annotation(IndexGroup)),
        summary: Option.getOrElse(
          Option.orElse(annotation(OpenApi.Summary), () => annotation(OpenApi.Description)),
          () => `${group.identifier} ${endpoint.name}`
        ),
        enterprise: Option.getOrElse(annotation(Enterprise), () => false),
        cachePolicy: Option.getOrElse(annotation(CachePolicy), () => "data" as const),
        rateLimited: rateLimitedPath(endpoint.path),
        inputs: [endpoint.pathSchema, endpoint.urlParamsSchema, endpoint.payloadSchema].flatMap((schema) =>
          Option.isSome(schema) ? [schema.value.ast] : []
        )
      })
    }
  })
  return routes
}

export const rawRoute = (
  route: Omit<RouteDescriptor, "rateLimited" | "enterprise" | "cachePolicy"> & Partial<RouteDescriptor>
): RouteDescriptor => ({
  enterprise: false,
  cachePolicy: "no-store",
  rateLimited: rateLimitedPath(route.path),
  ...route
})

const displayPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, "{$1}")

export interface RouteMatch {
  readonly route: RouteDescriptor | undefined
  /** Methods the path accepts (for 405 `Allow`), empty when no route has this path. */
  readonly allow: ReadonlyArray<string>
}

const probeMethods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const

export interface RouteCatalogShape {
  readonly routes: ReadonlyArray<RouteDescriptor>
  readonly match: (method: string, url: string) => RouteMatch
  /** `<METHOD> <path> — <summary>` lines by index group, in declaration order. */
  readonly directory: () => Record<EndpointGroup, ReadonlyArray<string>>
}

export class RouteCatalog extends Context.Tag("app/http/RouteCatalog")<RouteCatalog, RouteCatalogShape>() {}

export const make = (
  routes: ReadonlyArray<RouteDescriptor>,
  groups: ReadonlyArray<EndpointGroup>
): RouteCatalogShape => {
  const router = HttpLayerRouter.FindMyWay.make<RouteDescriptor>({ ignoreTrailingSlash: false })
  for (const route of routes) {
    if (route.method === "*") router.all(route.path as any, route)
    else router.on(route.method as any, route.path as any, route)
  }
  const find = (method: string, url: string) => router.find(method as any, url)?.handler
  const directory = Object.fromEntries(groups.map((group) => [
    group,
    routes.filter((route) => route.group === group).map((route) =>
      `${route.method} ${displayPath(route.path)} — ${route.summary}`
    )
  ])) as unknown as Record<EndpointGroup, ReadonlyArray<string>>
  return {
    routes,
    match(method, url) {
      const route = find(method, url) ?? (method === "HEAD" ? find("GET", url) : undefined)
      if (route) return { route, allow: [] }
      // the router answers HEAD for every GET route
      const allow = probeMethods.filter((m) => find(m, url) !== undefined || (m === "HEAD" && find("GET", url)))
      return { route: undefined, allow }
    },
    directory: () => directory
  }
}
