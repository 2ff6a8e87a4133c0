import { Config, Console, Effect, Option } from "effect"
import * as AppConfig from "../services/AppConfig.ts"
import { CommandFailed, integer, leaf, load, text } from "./Command.ts"
import { describeServeError } from "./Startup.ts"

export const renderBackend = leaf({
  name: "render-backend",
  summary: "serve PDF rendering for another instance (its RENDER_BACKEND_URL)",
  details: "Callers authenticate with RENDER_BACKEND_SECRET (Authorization: Bearer), the same value on\n" +
    "both machines. Without it the backend starts only on a loopback address.",
  options: {
    port: { type: "integer", placeholder: "<port>", description: "TCP port (default: PORT, else 8788)" },
    host: { type: "text", placeholder: "<address>", description: "listen address (default: HOST, else 127.0.0.1)" }
  },
  run: (input) =>
    Effect.gen(function*() {
      const secret = yield* Config.option(AppConfig.renderBackendSecret).pipe(
        Effect.mapError((error) =>
          new CommandFailed({ message: AppConfig.describeError(error, process.env).join("\n") })
        )
      )
      const port = integer(input, "port") ?? Number(process.env.PORT ?? 8788)
      const host = text(input, "host") ?? process.env.HOST ?? "127.0.0.1"
      const [Backend, Renderer] = yield* load(() =>
        Promise.all([import("../layers/RenderBackend.ts"), import("../services/Renderer.ts")])
      )
      const { url } = yield* Backend.serve({ port, host, secret }).pipe(
        Effect.mapError((error) =>
          new CommandFailed({
            message: error._tag === "ServeError"
              ? describeServeError(error, { host, port })
              : `cannot start the rendering backend: ${error.message}`
          })
        ),
        Effect.provide(Renderer.layerInProcess)
      )
      yield* Console.log(
        `rendering backend on ${url}` +
          (Option.isNone(secret) ? " (no RENDER_BACKEND_SECRET: loopback only, callers are not authenticated)" : "")
      )
      return yield* Effect.never
    }).pipe(Effect.scoped)
})
