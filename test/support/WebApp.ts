import { HttpLayerRouter } from "@effect/platform"
import { Context, Effect, Layer, type Scope } from "effect"
import { forRuntime } from "../../src/layers/Main.ts"
import type { StoreLayer } from "../../src/layers/Store.ts"
import type { AppConfigShape } from "../../src/services/AppConfig.ts"
import * as AppConfig from "../../src/services/AppConfig.ts"
import { type FakeRoute, type FakeUpstream, fakeUpstream } from "./FakeUpstream.ts"
import { testConfig } from "./TestServer.ts"
import { testStore } from "./TestStore.ts"

/** The app's base URL in web-handler tests: loopback, so MCP's Host check passes. */
export const baseUrl = "http://127.0.0.1:8787"

/** An app served as a fetch handler, without a port: requests go straight to the router. */
export interface WebApp {
  readonly fetch: (path: string, init?: RequestInit) => Effect.Effect<Response>
  /** A GET answered as JSON, with its response for the status and headers. */
  readonly json: (
    path: string,
    init?: RequestInit
  ) => Effect.Effect<{ readonly response: Response; readonly body: any }>
}

export class TestApp extends Context.Tag("test/TestApp")<TestApp, WebApp>() {}

/**
 * `app` (routes plus the services they need, e.g. `publicApp` of `src/layers/Test.ts`) served as a
 * fetch handler with the test configuration, for as long as the scope lasts. Its SQL store is the
 * in-memory store of the configured DATA_DIR that `startServer` gives a server (started from the
 * global setup's migrated dump): the deployment's own store would be PGlite on disk in DATA_DIR,
 * which runs initdb and costs a suite seconds of CPU before its first request.
 */
export const make = (
  app: Layer.Layer<never, unknown, any>,
  config: Partial<AppConfigShape> = {},
  store: StoreLayer = testStore
): Effect.Effect<WebApp, never, Scope.Scope> =>
  Effect.gen(function*() {
    const { dispose, handler } = HttpLayerRouter.toWebHandler(
      forRuntime(app, `node ${process.version}`, store).pipe(
        Layer.provide(AppConfig.layerWith(testConfig({ publicBaseUrl: baseUrl, authUrl: baseUrl, ...config })))
      ) as Layer.Layer<never, never, HttpLayerRouter.HttpRouter>,
      { disableLogger: true }
    )
    yield* Effect.addFinalizer(() => Effect.promise(dispose))
    const fetch = (path: string, init?: RequestInit) =>
      Effect.promise(() => handler(new Request(`${baseUrl}${path}`, init)))
    const json = (path: string, init?: RequestInit) =>
      Effect.flatMap(fetch(path, init), (response) =>
        Effect.map(Effect.promise(() => response.json()), (body) => ({ response, body })))
    return { fetch, json }
  })

/** `make` as `TestApp`, for `it.layer`: built once per suite, disposed with the suite. */
export const layer = (
  app: Layer.Layer<never, unknown, any>,
  config: Partial<AppConfigShape> = {},
  store?: StoreLayer
): Layer.Layer<TestApp> => Layer.scoped(TestApp, make(app, config, store))

/** The fake upstream of a suite built with `layerOverUpstream`. */
export class Upstream extends Context.Tag("test/Upstream")<Upstream, FakeUpstream>() {}

/**
 * A fake upstream answering `routes`, and `app` configured by `config` to call it (given the
 * fake's URL), for `it.layer`: both started once per suite and closed with it.
 */
export const layerOverUpstream = (
  routes: ReadonlyArray<FakeRoute>,
  app: Layer.Layer<never, unknown, any>,
  config: (upstreamUrl: string) => Partial<AppConfigShape>
): Layer.Layer<TestApp | Upstream> =>
  Layer.scopedContext(Effect.gen(function*() {
    const upstream = yield* fakeUpstream(routes)
    const web = yield* make(app, config(upstream.url))
    return Context.make(Upstream, upstream).pipe(Context.add(TestApp, web))
  }))

/** `TestApp.fetch` as an effect with the app in context. */
export const fetchApp = (path: string, init?: RequestInit) => Effect.flatMap(TestApp, (app) => app.fetch(path, init))

/** `TestApp.json` as an effect with the app in context. */
export const fetchJson = (path: string, init?: RequestInit) => Effect.flatMap(TestApp, (app) => app.json(path, init))
