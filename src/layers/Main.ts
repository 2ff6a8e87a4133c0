import { HttpServer } from "@effect/platform"
import { Layer } from "effect"
import * as RuntimeInfo from "../services/RuntimeInfo.ts"
import * as Logging from "./Logging.ts"
import { PublicApp } from "./Public.ts"

/**
 * What every runtime adapter adds to an app: `runtime` names the adapter in the index and health
 * documents. HttpApi's platform needs (ETag generator, file system for file responses) come from
 * the runtime-neutral context: the app serves no files.
 */
export const forRuntime = (runtime: string) => <E, R>(app: Layer.Layer<never, E, R>) =>
  app.pipe(
    Layer.provide(RuntimeInfo.layer(runtime)),
    Layer.provide(Logging.layer),
    Layer.provide(HttpServer.layerContext)
  )

/** The app for a runtime adapter; it needs the configuration and a router. */
export const appLayer = (runtime: string) => forRuntime(runtime)(PublicApp)
