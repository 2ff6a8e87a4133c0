import { Context, Layer } from "effect"

/** Which runtime serves the app (`node v20.20.2`, `deno 2.9.6`); each entry point provides it. */
export class RuntimeInfo extends Context.Tag("app/RuntimeInfo")<RuntimeInfo, { readonly name: string }>() {}

export const layer = (name: string): Layer.Layer<RuntimeInfo> => Layer.succeed(RuntimeInfo, { name })
