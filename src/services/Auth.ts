import { Context, Effect, Layer, Option } from "effect"
import { anonymous, type Principal } from "../domain/Principal.ts"
import type { StoreUnavailable } from "../domain/Problem.ts"

/**
 * Turns the `Authorization` header into a Principal. Deployments differ only in the layer they
 * provide (API keys and OAuth tokens on the public deployment, service JWTs on the enclave).
 */
export interface AuthShape {
  /**
   * The caller; `StoreUnavailable` when a bearer was presented that could only be checked against
   * the account store, and the store cannot be reached (the caller is then neither known nor
   * anonymous: the HTTP layer serves free reads and answers 503 where the credential matters).
   */
  readonly authenticate: (authorization: string | undefined) => Effect.Effect<Principal, StoreUnavailable>
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

/**
 * One kind of bearer credential. `accepts` is a cheap shape check (a prefix, a JWS layout) so a
 * bearer reaches only the resolvers that could know it; `resolve` looks it up. An unreachable
 * account store is `StoreUnavailable` (the credential may well be valid); other failures (a key-set
 * outage) resolve to `None`.
 */
export interface BearerResolver {
  readonly accepts: (bearer: string) => boolean
  readonly resolve: (bearer: string) => Effect.Effect<Option.Option<Principal>, StoreUnavailable>
}

/**
 * Auth as a chain of resolvers (API key → OAuth token on the public deployment, service JWT on the
 * enclave), tried in order; a bearer no resolver recognizes is anonymous, exactly like a missing
 * or malformed one.
 */
export const fromResolvers = (resolvers: ReadonlyArray<BearerResolver>): AuthShape => ({
  authenticate: (authorization) => {
    const bearer = bearerOf(authorization)
    if (bearer === undefined) return Effect.succeed(anonymous)
    const candidates = resolvers.filter((resolver) => resolver.accepts(bearer))
    const attempt = (index: number): Effect.Effect<Principal, StoreUnavailable> =>
      index >= candidates.length
        ? Effect.succeed(anonymous)
        : Effect.flatMap(
          candidates[index]!.resolve(bearer),
          Option.match({ onNone: () => attempt(index + 1), onSome: Effect.succeed })
        )
    return attempt(0)
  }
})
