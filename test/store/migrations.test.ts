import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { checkAreas, run, runAreas } from "../../src/services/store/Migrations.ts"
import type { MigrationArea } from "../../src/services/store/migrations/Area.ts"
import { areas } from "../../src/services/store/migrations/index.ts"
import { engines } from "../support/SqlEngines.ts"

const create = (table: string) => Effect.flatMap(SqlClient, (sql) => sql`CREATE TABLE ${sql(table)} (n int)`)

const first: MigrationArea = {
  name: "alpha",
  ids: { first: 1, last: 9 },
  migrations: { "1_alpha_one": create("alpha_one"), "2_alpha_two": create("alpha_two") }
}
const second: MigrationArea = {
  name: "beta",
  ids: { first: 20, last: 29 },
  migrations: { "20_beta_one": create("beta_one") }
}

const tables = Effect.flatMap(SqlClient, (sql) =>
  Effect.map(
    sql<{ tablename: string }>`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1`,
    (rows) => rows.map((row) => row.tablename)
  ))

describe("the migration registry", () => {
  it("keeps every area inside its id range, with no id used twice", () => {
    expect(checkAreas(areas)).toEqual([])
  })

  it("names what is wrong with an area", () => {
    const problems = checkAreas([
      { name: "a", ids: { first: 1, last: 5 }, migrations: { "6_late": Effect.void, "x_bad": Effect.void } },
      { name: "b", ids: { first: 1, last: 9 }, migrations: { "1_mine": Effect.void, "2_ok": Effect.void } },
      { name: "c", ids: { first: 1, last: 9 }, migrations: { "2_taken": Effect.void } }
    ])
    expect(problems).toEqual([
      "a: 6_late is outside 1–5",
      "a: \"x_bad\" does not start with \"<id>_\"",
      "c: id 2 is already used by b"
    ])
  })
})

for (const engine of engines) {
  describe(`migrations on ${engine.name}`, () => {
    it.layer(engine.empty, { timeout: 120_000 })((it) => {
      it.effect("apply each area once, also when an earlier area gains a migration after a later one ran", () =>
        Effect.gen(function*() {
          const applied = yield* runAreas([first, second])
          expect(applied.map((m) => `${m.area}/${m.id}`)).toEqual(["alpha/1", "alpha/2", "beta/20"])
          expect(yield* runAreas([first, second])).toEqual([])
          // the store area adds migration 3 after area beta's 20 ran: it still runs
          const grown = { ...first, migrations: { ...first.migrations, "3_alpha_three": create("alpha_three") } }
          const later = yield* runAreas([grown, second])
          expect(later.map((m) => `${m.area}/${m.id}`)).toEqual(["alpha/3"])
          expect(yield* tables).toEqual(expect.arrayContaining(["alpha_one", "alpha_three", "alpha_two", "beta_one"]))
        }))

      it.effect("take turns when started together", () =>
        Effect.gen(function*() {
          const area: MigrationArea = {
            name: "gamma",
            ids: { first: 1, last: 9 },
            migrations: { "1_gamma": create("gamma_one") }
          }
          const outcomes = yield* Effect.all([runAreas([area]), runAreas([area]), runAreas([area])], {
            concurrency: "unbounded"
          })
          expect(outcomes.flat().map((m) => m.id)).toEqual([1])
        }))

      it.effect("leave nothing behind when one fails", () =>
        Effect.gen(function*() {
          const area: MigrationArea = {
            name: "delta",
            ids: { first: 1, last: 9 },
            migrations: {
              "1_delta_ok": create("delta_one"),
              "2_delta_broken": Effect.flatMap(SqlClient, (sql) => sql`CREATE TABLE delta_two (n no_such_type)`)
            }
          }
          const exit = yield* Effect.exit(runAreas([area]))
          expect(Exit.isFailure(exit)).toBe(true)
          expect(yield* tables).not.toContain("delta_one")
          const sql = yield* SqlClient
          const history = yield* sql<
            { exists: boolean }
          >`SELECT to_regclass('ecds_migrations_delta') IS NOT NULL AS exists`
          expect(history).toEqual([{ exists: false }])
        }))

      it.effect("the registry applies cleanly", () =>
        Effect.gen(function*() {
          yield* run
          expect(yield* run).toEqual([])
        }))
    })
  })
}
