import { Effect, Layer, Option } from "effect"
import { anonymous } from "../domain/Principal.ts"
import { Auth, bearerOf } from "./Auth.ts"
import { KeyPrefix, KeyStore } from "./KeyStore.ts"

/**
 * `Auth` over the key store: a `svc_live_` bearer that matches a stored key hash is an `ApiKey`
 * principal; anything else (missing, malformed, unknown, revoked from the store) is anonymous.
 */
export const layer: Layer.Layer<Auth, never, KeyStore> = Layer.effect(
  Auth,
  Effect.map(KeyStore, (keys) => ({
    authenticate: (authorization) => {
      const bearer = bearerOf(authorization)
      if (bearer === undefined || !bearer.startsWith(KeyPrefix)) return Effect.succeed(anonymous)
      return Effect.map(keys.verify(bearer), (record) =>
        Option.match(record, {
          onNone: () => anonymous,
          onSome: ({ keyId, plan, status }) => ({ _tag: "ApiKey" as const, keyId, plan, status })
        }))
    }
  }))
)
