/**
 * `npm run migrate`: brings the configured store (DATABASE_URL, else the embedded database under
 * DATA_DIR) to the latest schema and says what was applied. The service does the same at start;
 * this lets an operator migrate ahead of a rolling deploy.
 */
import { Cause, Effect, Layer } from "effect"
import * as Store from "../src/layers/Store.ts"
import * as AppConfig from "../src/services/AppConfig.ts"
import * as Migrations from "../src/services/store/Migrations.ts"

const program = Effect.gen(function*() {
  const config = yield* AppConfig.AppConfig
  const applied = yield* Migrations.run
  const where = config.database.url._tag === "Some" ? "the PostgreSQL server at DATABASE_URL" : "the embedded database"
  console.log(
    applied.length === 0
      ? `${where} is up to date`
      : [`applied to ${where}:`, ...applied.map((m) => `  ${m.area} ${m.id}_${m.name}`)].join("\n")
  )
})

// the engine alone: the store layer would already have migrated before the program could report it
const engine = Layer.unwrapEffect(Effect.map(AppConfig.AppConfig, (config) => Store.engine(config).layer))

Effect.runPromiseExit(
  program.pipe(Effect.provide(engine.pipe(Layer.provideMerge(AppConfig.layer))))
).then((exit) => {
  if (exit._tag === "Success") return
  console.error(Cause.pretty(exit.cause))
  process.exitCode = 1
})
