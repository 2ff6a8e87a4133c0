import { Effect } from "effect"
import { hasUsableCredential, type Principal } from "../domain/Principal.ts"
import { ServiceName, ServiceVersion } from "../domain/Service.ts"
import type { McpCatalogShape } from "./Catalog.ts"
import { ErrorCode, RpcError } from "./JsonRpc.ts"
import { nearestNames } from "./NearestNames.ts"
import { paginate } from "./Pagination.ts"
import { type Era, negotiateLegacy, SupportedVersions } from "./Protocol.ts"

export const serverInfo = { name: "export-compliance-data-service", title: ServiceName, version: ServiceVersion }

export const capabilities = { tools: {}, resources: {}, prompts: {} }

/** 2025-era clients may set a log level; the server sends no log messages at any level (no streams). */
const legacyCapabilities = { ...capabilities, logging: {} }

const logLevels = new Set(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"])

/** Where the enterprise tools are, and how this deployment's callers authenticate to see them. */
export const enterpriseNote = (howToAuthenticate: string) =>
  "Enterprise tools (compliance PDF documents and their payload contracts, registries, enforcement checks of " +
  `named parties) are disclosed to authenticated callers: ${howToAuthenticate}.`

export const EnterpriseNote = enterpriseNote("sign in with OAuth or send an API key as a bearer token")

export const instructions = "Read-only, citable access to U.S. export-control regulations: the eCFR text of " +
  "EAR parts 732-774 and ITAR part 121, ECCN entries, the Commerce Country Chart, regulatory status, screening, " +
  "enforcement and research sources, and 20 compliance skills as resources (svc://skills/<name>). Cite the CFR " +
  "section and the eCFR date each answer gives. Searches fail soft: a source that is down, empty or not " +
  "configured answers no hits plus `error` or `data_state`; read it before taking no hits as nothing found. Long " +
  "results come in pages whose end says how to read on. Structured results have the shapes of the REST twins in " +
  "/openapi.json. The output is not legal advice; screening matches are for human adjudication; send only " +
  `public information. ${EnterpriseNote}`

/** How long clients may reuse discovery and tool lists: they change only with a deployment. */
const listTtlMs = 3_600_000

export interface MethodContext {
  readonly params: Record<string, unknown>
  readonly era: Era
  readonly principal: Principal
  readonly catalog: McpCatalogShape
}

export interface Method {
  readonly era: "any" | "legacy"
  /** `tools/call` and `resources/read` need a recognized credential; discovery and lists do not. */
  readonly authenticated: boolean
  readonly run: (context: MethodContext) => Effect.Effect<Record<string, unknown>, RpcError>
}

const invalidParams = (message: string) => new RpcError(ErrorCode.InvalidParams, `Invalid params: ${message}`, 400)

const fromPage = <A, B>(
  key: string,
  list: string,
  items: ReadonlyArray<A>,
  context: MethodContext,
  toEntry: (item: A) => B
) => {
  const page = paginate(list, items, context.params.cursor, context.catalog.pageSize)
  if (page instanceof RpcError) return Effect.fail(page)
  return Effect.succeed({
    [key]: page.items.map(toEntry),
    ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor })
  })
}

const stringParam = (params: Record<string, unknown>, name: string) => {
  const value = params[name]
  return typeof value === "string" && value.length > 0 ? value : invalidParams(`\`${name}\` must be a string`)
}

const discover: Method = {
  era: "any",
  authenticated: false,
  run: () =>
    Effect.succeed({
      supportedVersions: SupportedVersions,
      capabilities,
      instructions,
      ttlMs: listTtlMs,
      cacheScope: "public"
    })
}

const initialize: Method = {
  era: "legacy",
  authenticated: false,
  run: ({ params }) =>
    Effect.succeed({
      protocolVersion: negotiateLegacy(params.protocolVersion),
      capabilities: legacyCapabilities,
      serverInfo,
      instructions
    })
}

