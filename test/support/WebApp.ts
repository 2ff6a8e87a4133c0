import { HttpLayerRouter } from "@effect/platform"
import { Context, Effect, Layer } from "effect"
import { forRuntime } from "../../src/layers/Main.ts"
import type { AppConfigShape } from "../../src/services/AppConfig.ts"
import * as AppConfig from "../../src/services/AppConfig.ts"
import { testConfig } from "./TestServer.ts"

/** The app's base URL in web-handler tests: loopback, so MCP's Host check passes. */
export const baseUrl = "http://127.0.0.1:8787"

/** An app served as a fetch handler, without a port: requests go straight to the router. */
export interface WebApp {
  readonly fetch: (path: string, init?: RequestInit) => Effect.Effect<Response>
}

export class TestApp extends Context.Tag("test/TestApp")<TestApp, WebApp>() {}

/**
 * `app` (routes plus the services they need, e.g. `PublicApp`) as `TestApp`, for `it.layer`: built
 * once per suite with the test configuration, disposed with the suite.
 */
export const layer = (
  app: Layer.Layer<never, unknown, any>,
  config: Partial<AppConfigShape> = {}
): Layer.Layer<TestApp> =>
  Layer.scoped(
    TestApp,
    Effect.gen(function*() {
      const { dispose, handler } = HttpLayerRouter.toWebHandler(
        forRuntime(app, "node test").pipe(
          Layer.provide(AppConfig.layerWith(testConfig({ publicBaseUrl: baseUrl, authUrl: baseUrl, ...config })))
        ) as Layer.Layer<never, never, HttpLayerRouter.HttpRouter>,
        { disableLogger: true }
      )
      yield* Effect.addFinalizer(() => Effect.promise(dispose))
      return { fetch: (path, init) => Effect.promise(() => handler(new Request(`${baseUrl}${path}`, init))) }
    })
  )

/** `TestApp.fetch` as an effect with the app in context. */
export const fetchApp = (path: string, init?: RequestInit) => Effect.flatMap(TestApp, (app) => app.fetch(path, init))
