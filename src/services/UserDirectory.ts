import type { SqlClient } from "@effect/sql/SqlClient"
import { Context, Data, Effect, Layer, Option, Schema } from "effect"
import { EmailAddress, type User, UsersDocument } from "../domain/Accounts.ts"
import type { Tier } from "../domain/Principal.ts"
import { StoreUnavailable } from "../domain/Problem.ts"
import type { DocumentStore, StoreError } from "./accounts/DocumentStore.ts"
import { hashPassword, randomId, verifyPassword } from "./accounts/Secrets.ts"
import * as SqlDocument from "./accounts/SqlDocument.ts"

/** A person who can sign in to the authorization server, as the rest of the service sees them. */
export interface Account {
  readonly id: string
  readonly email: string
  readonly name?: string
  readonly tier: Tier
}

export class UserDirectoryError extends Data.TaggedError("UserDirectoryError")<{ readonly reason: string }> {}

/** A user cannot be added under something that is not an e-mail address (`EmailAddress`). */
export class InvalidEmail extends Data.TaggedError("InvalidEmail")<{ readonly message: string }> {}

/**
 * Who may sign in, and on which tier. The authorization server depends only on this service: an
 * operator plugs in a real identity provider by providing another layer (a directory that checks
 * passwords, or one backed by the organization's user database), without touching the OAuth code.
 */
export interface UserDirectoryShape {
  /** A sign-in check. Unknown users and wrong passwords are the same `None`, and take the same time. */
  readonly signIn: (email: string, password: string) => Effect.Effect<Option.Option<Account>, UserDirectoryError>
  /**
   * The account behind a grant with its current tier; `None` once the account is gone,
   * `StoreUnavailable` when the directory cannot be asked.
   */
  readonly find: (userId: string) => Effect.Effect<Option.Option<Account>, StoreUnavailable>
}

export class UserDirectory extends Context.Tag("app/UserDirectory")<UserDirectory, UserDirectoryShape>() {}

const accountOf = (user: User): Account => ({
  id: user.id,
  email: user.email,
  tier: user.tier,
  ...(user.name === undefined ? {} : { name: user.name })
})

const normalizeEmail = (email: string) => email.trim().toLowerCase()

const emptyUsers: UsersDocument = { version: 1, users: {} }

const failure = (error: StoreError) => new UserDirectoryError({ reason: error.reason })

const directoryUnavailable = (error: StoreError) =>
  Effect.zipRight(
    Effect.logWarning("user directory unavailable", { reason: error.reason }),
    Effect.fail(new StoreUnavailable({ detail: "The account store cannot be reached; retry in a few seconds." }))
  )

export type EmbeddedUsers = ReturnType<typeof embeddedUsers>

// a real hash of a random password, made on first use: unknown users cost a verification too
let decoy: Promise<string> | undefined
const decoyHash = () => (decoy ??= hashPassword(randomId()))

const embeddedUsers = (store: DocumentStore<UsersDocument>) => {
  const byEmail = (document: UsersDocument, email: string) =>
    Object.values(document.users).find((user) => user.email === normalizeEmail(email))

  const directory: UserDirectoryShape = {
    signIn: (email, password) =>
      Effect.flatMap(Effect.mapError(store.current, failure), (document) => {
        const user = byEmail(document, email)
        return Effect.tryPromise({
          try: async () => verifyPassword(password, user?.passwordHash ?? await decoyHash()),
          catch: () => new UserDirectoryError({ reason: "password check failed" })
        }).pipe(Effect.map((ok) => ok && user !== undefined ? Option.some(accountOf(user)) : Option.none()))
      }),
    find: (userId) =>
      Effect.map(
        store.current,
        (document) =>
          Object.hasOwn(document.users, userId) ? Option.some(accountOf(document.users[userId]!)) : Option.none()
      ).pipe(Effect.catchTag("StoreError", directoryUnavailable))
  }

  const change = <B>(f: (users: Record<string, User>) => readonly [B, Record<string, User> | undefined]) =>
    store.update((document) => {
      const [result, users] = f(document.users)
      return [result, users === undefined ? document : { ...document, users }] as const
    }).pipe(Effect.mapError(failure))

  return {
    directory,
    list: Effect.map(Effect.orDie(store.current), (document) => Object.values(document.users).map(accountOf)),
    add: (input: { readonly email: string; readonly password: string; readonly tier: Tier; readonly name?: string }) =>
      Effect.flatMap(
        Schema.decodeUnknown(EmailAddress)(normalizeEmail(input.email)).pipe(
          Effect.mapError(() =>
            new InvalidEmail({
              message: `${JSON.stringify(input.email)} is not an e-mail address such as ada@example.com`
            })
          ),
          Effect.zipRight(Effect.promise(() => hashPassword(input.password)))
        ),
        (passwordHash) =>
          change((users) => {
            const email = normalizeEmail(input.email)
            if (Object.values(users).some((user) => user.email === email)) {
              return [Option.none<Account>(), undefined] as const
            }
            const user: User = {
              id: `usr_${randomId(12)}`,
              email,
              tier: input.tier,
              passwordHash,
              createdAt: Date.now(),
              ...(input.name === undefined ? {} : { name: input.name })
            }
            return [Option.some(accountOf(user)), { ...users, [user.id]: user }] as const
          })
      ),
    setTier: (email: string, tier: Tier) =>
      change((users) => {
        const user = Object.values(users).find((candidate) => candidate.email === normalizeEmail(email))
        if (user === undefined) return [Option.none<Account>(), undefined] as const
        const updated = { ...user, tier }
        return [Option.some(accountOf(updated)), { ...users, [user.id]: updated }] as const
      }),
    remove: (email: string) =>
      change((users) => {
        const user = Object.values(users).find((candidate) => candidate.email === normalizeEmail(email))
        if (user === undefined) return [Option.none<Account>(), undefined] as const
        const { [user.id]: _removed, ...rest } = users
        return [Option.some(accountOf(user)), rest] as const
      })
  }
}

/** The development user store: a document in the SQL store, managed with the operator CLI. */
export const makeEmbedded: Effect.Effect<EmbeddedUsers, never, SqlClient> = Effect.map(
  SqlDocument.make({ name: SqlDocument.DocumentNames.users, schema: UsersDocument, empty: emptyUsers }),
  embeddedUsers
)

/** The development user store as the server's UserDirectory. */
export const layerEmbedded: Layer.Layer<UserDirectory, never, SqlClient> = Layer.effect(
  UserDirectory,
  Effect.map(makeEmbedded, (users) => users.directory)
)
