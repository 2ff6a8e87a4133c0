import { Console, Effect, Layer } from "effect"
import { AppConfig } from "../services/AppConfig.ts"
import { CommandFailed, leaf, load } from "./Command.ts"
import { loadConfig } from "./Startup.ts"

export const migrate = leaf({
  name: "migrate",
  summary: "bring the store (DATABASE_URL, else the embedded database) to the latest schema",
  details: "The service migrates at start too; this lets an operator migrate ahead of a rolling deploy.",
  run: () =>
    Effect.gen(function*() {
      const config = yield* loadConfig
      const [Store, Migrations] = yield* load(() =>
        Promise.all([import("../layers/Store.ts"), import("../services/store/Migrations.ts")])
      )
      // the engine alone: the store layer would already have migrated before this could report it
      const applied = yield* Migrations.run.pipe(
        Effect.provide(Store.engine(config).layer.pipe(Layer.provideMerge(Layer.succeed(AppConfig, config)))),
        Effect.mapError((error) => new CommandFailed({ message: `migration failed: ${String(error)}` }))
      )
      const where = config.database.url._tag === "Some"
        ? "the PostgreSQL server at DATABASE_URL"
        : "the embedded database"
      yield* Console.log(
        applied.length === 0
          ? `${where} is up to date`
          : [`applied to ${where}:`, ...applied.map((m) => `  ${m.area} ${m.id}_${m.name}`)].join("\n")
      )
    })
})
