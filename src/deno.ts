import { HttpLayerRouter } from "@effect/platform"
import { Console, Context, Effect, Either, Layer } from "effect"
import { ClientAddress } from "./http/middleware/RateLimit.ts"
import { appLayer } from "./layers/Main.ts"
import * as AppConfig from "./services/AppConfig.ts"

declare const Deno: {
  readonly version: { readonly deno: string }
  readonly env: { readonly toObject: () => Record<string, string> }
  readonly exit: (code: number) => never
  readonly serve: (
    options: { readonly port: number; readonly hostname: string },
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

/** The app as a fetch handler: `deno serve`, Deno Deploy, or `Deno.serve` below. */
export default {
  fetch: (request: Request, info?: ServeInfo): Promise<Response> =>
    info === undefined ? handler(request) : handler(request, Context.make(ClientAddress, info.remoteAddr.hostname))
}

if ((import.meta as { main?: boolean }).main) {
  const configured = Effect.runSync(Effect.either(AppConfig.read))
  if (Either.isLeft(configured)) {
    const lines = ["the configuration is invalid:", ...AppConfig.describeError(configured.left, Deno.env.toObject())]
    Effect.runSync(Console.error(lines.join("\n  ")))
    Deno.exit(1)
  }
  const config = configured.right
  Deno.serve(
    { port: config.port, hostname: config.host },
    (request, info) => handler(request, Context.make(ClientAddress, info.remoteAddr.hostname))
  )
}
