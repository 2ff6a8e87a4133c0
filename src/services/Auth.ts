import { Context, Effect, Layer } from "effect"
import { anonymous, type Principal } from "../domain/Principal.ts"

/**
 * Turns the `Authorization` header into a Principal. Deployments differ only in the layer they
 * provide (API keys and OAuth tokens on the public deployment, service JWTs on the enclave).
 */
export interface AuthShape {
  readonly authenticate: (authorization: string | undefined) => Effect.Effect<Principal>
}

export class Auth extends Context.Tag("app/Auth")<Auth, AuthShape>() {}

export const bearerOf = (authorization: string | undefined): string | undefined => {
  const match = authorization === undefined ? null : /^Bearer[ ]+([^\s]+)\s*$/i.exec(authorization)
  return match?.[1]
}

/** A fixed bearer → principal table: tests, and deployments with no credentials configured (empty). */
export const layerFixed = (table: Readonly<Record<string, Principal>>): Layer.Layer<Auth> =>
  Layer.succeed(Auth, {
    authenticate: (authorization) => {
      const bearer = bearerOf(authorization)
      return Effect.succeed(bearer !== undefined && Object.hasOwn(table, bearer) ? table[bearer]! : anonymous)
    }
  })
