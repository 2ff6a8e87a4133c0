import { HttpServer } from "@effect/platform"
import { Layer } from "effect"
import * as RuntimeInfo from "../services/RuntimeInfo.ts"
import * as Logging from "./Logging.ts"
import { PublicApp } from "./Public.ts"

/**
 * An app ready for a runtime adapter; it needs the configuration and a router. `runtime` names the
 * adapter in the index and health documents. HttpApi's platform needs (ETag generator, file system
 * for file responses) come from the runtime-neutral context: the app serves no files.
 */
export const forRuntime = <E, R>(app: Layer.Layer<never, E, R>, runtime: string) =>
  app.pipe(
    Layer.provide(RuntimeInfo.layer(runtime)),
    Layer.provide(Logging.layer),
    Layer.provide(HttpServer.layerContext)
  )

/** The public deployment for a runtime adapter. */
export const appLayer = (runtime: string) => forRuntime(PublicApp, runtime)
