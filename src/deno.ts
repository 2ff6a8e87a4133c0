import { HttpLayerRouter } from "@effect/platform"
import { Console, Context, Effect, Either, Layer } from "effect"
import { ClientAddress } from "./http/middleware/RateLimit.ts"
import * as Logging from "./layers/Logging.ts"
import { appLayer } from "./layers/Main.ts"
import * as AppConfig from "./services/AppConfig.ts"

declare const Deno: {
  readonly version: { readonly deno: string }
  readonly env: { readonly toObject: () => Record<string, string> }
  readonly exit: (code: number) => never
  readonly serve: (
    options: {
      readonly port: number
      readonly hostname: string
      readonly onListen: (address: { readonly hostname: string; readonly port: number }) => void
    },
    handler: (request: Request, info: ServeInfo) => Promise<Response>
  ) => unknown
}
interface ServeInfo {
  readonly remoteAddr: { readonly hostname: string }
}

const { handler } = HttpLayerRouter.toWebHandler(
  appLayer(`deno ${Deno.version.deno}`).pipe(Layer.provide(AppConfig.layer)),
  { disableLogger: true }
)

/**
 * The app as a fetch handler, for `deno serve` and Deno Deploy. A process of its own is started by
 * `src/deno-main.ts` (`deno task start`): run directly, a module with this default export makes Deno
 * print a hint to use `deno serve` instead, outside the JSON log.
 */
export default {
  fetch: (request: Request, info?: ServeInfo): Promise<Response> =>
    info === undefined ? handler(request) : handler(request, Context.make(ClientAddress, info.remoteAddr.hostname))
}

/**
 * Serves the app with `Deno.serve` on `HOST`:`PORT`, or exits with the configuration's problems.
 * The address is logged as a JSON line like every other (Deno would print its own plain line).
 */
export const serve = (): void => {
  const configured = Effect.runSync(Effect.either(AppConfig.read))
  if (Either.isLeft(configured)) {
    const lines = ["the configuration is invalid:", ...AppConfig.describeError(configured.left, Deno.env.toObject())]
    Effect.runSync(Console.error(lines.join("\n  ")))
    Deno.exit(1)
  }
  const config = configured.right
  const logging = Logging.layer.pipe(Layer.provide(Layer.succeed(AppConfig.AppConfig, config)))
  Deno.serve(
    {
      port: config.port,
      hostname: config.host,
      onListen: ({ hostname, port }) =>
        Effect.runFork(Effect.logInfo(`Listening on http://${hostname}:${port}`).pipe(Effect.provide(logging)))
    },
    (request, info) => handler(request, Context.make(ClientAddress, info.remoteAddr.hostname))
  )
}
