import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import * as SqlCredits from "../../src/services/accounts/SqlCredits.ts"
import * as SqlKeys from "../../src/services/accounts/SqlKeys.ts"
import { Credits } from "../../src/services/Credits.ts"
import { KeyStore } from "../../src/services/KeyStore.ts"
import * as Migrations from "../../src/services/store/Migrations.ts"
import * as Postgres from "../../src/services/store/Postgres.ts"
import { databaseConfig, scratchDatabase } from "../support/SqlEngines.ts"

/** One service instance's accounts: its own connection pool on the shared database. */
const instance = (url: string) =>
  Layer.build(
    Layer.mergeAll(SqlCredits.layer(), SqlKeys.layer).pipe(
      Layer.provideMerge(Postgres.layer(Redacted.make(url), databaseConfig(url), "ecds-test-instance"))
    )
  )

/**
 * A scratch database migrated before any instance starts, as the service migrates before its
 * services run: an instance's credit-hold sweep starts at once, and would otherwise meet no tables.
 */
const migratedDatabase = Effect.gen(function*() {
  const { url } = yield* scratchDatabase
  yield* Migrations.run.pipe(
    Effect.provide(Postgres.layer(Redacted.make(url), databaseConfig(url), "ecds-test-migrate"))
  )
  return url
})

describe("credits shared by two instances on one PostgreSQL", () => {
  it.scopedLive(
    "50 parallel final renders over both against 20 credits: exactly 20 paid, nothing twice",
    () =>
      Effect.gen(function*() {
        const url = yield* migratedDatabase
        const a = yield* instance(url)
        const b = yield* instance(url)
        const creditsA = Context.get(a, Credits)
        const creditsB = Context.get(b, Credits)
        const { key, record } = yield* Context.get(a, KeyStore).create({ label: "shared", plan: "enterprise" })
        // a key made through one instance is known to the other
        expect(Option.isSome(yield* Context.get(b, KeyStore).verify(key))).toBe(true)
        yield* creditsB.add(record.keyId, 20)

        const renders = Array.from(
          { length: 50 },
          (_, i) => Effect.either((i % 2 === 0 ? creditsA : creditsB).spend(record.keyId, Effect.sleep("5 millis")))
        )
        const outcomes = yield* Effect.all(renders, { concurrency: "unbounded" })
        const paid = outcomes.filter((outcome) => outcome._tag === "Right")
        const refused = outcomes.filter((outcome) => outcome._tag === "Left")
        expect(paid).toHaveLength(20)
        expect(refused).toHaveLength(30)
        expect(refused.every((outcome) => outcome.left._tag === "NoCredits")).toBe(true)
        expect(yield* creditsA.balance(record.keyId)).toBe(0)
        expect((yield* creditsB.usage(record.keyId)).spent).toBe(20)

        const sql = Context.get(a, SqlClient)
        const [ledger] = yield* sql<{ debits: number; total: number }>`
        SELECT count(*) FILTER (WHERE kind = 'debit')::bigint AS debits, sum(delta)::bigint AS total
        FROM credit_ledger WHERE account = ${record.keyId}`
        expect(ledger).toEqual({ debits: 20, total: 0 })
      }),
    120_000
  )

  it.scopedLive(
    "a failed render on one instance refunds the credit the other can then spend",
    () =>
      Effect.gen(function*() {
        const url = yield* migratedDatabase
        const a = yield* instance(url)
        const b = yield* instance(url)
        yield* Context.get(a, Credits).add("user:u1", 1)
        const failed = yield* Effect.either(Context.get(a, Credits).spend("user:u1", Effect.fail("backend down")))
        expect(failed._tag).toBe("Left")
        expect(yield* Context.get(b, Credits).spend("user:u1", Effect.succeed("pdf"))).toBe("pdf")
        expect(yield* Context.get(a, Credits).balance("user:u1")).toBe(0)
      }),
    120_000
  )
})
