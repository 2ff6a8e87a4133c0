import { FetchHttpClient } from "@effect/platform"
import { Layer } from "effect"
import { EnvHttpProxyAgent, fetch as undiciFetch } from "undici"

/**
 * Outbound HTTP on Node honours `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` (and their lower-case
 * forms) through undici's maintained proxy agent: every upstream call goes through the platform's
 * fetch client, which takes its `fetch` from here. Deno's own fetch reads the same variables, so
 * the Deno entry needs no layer.
 */
const dispatcher = new EnvHttpProxyAgent()

/** The proxy-aware fetch, also handed to libraries that fetch on their own (the JWKS of the enclave). */
export const proxiedFetch =
  ((input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) =>
    undiciFetch(input, { ...init, dispatcher })) as unknown as typeof globalThis.fetch

export const layerNode: Layer.Layer<FetchHttpClient.Fetch> = Layer.succeed(FetchHttpClient.Fetch, proxiedFetch)

/** The platform's HTTP client over the proxy-aware fetch, for commands that run outside the app layers. */
export const httpClientNode = FetchHttpClient.layer.pipe(Layer.provide(layerNode))
