import { Console, Effect } from "effect"
import { CommandFailed, integer, leaf, load, text } from "./Command.ts"

export const renderBackend = leaf({
  name: "render-backend",
  summary: "serve PDF rendering for another instance (its RENDER_BACKEND_URL)",
  options: {
    port: { type: "integer", placeholder: "<port>", description: "TCP port (default: PORT, else 8788)" },
    host: { type: "text", placeholder: "<address>", description: "listen address (default: HOST, else 127.0.0.1)" }
  },
  run: (input) =>
    Effect.gen(function*() {
      const { startRenderBackend } = yield* load(() => import("../render/Backend.ts"))
      const backend = yield* Effect.tryPromise({
        try: () =>
          startRenderBackend({
            port: integer(input, "port") ?? Number(process.env.PORT ?? 8788),
            host: text(input, "host") ?? process.env.HOST ?? "127.0.0.1"
          }),
        catch: (error) => new CommandFailed({ message: `cannot start the rendering backend: ${String(error)}` })
      })
      yield* Console.log(`rendering backend on ${backend.url}`)
      yield* Effect.never
    })
})
