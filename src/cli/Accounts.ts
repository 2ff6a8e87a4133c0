import type { SqlClient } from "@effect/sql/SqlClient"
import type { Scope } from "effect"
import { Console, Effect, Layer, Option, Schema } from "effect"
import { EmailAddress } from "../domain/Accounts.ts"
import type { Tier } from "../domain/Principal.ts"
import { AppConfig } from "../services/AppConfig.ts"
import type * as OAuth from "../services/OAuthServer.ts"
import type * as Users from "../services/UserDirectory.ts"
import { arg, CommandFailed, group, leaf, load, type Parsed, text, UsageError } from "./Command.ts"
import { loadConfig, storeCommandNote } from "./Startup.ts"

/**
 * Development users of the sign-in page and the OAuth clients that registered, in the SQL store the
 * configuration names. Writes take the document row's lock, and servers read the change on their
 * next request.
 */
type UserStore = Effect.Effect.Success<typeof Users.makeEmbedded>

/** Store failures become one line naming what failed; usage errors pass through. */
const reported = <A, E extends { readonly message: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.mapError(
    effect,
    (error): UsageError | CommandFailed =>
      error instanceof UsageError || error instanceof CommandFailed
        ? error
        : new CommandFailed({ message: error.message })
  )

const withUsers = <A, E extends { readonly message: string }>(
  use: (users: UserStore) => Effect.Effect<A, E, AppConfig | SqlClient | Scope.Scope>
) =>
  Effect.scoped(Effect.gen(function*() {
    const config = yield* loadConfig
    const [Store, JsonImport, { makeEmbedded }] = yield* load(() =>
      Promise.all([
        import("../layers/Store.ts"),
        import("../services/accounts/JsonImport.ts"),
        import("../services/UserDirectory.ts")
      ])
    )
    // the store the server uses, migrated, with the DATA_DIR files of an earlier version imported
    const store = Layer.provideMerge(JsonImport.layer, Store.fromConfig).pipe(
      Layer.provide(Layer.succeed(AppConfig, config))
    )
    return yield* reported(
      Effect.flatMap(makeEmbedded, use).pipe(
        Effect.provide(store),
        Effect.provideService(AppConfig, config),
        Effect.mapError((error) => "message" in error ? error : { message: String(error) })
      )
    )
  }))

const failed = (message: string) => Effect.fail(new CommandFailed({ message }))

const emailOf = (input: Parsed, command: string) =>
  Schema.decodeUnknown(EmailAddress)(arg(input, "email")).pipe(
    Effect.mapError(() =>
      new UsageError({
        command,
        message: `${command}: <email> must be an e-mail address such as ada@example.com (got ${
          JSON.stringify(arg(input, "email"))
        })`
      })
    )
  )

/** The first line of stdin: pipe the password in (`printf '%s\n' "$PASSWORD" | ecds accounts users add …`). */
const readPassword = Effect.promise(async () => {
  if (process.stdin.isTTY === true) process.stdout.write("Password (visible as you type; pipe it in to hide it): ")
  let input = ""
  for await (const chunk of process.stdin) {
    input += String(chunk)
    if (input.includes("\n")) break
  }
  return input.split(/\r?\n/)[0] ?? ""
})

const date = (millis: number | undefined) => millis === undefined ? "-" : new Date(millis).toISOString()

const email = { name: "email", description: "the user's e-mail address (their sign-in name)" }
const tierOption = {
  type: "choice" as const,
  choices: ["free", "paid"],
  description: "free users pay per document with credits; paid users render under the plan"
}

const users = group({
  name: "users",
  summary: "development users of the sign-in page",
  commands: [
    leaf({
      name: "add",
      summary: "add a user; the password (12+ characters) is read from stdin",
      args: [email],
      options: {
        tier: { ...tierOption, default: "free" },
        name: { type: "text", placeholder: "<text>", description: "display name" }
      },
      run: (input) =>
        Effect.gen(function*() {
          const address = yield* emailOf(input, "ecds accounts users add")
          const password = yield* readPassword
          if (password.length < 12) return yield* failed("the password must have at least 12 characters")
          const name = text(input, "name")
          const added = yield* withUsers((store) =>
            store.add({
              email: address,
              password,
              tier: text(input, "tier") as Tier,
              ...(name === undefined ? {} : { name })
            })
          )
          if (Option.isNone(added)) return yield* failed(`a user with the email ${address} already exists`)
          yield* Console.log(`added ${added.value.id} ${added.value.email} (${added.value.tier})`)
        })
    }),
    leaf({
      name: "list",
      summary: "users with id, e-mail, tier and name",
      run: () =>
        withUsers((store) =>
          Effect.flatMap(store.list, (list) =>
            Console.log(
              list.length === 0
                ? "no users"
                : list.map((user) => `${user.id}  ${user.email}  ${user.tier}  ${user.name ?? ""}`).join("\n")
            ))
        )
    }),
    leaf({
      name: "set-tier",
      summary: "move a user to another tier (applies at once)",
      args: [email, { name: "tier", description: "free or paid" }],
      run: (input) =>
        Effect.gen(function*() {
          const tier = arg(input, "tier")
          if (tier !== "free" && tier !== "paid") {
            return yield* new UsageError({
              command: "ecds accounts users set-tier",
              message: `ecds accounts users set-tier: <tier> must be one of free, paid (got ${JSON.stringify(tier)})`
            })
          }
          const updated = yield* withUsers((store) => store.setTier(arg(input, "email"), tier))
          if (Option.isNone(updated)) return yield* failed(`no user with the email ${arg(input, "email")}`)
          yield* Console.log(`${updated.value.email} is now on the ${updated.value.tier} tier`)
        })
    }),
    leaf({
      name: "remove",
      summary: "remove a user; their connections stop working at once",
      args: [email],
      run: (input) =>
        Effect.gen(function*() {
          const removed = yield* withUsers((store) => store.remove(arg(input, "email")))
          if (Option.isNone(removed)) return yield* failed(`no user with the email ${arg(input, "email")}`)
          yield* Console.log(`removed ${removed.value.email}; their connections stop working at once`)
        })
    })
  ]
})

const withOAuth = <A, E extends { readonly message: string }>(
  use: (oauth: Effect.Effect.Success<typeof OAuth.make>) => Effect.Effect<A, E>
) =>
  withUsers((store) =>
    Effect.flatMap(
      load(() => Promise.all([import("../services/OAuthServer.ts"), import("../services/UserDirectory.ts")])),
      ([OAuth, { UserDirectory }]) =>
        Effect.flatMap(OAuth.make.pipe(Effect.provideService(UserDirectory, store.directory)), use)
    )
  )

const clientLines = (oauth: Effect.Effect.Success<typeof OAuth.make>) =>
  Effect.map(oauth.listClients, (clients) =>
    clients.flatMap(({ client, grants }) => {
      const live = grants.filter((grant) => grant.revokedAt === undefined)
      const status = client.revokedAt === undefined ? "active" : `revoked ${date(client.revokedAt)}`
      return [
        `${client.clientId}  ${client.metadata.client_name ?? "(unnamed)"}  ${client.metadata.application_type}  ` +
        `registered ${date(client.issuedAt)}  ${status}  ${live.length} live of ${grants.length} connections`,
        ...grants.map((grant) => {
          const source = grant.source
          const software = [source.softwareId, source.softwareVersion].filter((part) => part !== undefined).join(" ")
          return `    ${grant.id}  user ${grant.userId}  since ${date(grant.createdAt)}  ` +
            `refreshed ${date(grant.refreshedAt)}  ` +
            `${grant.revokedAt === undefined ? "live" : `revoked (${grant.revokedReason ?? "?"})`}  ` +
            `via ${source.redirectUri}${software === "" ? "" : ` ${software}`}` +
            `${source.userAgent === undefined ? "" : ` [${source.userAgent}]`}`
        })
      ]
    }))

const clients = group({
  name: "clients",
  summary: "OAuth clients and their connections",
  commands: [
    leaf({
      name: "list",
      summary: "clients, their connections and where each came from",
      run: () =>
        withOAuth((oauth) =>
          Effect.flatMap(
            clientLines(oauth),
            (lines) => Console.log(lines.length === 0 ? "no clients" : lines.join("\n"))
          )
        )
    }),
    leaf({
      name: "revoke",
      summary: "revoke a client and all its connections",
      args: [{ name: "client_id", description: "the client id shown by `ecds accounts clients list`" }],
      run: (input) =>
        withOAuth((oauth) =>
          Effect.gen(function*() {
            const clientId = arg(input, "client_id")
            if (!(yield* oauth.revokeClient(clientId))) return yield* failed(`no client ${clientId}`)
            yield* Console.log(`revoked ${clientId} and all its connections`)
          })
        )
    })
  ]
})

export const accounts = group({
  name: "accounts",
  summary: "development users and OAuth clients",
  details: storeCommandNote,
  commands: [users, clients]
})