const toolsList: Method = {
  era: "any",
  authenticated: false,
  run: (context) => {
    const member = hasUsableCredential(context.principal)
    return Effect.map(
      fromPage(
        "tools",
        "tools",
        context.catalog.tools(context.principal).filter((tool) => tool.definition.listed),
        context,
        (tool) => tool.listing
      ),
      (page) => ({
        ...page,
        ttlMs: listTtlMs,
        // the list differs by authorization, so an authenticated answer must not be shared
        cacheScope: member ? "private" : "public",
        ...(member ? {} : { _meta: { "svc/enterprise": EnterpriseNote } })
      })
    )
  }
}

const toolsCall: Method = {
  era: "any",
  authenticated: true,
  run: ({ catalog, params, principal }) => {
    const name = stringParam(params, "name")
    if (name instanceof RpcError) return Effect.fail(name)
    const tools = catalog.tools(principal)
    const tool = tools.find((candidate) => candidate.definition.name === name)
    if (tool === undefined) {
      // suggest among the tools this caller may call, listed ones only (aliases have a listed twin)
      const shown = name.slice(0, 100)
      const nearest = nearestNames(shown, tools.filter((t) => t.definition.listed).map((t) => t.definition.name))
      const hint = nearest.length === 0 ? " (tools/list names them all)" : `. Did you mean ${nearest.join(", ")}?`
      return Effect.fail(
        new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${shown}${hint}`, 200, { name: shown, nearest })
      )
    }
    return tool.call(params.arguments, principal)
  }
}

const resourcesList: Method = {
  era: "any",
  authenticated: false,
  run: (context) =>
    context.catalog.resources.pipe(
      Effect.flatMap((resources) => fromPage("resources", "resources", resources, context, (resource) => resource)),
      Effect.map((page) => ({ ...page, ttlMs: context.catalog.resourcesTtlMs, cacheScope: "public" }))
    )
}

const templatesList: Method = {
  era: "any",
  authenticated: false,
  run: (context) =>
    Effect.map(
      fromPage("resourceTemplates", "templates", context.catalog.templates, context, (template) => template),
      (page) => ({ ...page, ttlMs: context.catalog.resourcesTtlMs, cacheScope: "public" })
    )
}

const resourcesRead: Method = {
  era: "any",
  authenticated: true,
  run: ({ catalog, params }) => {
    const uri = stringParam(params, "uri")
    if (uri instanceof RpcError) return Effect.fail(uri)
    return Effect.map(catalog.read(uri), (read) => ({
      contents: read.contents,
      ttlMs: read.ttlMs,
      cacheScope: "public"
    }))
  }
}

const promptsList: Method = {
  era: "any",
  authenticated: false,
  run: (context) =>
    Effect.map(
      fromPage("prompts", "prompts", [], context, (prompt) => prompt),
      (page) => ({ ...page, ttlMs: listTtlMs, cacheScope: "public" })
    )
}

const promptsGet: Method = {
  era: "any",
  authenticated: false,
  run: ({ params }) => {
    const name = stringParam(params, "name")
    if (name instanceof RpcError) return Effect.fail(name)
    return Effect.fail(
      new RpcError(
        ErrorCode.InvalidParams,
        `Unknown prompt: ${name}. This server offers no prompts; skill prompt files are resources.`
      )
    )
  }
}

const ping: Method = { era: "legacy", authenticated: false, run: () => Effect.succeed({}) }

const setLogLevel: Method = {
  era: "legacy",
  authenticated: false,
  run: ({ params }) =>
    typeof params.level === "string" && logLevels.has(params.level)
      ? Effect.succeed({})
      : Effect.fail(invalidParams("`level` must be a syslog severity name such as `info`"))
}

/**
 * Every method the server answers; anything else is -32601. A Map, not an object: a method name
 * is client input, and `constructor` or `__proto__` must not find `Object.prototype`'s members.
 */
export const methods: ReadonlyMap<string, Method> = new Map<string, Method>([
  ["server/discover", discover],
  ["initialize", initialize],
  ["ping", ping],
  ["logging/setLevel", setLogLevel],
  ["tools/list", toolsList],
  ["tools/call", toolsCall],
  ["resources/list", resourcesList],
  ["resources/templates/list", templatesList],
  ["resources/read", resourcesRead],
  ["prompts/list", promptsList],
  ["prompts/get", promptsGet]
])

export const methodNames = Array.from(methods.keys())
