import { Effect, Option } from "effect"
import type { Principal } from "../domain/Principal.ts"
import type { BearerResolver } from "./Auth.ts"
import { KeyPrefix, type KeyStoreShape } from "./KeyStore.ts"

/**
 * The API-key part of the public deployment's Auth chain: a `svc_live_` bearer that matches a
 * stored key hash is an `ApiKey` principal (whatever its status: the endpoints decide what an
 * inactive key or a billing issue may do); anything else is left to the next resolver.
 */
export const bearerResolver = (keys: KeyStoreShape): BearerResolver => ({
  accepts: (bearer) => bearer.startsWith(KeyPrefix),
  resolve: (bearer) =>
    Effect.map(
      keys.verify(bearer),
      Option.map(({ keyId, plan, status }): Principal => ({ _tag: "ApiKey", keyId, plan, status }))
    )
})
