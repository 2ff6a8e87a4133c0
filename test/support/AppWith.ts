import { FetchHttpClient } from "@effect/platform"
import { Layer } from "effect"
import { AppRoutes } from "../../src/http/App.ts"
import { forRuntime } from "../../src/layers/Main.ts"
import { SharedServices } from "../../src/layers/Public.ts"

/**
 * The public app with some services replaced by other layers (for example the live service with a
 * short upstream timeout). The replacements may need the configuration and an HTTP client.
 */
export const appWith = (replacements: Layer.Layer<any, never, any>): Layer.Layer<never, unknown, any> =>
  forRuntime(
    AppRoutes.pipe(
      Layer.provide(replacements.pipe(Layer.provide(FetchHttpClient.layer))),
      Layer.provide(SharedServices)
    ),
    `node ${process.version}`
  )
