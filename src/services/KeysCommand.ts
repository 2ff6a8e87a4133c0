import { Effect } from "effect"
import { Credits } from "./Credits.ts"
import { KeyStore } from "./KeyStore.ts"

export const usage = `usage: npm run keys -- <command>
  create [--label <text>] [--plan <name>] [--credits <n>]   new key, printed once
  list                                                      keys with status, plan and balance
  deactivate <keyId>                                        the key answers 403 from now on
  activate <keyId>                                          re-activates a key
  credit <keyId> <amount>                                   adds prepaid credits (negative removes)`

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
export const run = (args: ReadonlyArray<string>): Effect.Effect<string, string, KeyStore | Credits> =>
  Effect.gen(function*() {
    const keys = yield* KeyStore
    const credits = yield* Credits
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
      default:
        return yield* Effect.fail(usage)
    }
  })
