/**
 * Operator CLI for accounts in the embedded store (DATA_DIR): development users of the sign-in
 * page and the OAuth clients that registered with the authorization server.
 *
 *   npm run accounts -- users add <email> [--tier free|paid] [--name <name>]   (password on stdin)
 *   npm run accounts -- users list
 *   npm run accounts -- users set-tier <email> <free|paid>
 *   npm run accounts -- users remove <email>
 *   npm run accounts -- clients list
 *   npm run accounts -- clients revoke <client_id>
 *
 * Safe next to a running server: writes take the store's file lock, and the server picks changes
 * up within a second.
 */
import { Cause, Effect, Layer, Option } from "effect"
import type { Tier } from "../src/domain/Principal.ts"
import * as AppConfig from "../src/services/AppConfig.ts"
import * as OAuth from "../src/services/OAuthServer.ts"
import { makeEmbedded, UserDirectory } from "../src/services/UserDirectory.ts"

const usage = `usage:
  accounts users add <email> [--tier free|paid] [--name <name>]   (reads the password from stdin)
  accounts users list
  accounts users set-tier <email> <free|paid>
  accounts users remove <email>
  accounts clients list
  accounts clients revoke <client_id>`

class UsageError extends Error {}

const flag = (args: ReadonlyArray<string>, name: string) => {
  const at = args.indexOf(name)
  return at >= 0 ? args[at + 1] : undefined
}

const tierOf = (value: string | undefined): Tier => {
  if (value === undefined || value === "free" || value === "paid") return value ?? "free"
  throw new UsageError(`tier must be free or paid, not ${value}`)
}

/** The first line of stdin: pipe the password in (`printf '%s\n' "$PASSWORD" | npm run accounts -- users add …`). */
const readPassword = async () => {
  if (process.stdin.isTTY === true) process.stdout.write("Password (visible as you type; pipe it in to hide it): ")
  let text = ""
  for await (const chunk of process.stdin) {
    text += String(chunk)
    if (text.includes("\n")) break
  }
  return text.split(/\r?\n/)[0] ?? ""
}

const date = (millis: number | undefined) => millis === undefined ? "-" : new Date(millis).toISOString()

const program = (args: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const config = yield* AppConfig.AppConfig
    const users = yield* makeEmbedded(config.dataDir)
    const [area, command, ...rest] = args
    if (area === "users") {
      if (command === "add" && rest[0] !== undefined) {
        const password = yield* Effect.promise(readPassword)
        if (password.length < 12) throw new UsageError("the password must have at least 12 characters")
        const name = flag(rest, "--name")
        const added = yield* users.add({
          email: rest[0],
          password,
          tier: tierOf(flag(rest, "--tier")),
          ...(name === undefined ? {} : { name })
        })
        if (Option.isNone(added)) throw new UsageError(`a user with the email ${rest[0]} already exists`)
        console.log(`added ${added.value.id} ${added.value.email} (${added.value.tier})`)
        return
      }
      if (command === "list") {
        for (const user of yield* users.list) console.log(`${user.id}  ${user.email}  ${user.tier}  ${user.name ?? ""}`)
        return
      }
      if (command === "set-tier" && rest[0] !== undefined && rest[1] !== undefined) {
        const updated = yield* users.setTier(rest[0], tierOf(rest[1]))
        if (Option.isNone(updated)) throw new UsageError(`no user with the email ${rest[0]}`)
        console.log(`${updated.value.email} is now on the ${updated.value.tier} tier`)
        return
      }
      if (command === "remove" && rest[0] !== undefined) {
        const removed = yield* users.remove(rest[0])
        if (Option.isNone(removed)) throw new UsageError(`no user with the email ${rest[0]}`)
        console.log(`removed ${removed.value.email}; their connections stop working at once`)
        return
      }
    }
    if (area === "clients") {
      const oauth = yield* OAuth.make.pipe(Effect.provideService(UserDirectory, users.directory))
      if (command === "list") {
        for (const { client, grants } of yield* oauth.listClients) {
          const live = grants.filter((grant) => grant.revokedAt === undefined)
          const status = client.revokedAt === undefined ? "active" : `revoked ${date(client.revokedAt)}`
          console.log(
            `${client.clientId}  ${client.metadata.client_name ?? "(unnamed)"}  ${client.metadata.application_type}  ` +
              `registered ${date(client.issuedAt)}  ${status}  ${live.length} live of ${grants.length} connections`
          )
          for (const grant of grants) {
            const source = grant.source
            const software = [source.softwareId, source.softwareVersion].filter((part) => part !== undefined).join(" ")
            console.log(
              `    ${grant.id}  user ${grant.userId}  since ${date(grant.createdAt)}  refreshed ${
                date(grant.refreshedAt)
              }  ` +
                `${grant.revokedAt === undefined ? "live" : `revoked (${grant.revokedReason ?? "?"})`}  ` +
                `via ${source.redirectUri}${software === "" ? "" : ` ${software}`}${
                  source.userAgent === undefined ? "" : ` [${source.userAgent}]`
                }`
            )
          }
        }
        return
      }
      if (command === "revoke" && rest[0] !== undefined) {
        if (!(yield* oauth.revokeClient(rest[0]))) throw new UsageError(`no client ${rest[0]}`)
        console.log(`revoked ${rest[0]} and all its connections`)
        return
      }
    }
    throw new UsageError(usage)
  })

Effect.runPromiseExit(
  Effect.scoped(program(process.argv.slice(2))).pipe(Effect.provide(Layer.orDie(AppConfig.layer)))
).then((exit) => {
  if (exit._tag === "Success") process.exit(0)
  const failure = Cause.squash(exit.cause)
  console.error(failure instanceof UsageError ? failure.message : failure)
  process.exit(failure instanceof UsageError ? 2 : 1)
})
