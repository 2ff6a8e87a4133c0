import { Effect, Layer, Option } from "effect"
import * as JsonImport from "./accounts/JsonImport.ts"
import * as SqlCredits from "./accounts/SqlCredits.ts"
import * as SqlKeys from "./accounts/SqlKeys.ts"
import { Credits } from "./Credits.ts"
import { userAccount } from "./DocumentPayers.ts"
import { KeyStore } from "./KeyStore.ts"
import * as UserDirectoryService from "./UserDirectory.ts"
import { UserDirectory } from "./UserDirectory.ts"

export const usage = `usage: ecds keys <command>
  create [--label <text>] [--plan <name>] [--credits <n>]   new key, printed once
  list                                                      keys with status, plan and balance
  deactivate <keyId>                                        the key answers 403 from now on
  activate <keyId>                                          re-activates a key
  credit <keyId> <amount>                                   adds prepaid credits (negative removes)
  usage [keyId]                                             paid documents, last use and balance per key
  user-credit <userId> <amount>                             adds credits to a signed-in (free-tier) user's account
  user-usage <userId>                                       paid documents, last use and balance of a user account`

/** The stores the CLI administers, the server's own: keys and credits in the SQL store, users under DATA_DIR. */
export const stores = Layer.mergeAll(SqlKeys.layer, SqlCredits.layer(), UserDirectoryService.layerEmbedded).pipe(
  Layer.provide(JsonImport.layer)
)

const option = (args: ReadonlyArray<string>, name: string) => {
  const index = args.indexOf(`--${name}`)
  return index === -1 ? undefined : args[index + 1]
}

const integer = (value: string | undefined, what: string) =>
  value !== undefined && /^-?\d+$/.test(value)
    ? Effect.succeed(Number(value))
    : Effect.fail(`${what} must be an integer`)

/**
 * The keys CLI: administers API keys and credits in the embedded store. A new key is printed
 * exactly once; listings show key ids (not secret) and never the stored hashes.
 */
export const run = (args: ReadonlyArray<string>): Effect.Effect<string, string, KeyStore | Credits | UserDirectory> =>
  Effect.gen(function*() {
    const keys = yield* KeyStore
    const credits = yield* Credits
    const users = yield* UserDirectory
    /** A user's credits account, once the user id (`ecds accounts users list`) is known to exist. */
    const accountOf = (userId: string | undefined) =>
      userId === undefined ? Effect.fail(usage) : Effect.flatMap(
        Effect.mapError(users.find(userId), (error) => error.detail),
        Option.match({
          onNone: () => Effect.fail(`no user with id ${userId}`),
          onSome: (user) => Effect.succeed({ user, account: userAccount(user.id) })
        })
      )
    const [command, ...rest] = args
    switch (command) {
      case "create": {
        const initial = option(rest, "credits")
        const amount = initial === undefined ? 0 : yield* integer(initial, "--credits")
        const { key, record } = yield* keys.create({
          label: option(rest, "label") ?? "",
          plan: option(rest, "plan") ?? "enterprise"
        })
        const balance = amount === 0 ? 0 : yield* credits.add(record.keyId, amount)
        return [
          `key id:  ${record.keyId}`,
          `api key: ${key}`,
          `credits: ${balance}`,
          "Store the API key now: it is not kept and cannot be shown again."
        ].join("\n")
      }
      case "list": {
        const records = yield* keys.list
        if (records.length === 0) return "no keys"
        const lines = yield* Effect.forEach(
          records,
          (record) =>
            Effect.map(credits.balance(record.keyId), (balance) =>
              [
                record.keyId,
                record.status.padEnd(13),
                record.plan.padEnd(12),
                String(balance).padStart(7),
                record.createdAt,
                record.label
              ]
                .join("  "))
        )
        return ["key id        status         plan         credits  created                   label", ...lines].join(
          "\n"
        )
      }
      case "deactivate":
      case "activate": {
        const keyId = rest[0]
        if (keyId === undefined) return yield* Effect.fail(usage)
        const record = yield* keys.setStatus(keyId, command === "activate" ? "active" : "inactive").pipe(
          Effect.mapError(() => `no key with id ${keyId}`)
        )
        return `${record.keyId}: ${record.status}`
      }
      case "credit": {
        const [keyId, amount] = rest
        if (keyId === undefined) return yield* Effect.fail(usage)
        const known = (yield* keys.list).some((record) => record.keyId === keyId)
        if (!known) return yield* Effect.fail(`no key with id ${keyId}`)
        const balance = yield* credits.add(keyId, yield* integer(amount, "amount"))
        return `${keyId}: ${balance} credits`
      }
      case "usage": {
        const wanted = rest[0]
        const records = (yield* keys.list).filter((record) => wanted === undefined || record.keyId === wanted)
        if (records.length === 0) {
          return yield* Effect.fail(wanted === undefined ? "no keys" : `no key with id ${wanted}`)
        }
        const lines = yield* Effect.forEach(
          records,
          (record) =>
            Effect.zipWith(credits.usage(record.keyId), credits.balance(record.keyId), (used, balance) =>
              [
                record.keyId,
                record.status.padEnd(13),
                String(used.spent).padStart(10),
                (used.lastSpentAt ?? "-").padEnd(24),
                String(balance).padStart(7),
                record.label
              ].join("  "))
        )
        return ["key id        status         paid docs  last paid document        credits  label", ...lines].join("\n")
      }
      case "user-credit": {
        const { account, user } = yield* accountOf(rest[0])
        const balance = yield* credits.add(account, yield* integer(rest[1], "amount"))
        return `${user.id} (${user.email}, ${user.tier} tier): ${balance} credits`
      }
      case "user-usage": {
        const { account, user } = yield* accountOf(rest[0])
        const used = yield* credits.usage(account)
        const balance = yield* credits.balance(account)
        return [
          "user id            tier  paid docs  last paid document        credits  email",
          [
            user.id.padEnd(17),
            user.tier.padEnd(4),
            String(used.spent).padStart(9),
            (used.lastSpentAt ?? "-").padEnd(24),
            String(balance).padStart(7),
            user.email
          ].join("  ")
        ].join("\n")
      }
      default:
        return yield* Effect.fail(usage)
    }
  })
