import { OpenApi } from "@effect/platform"
import { Api } from "../../src/http/Api.ts"
import { routes } from "../../src/http/App.ts"
import { mcpToolArguments, mcpToolNames, specToolNames } from "./McpToolNames.ts"

/** One endpoint a skill may name: `segments` holds `undefined` for a path parameter. */
export interface SurfaceEndpoint {
  readonly method: string
  readonly segments: ReadonlyArray<string | undefined>
  /** A trailing `*`: any further segments. */
  readonly open: boolean
  /** Query parameter names, when the endpoint declares them (raw routes do not). */
  readonly query: ReadonlySet<string> | undefined
  readonly removed: boolean
}

/** What exists for a skill to refer to: this service's endpoints and MCP tools. */
export interface ServiceSurface {
  readonly endpoints: ReadonlyArray<SurfaceEndpoint>
  readonly mcpToolNames: ReadonlySet<string>
  /** Each tool's argument names (its input schema's properties), to check the arguments skills give. */
  readonly mcpToolArguments?: ReadonlyMap<string, ReadonlySet<string>>
  /** Tools SPEC.md names; while the catalogue lacks one, mentions of it are pending. */
  readonly specToolNames: ReadonlySet<string>
  /**
   * Endpoint families SPEC.md defines (`api/eccn`, `pdf`, `mcp` …). While a family has no endpoint
   * in the app yet, mentions of it are reported as pending instead of failing; as soon as one of
   * its endpoints exists, every mention of the family is checked.
   */
  readonly specFamilies: ReadonlySet<string>
}

/** The family of a path: its first segment, or its first two under `/api`. */
export const familyOf = (segments: ReadonlyArray<string | undefined>): string =>
  (segments[0] === "api" ? segments.slice(0, 2) : segments.slice(0, 1)).map((s) => s ?? "{}").join("/")

const specFamilies = new Set([
  "api/ecfr",
  "api/eccn",
  "api/country-chart",
  "api/regulatory-status",
  "api/radar",
  "api/csl",
  "api/enforcement",
  "api/federal-register",
  "api/sec-edgar",
  "api/cfr-search",
  "api/govinfo",
  "api/regulations",
  "pdf",
  "mcp",
  ".well-known"
])

const templateSegments = (path: string, parameter: RegExp) => {
  const parts = path.split("/").slice(1)
  const open = parts.at(-1) === "*"
  return {
    open,
    segments: (open ? parts.slice(0, -1) : parts).map((part) => parameter.test(part) ? undefined : part)
  }
}

/**
 * The endpoints of `OpenApi.fromApi(Api)` (query parameters included) plus the raw routes of the
 * app (MCP transport, docs page, removed endpoints), so a skill is checked against what the
 * service really answers.
 */
export const serviceSurface = (toolNames: ReadonlySet<string> = mcpToolNames()): ServiceSurface => {
  const spec = OpenApi.fromApi(Api)
  const endpoints: Array<SurfaceEndpoint> = []
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, OpenApi.OpenAPISpecOperation>)) {
      const query = new Set(
        (operation.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name)
      )
      endpoints.push({ method: method.toUpperCase(), ...templateSegments(path, /^\{.+\}$/), query, removed: false })
    }
  }
  const documented = new Set(endpoints.map((e) => `${e.method} /${e.segments.map((s) => s ?? ":").join("/")}`))
  for (const route of routes) {
    const shape = templateSegments(route.path, /^:/)
    const key = `${route.method} /${shape.segments.map((s) => s ?? ":").join("/")}`
    if (documented.has(key)) continue
    endpoints.push({ method: route.method, ...shape, query: undefined, removed: route.group === undefined })
  }
  return {
    endpoints,
    mcpToolNames: toolNames,
    mcpToolArguments: mcpToolArguments(),
    specToolNames: specToolNames(),
    specFamilies
  }
}
