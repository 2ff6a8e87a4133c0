import { FetchHttpClient } from "@effect/platform"
import { Layer } from "effect"
import { AppRoutes } from "../../src/http/App.ts"
import { forRuntime } from "../../src/layers/Main.ts"
import { PublicServices } from "../../src/layers/Public.ts"
import type { StoreLayer } from "../../src/layers/Store.ts"
import { testStore } from "./TestStore.ts"

/**
 * The public app with some services replaced by other layers (for example the live service with a
 * short upstream timeout). The replacements may need the configuration and an HTTP client.
 */
export const appWith = (
  replacements: Layer.Layer<any, never, any>,
  store: StoreLayer = testStore
): Layer.Layer<never, unknown, any> =>
  forRuntime(
    AppRoutes.pipe(
      Layer.provide(replacements.pipe(Layer.provide(FetchHttpClient.layer))),
      Layer.provide(PublicServices)
    ),
    `node ${process.version}`,
    store
  )
