import { Effect, Layer } from "effect"
import { AppRoutes, appRoutesWith } from "../../../src/http/App.ts"
import { forRuntime } from "../../../src/layers/Main.ts"
import { PublicServices } from "../../../src/layers/Public.ts"
import type { StoreLayer } from "../../../src/layers/Store.ts"
import * as Catalog from "../../../src/mcp/Catalog.ts"
import * as Auth from "../../../src/services/Auth.ts"
import { bearers, principals } from "../Principals.ts"
import { type RunningServer, startServer } from "../TestServer.ts"
import { testStore } from "../TestStore.ts"
import * as WebApp from "../WebApp.ts"
import { fixtureTools, GlossaryLive, glossaryResources } from "./FixtureTools.ts"

export interface FixtureAppOptions {
  readonly pageSize?: number
  /** Replaces the fixed bearer → principal table. */
  readonly auth?: Layer.Layer<Auth.Auth>
}

/**
 * The routes over fixture-only tools and resources, fixed bearer principals and a given page size,
 * before a runtime adapter (for `WebApp`).
 */
export const fixtureRoutes = (options: FixtureAppOptions = {}) => {
  const catalog = Catalog.layer({
    tools: fixtureTools,
    resources: [glossaryResources],
    ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize })
  }).pipe(Layer.provide(GlossaryLive))
  return appRoutesWith(catalog).pipe(
    Layer.provide(options.auth ?? Auth.layerFixed(principals)),
    Layer.provide(PublicServices)
  )
}

/** The app with fixture-only tools and resources, fixed bearer principals and a given page size. */
export const fixtureApp = (options: FixtureAppOptions = {}) =>
  forRuntime(fixtureRoutes(options), `node ${process.version}`, testStore)

/** The production routes (real catalogue and services) with the fixed bearer principals or another Auth (for `WebApp`). */
export const productionRoutes = (auth: Layer.Layer<Auth.Auth> = Auth.layerFixed(principals)) =>
  AppRoutes.pipe(Layer.provide(auth), Layer.provide(PublicServices))

/** The production app (real catalogue and services) with the fixed bearer principals or another Auth. */
export const productionApp = (
  auth: Layer.Layer<Auth.Auth> = Auth.layerFixed(principals),
  store: StoreLayer = testStore
) => forRuntime(productionRoutes(auth), `node ${process.version}`, store)

/** `tools/call` on 2026-07-28 with an active API key; answers the JSON-RPC response body. */
export const callTool = async (server: RunningServer, name: string, args: unknown): Promise<any> => {
  const response = await modernPost(server, "tools/call", { name, arguments: args }, {
    authorization: `Bearer ${bearers.apiKey}`
  })
  return response.json()
}

export const startFixtureServer = (options: FixtureAppOptions = {}): Promise<RunningServer> =>
  startServer({ app: fixtureApp(options) })

export const modernMeta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "test", version: "0" }
}

/** A 2026-07-28 request to `/mcp` with the headers the revision requires (override any of them). */
export const modernRequest = (
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string | undefined> = {}
): RequestInit => {
  const name = typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : undefined
  const all: Record<string, string | undefined> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(name === undefined ? {} : { "mcp-name": name }),
    ...headers
  }
  return {
    method: "POST",
    headers: Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<string, string>,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: modernMeta } })
  }
}

/** `modernRequest` sent to a server. */
export const modernPost = (
  server: RunningServer,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string | undefined> = {}
) => fetch(`${server.url}/mcp`, modernRequest(method, params, headers))

/** `modernRequest` to the suite's app (`WebApp.TestApp`); answers the JSON-RPC response body. */
export const postApp = (
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string | undefined> = {}
): Effect.Effect<any, never, WebApp.TestApp> =>
  Effect.map(WebApp.fetchJson("/mcp", modernRequest(method, params, headers)), ({ body }) => body)

/** `tools/call` on 2026-07-28 with an active API key to the suite's app; answers the JSON-RPC response body. */
export const callToolApp = (name: string, args: unknown) =>
  postApp("tools/call", { name, arguments: args }, { authorization: `Bearer ${bearers.apiKey}` })

/** A raw POST to /mcp (legacy era unless the headers or body say otherwise). */
export const rawPost = (server: RunningServer, body: unknown, headers: Record<string, string> = {}, path = "/mcp") =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body)
  })
