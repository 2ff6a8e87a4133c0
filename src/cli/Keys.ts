import { Console, Effect, Layer } from "effect"
import * as AppConfig from "../services/AppConfig.ts"
import { CommandFailed, group, leaf, load, type OptionSpec, type Parsed } from "./Command.ts"
import { loadConfig, storeCommandNote } from "./Startup.ts"

/** Runs one keys operation against the server's own stores (the SQL store the configuration names). */
const runKeys = (name: string) => (input: Parsed) =>
  Effect.gen(function*() {
    const config = yield* loadConfig
    const [Store, KeysCommand] = yield* load(() =>
      Promise.all([import("../layers/Store.ts"), import("../services/KeysCommand.ts")])
    )
    const stores = KeysCommand.stores.pipe(
      Layer.provideMerge(Store.fromConfig),
      Layer.provide(Layer.succeed(AppConfig.AppConfig, config))
    )
    const output = yield* KeysCommand.run([name, ...input.argv]).pipe(
      Effect.provide(stores),
      Effect.scoped,
      Effect.mapError((error) =>
        new CommandFailed({
          message: typeof error === "string" ? error : "message" in error ? String(error.message) : String(error)
        })
      )
    )
    yield* Console.log(output)
  })

const keyId = { name: "keyId", description: "the key id shown by `ecds keys list` (not the secret key)" }
const userId = { name: "userId", description: "the user id shown by `ecds accounts users list`" }
const amount = { name: "amount", description: "whole credits; negative removes" }

const createOptions: Record<string, OptionSpec> = {
  label: { type: "text", placeholder: "<text>", description: "who the key is for" },
  plan: { type: "text", placeholder: "<name>", description: "plan name shown in answers", default: "enterprise" },
  credits: { type: "integer", placeholder: "<n>", description: "prepaid credits to start with", default: "0" }
}

export const keys = group({
  name: "keys",
  summary: "API keys and prepaid credits",
  details: storeCommandNote,
  commands: [
    leaf({
      name: "create",
      summary: "create a key; the svc_live_… key is printed once",
      options: createOptions,
      run: runKeys("create")
    }),
    leaf({ name: "list", summary: "keys with status, plan and balance", run: runKeys("list") }),
    leaf({
      name: "deactivate",
      summary: "the key answers 403 from now on",
      args: [keyId],
      run: runKeys("deactivate")
    }),
    leaf({ name: "activate", summary: "re-activate a key", args: [keyId], run: runKeys("activate") }),
    leaf({ name: "credit", summary: "add prepaid credits to a key", args: [keyId, amount], run: runKeys("credit") }),
    leaf({
      name: "usage",
      summary: "paid documents, last use and balance per key",
      args: [{ ...keyId, optional: true }],
      run: runKeys("usage")
    }),
    leaf({
      name: "user-credit",
      summary: "add credits to a signed-in (free-tier) user's account",
      args: [userId, amount],
      run: runKeys("user-credit")
    }),
    leaf({
      name: "user-usage",
      summary: "paid documents, last use and balance of a user's account",
      args: [userId],
      run: runKeys("user-usage")
    })
  ]
})
