import { HttpServer } from "@effect/platform"
import { Effect, Layer } from "effect"
import type { McpCatalog } from "../mcp/Catalog.ts"
import { McpCatalogLive } from "../mcp/ToolCatalog.ts"
import type { AccessPolicy } from "../services/AccessPolicy.ts"
import { AppConfig } from "../services/AppConfig.ts"
import type { Auth } from "../services/Auth.ts"
import * as RuntimeInfo from "../services/RuntimeInfo.ts"
import { EnclaveApp, EnclaveServices } from "./Enclave.ts"
import * as Logging from "./Logging.ts"
import { PublicApp, PublicServices } from "./Public.ts"
import * as Store from "./Store.ts"
import * as Tracing from "./Tracing.ts"

/**
 * An app ready for a runtime adapter; it needs the configuration and a router. `runtime` names the
 * adapter in the index and health documents. `store` is the SQL store (by default the one the
 * configuration names, migrated at start). HttpApi's platform needs (ETag generator, file system
 * for file responses) come from the runtime-neutral context: the app serves no files. Tracing is
 * off (`Tracing.ts`), provided first so that every fiber the app starts inherits it.
 */
export const forRuntime = <E, R>(
  app: Layer.Layer<never, E, R>,
  runtime: string,
  store: Store.StoreLayer = Store.fromConfig
) =>
  app.pipe(
    Layer.provide(store),
    Layer.provide(RuntimeInfo.layer(runtime)),
    Layer.provide(Logging.layer),
    Layer.provide(HttpServer.layerContext),
    Layer.provide(Tracing.disabled)
  )

type DeploymentLayer = Layer.Layer<
  Layer.Layer.Success<typeof PublicApp>,
  Layer.Layer.Error<typeof PublicApp> | Layer.Layer.Error<typeof EnclaveApp>,
  Layer.Layer.Context<typeof PublicApp> | Layer.Layer.Context<typeof EnclaveApp>
>

/** The deployment `DEPLOYMENT` names: the only place the two are told apart. */
export const DeploymentApp = Layer.unwrapEffect(
  Effect.map(AppConfig, (config): DeploymentLayer => config.deployment === "enclave" ? EnclaveApp : PublicApp)
)

/** What both deployments' services provide. */
type ServicesLayer = Layer.Layer<
  Extract<Layer.Layer.Success<typeof PublicServices>, Layer.Layer.Success<typeof EnclaveServices>>,
  Layer.Layer.Error<typeof PublicServices> | Layer.Layer.Error<typeof EnclaveServices>,
  Layer.Layer.Context<typeof PublicServices> | Layer.Layer.Context<typeof EnclaveServices>
>

/**
 * The services of the deployment `DEPLOYMENT` names with the MCP catalogue bound to them, without
 * routes: what the stdio MCP server calls.
 */
export const DeploymentServices: Layer.Layer<
  McpCatalog | Auth | AccessPolicy,
  Layer.Layer.Error<ServicesLayer>,
  Layer.Layer.Context<ServicesLayer> | AppConfig
> = McpCatalogLive.pipe(
  Layer.provideMerge(
    Layer.unwrapEffect(
      Effect.map(
        AppConfig,
        (config): ServicesLayer => config.deployment === "enclave" ? EnclaveServices : PublicServices
      )
    )
  )
)

/** The configured deployment for a runtime adapter. */
export const appLayer = (runtime: string, store?: Store.StoreLayer) => forRuntime(DeploymentApp, runtime, store)
