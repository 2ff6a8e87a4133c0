import { Effect, Layer } from "effect"
import * as AppConfig from "../src/services/AppConfig.ts"
import * as KeysCommand from "../src/services/KeysCommand.ts"

// `npm run keys -- <command>`: the same store as the server (DATA_DIR).
const stores = KeysCommand.stores.pipe(Layer.provide(AppConfig.layer))
const exit = await Effect.runPromiseExit(KeysCommand.run(process.argv.slice(2)).pipe(Effect.provide(stores)))
if (exit._tag === "Success") console.log(exit.value)
else {
  console.error(exit.cause._tag === "Fail" ? exit.cause.error : exit.cause)
  process.exitCode = 1
}
