import { HttpLayerRouter } from "@effect/platform"
import { Context, Effect, Layer } from "effect"
import { ClientAddress } from "./http/middleware/RateLimit.ts"
import { appLayer } from "./layers/Main.ts"
import * as AppConfig from "./services/AppConfig.ts"

declare const Deno: {
  readonly version: { readonly deno: string }
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
  const config = Effect.runSync(AppConfig.read)
  Deno.serve(
    { port: config.port, hostname: config.host },
    (request, info) => handler(request, Context.make(ClientAddress, info.remoteAddr.hostname))
  )
}
