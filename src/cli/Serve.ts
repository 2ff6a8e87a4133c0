import { Effect, Layer } from "effect"
import { AppConfig } from "../services/AppConfig.ts"
import { CommandFailed, leaf, load } from "./Command.ts"
import { describeServeError, loadConfig } from "./Startup.ts"

export const serve = leaf({
  name: "serve",
  summary: "serve the REST API and the MCP endpoint over HTTP (what `npm start` runs)",
  details: "Configured by environment variables (docs/configuration.md): HOST and PORT (default\n" +
    "127.0.0.1:8787), DEPLOYMENT (public or enclave), DATA_DIR, the upstream URLs and the proxy\n" +
    "variables HTTPS_PROXY, HTTP_PROXY and NO_PROXY. Every variable is checked before start-up.",
  run: () =>
    Effect.gen(function*() {
      const config = yield* loadConfig
      const [{ appLayer }, NodeServer, Outbound] = yield* load(() =>
        Promise.all([import("../layers/Main.ts"), import("../layers/NodeServer.ts"), import("../layers/Outbound.ts")])
      )
      yield* NodeServer.serve(appLayer(`node ${process.version}`)).pipe(
        Layer.provide(Layer.succeed(AppConfig, config)),
        Layer.provide(Outbound.layerNode),
        Layer.launch,
        Effect.catchAll((error) =>
          Effect.fail(
            new CommandFailed({
              message: error._tag === "ServeError"
                ? describeServeError(error, config)
                : `cannot start: ${error.message === "" ? error._tag : error.message}`
            })
          )
        )
      )
    })
})
