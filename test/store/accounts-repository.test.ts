import { SqlClient } from "@effect/sql/SqlClient"
import { expect } from "@effect/vitest"
import { Effect, Exit, Fiber, Layer, Option } from "effect"
import * as SqlCredits from "../../src/services/accounts/SqlCredits.ts"
import * as SqlKeys from "../../src/services/accounts/SqlKeys.ts"
import { Credits, NoCredits } from "../../src/services/Credits.ts"
import { KeyStore } from "../../src/services/KeyStore.ts"
import { forEachEngine } from "../support/SqlEngines.ts"

/** The ledger's invariant: every balance is the sum of its account's ledger entries. */
const ledgerMatchesBalances = Effect.flatMap(
  SqlClient,
  (sql) =>
    sql<{ account: string; balance: number; total: number }>`
    SELECT a.account, a.balance, coalesce(sum(l.delta), 0)::bigint AS total
    FROM credit_accounts a LEFT JOIN credit_ledger l ON l.account = a.account
    GROUP BY a.account, a.balance`
)

const openHolds = (account: string) =>
  Effect.flatMap(SqlClient, (sql) =>
    Effect.map(
      sql<{ n: number }>`SELECT count(*)::bigint AS n FROM credit_holds WHERE account = ${account} AND state = 'held'`,
      (rows) => rows[0]!.n
    ))

const accounts = Layer.mergeAll(SqlKeys.layer, SqlCredits.layer())

forEachEngine("API keys and credits on the SQL store", (it) => {
  it.effect("a key is found by its id and verified against the stored hash only", () =>
    Effect.gen(function*() {
      const keys = yield* KeyStore
      const { key, record } = yield* keys.create({ label: "team", plan: "enterprise" })
      expect(record.hash).toMatch(/^[0-9a-f]{64}$/)
      const found = yield* keys.verify(key)
      expect(Option.getOrThrow(found)).toEqual(record)
      // the same id with another secret, and a foreign shape, are not keys
      const forged = key.slice(0, -4) + (key.endsWith("AAAA") ? "BBBB" : "AAAA")
      expect(Option.isNone(yield* keys.verify(forged))).toBe(true)
      expect(Option.isNone(yield* keys.verify("svc_live_nope"))).toBe(true)
      const sql = yield* SqlClient
      const stored = yield* sql<{ keyHash: string }>`SELECT key_hash FROM api_keys WHERE key_id = ${record.keyId}`
      expect(stored[0]!.keyHash).toBe(record.hash)
      expect(JSON.stringify(stored)).not.toContain(key)
    }))

  it.effect("status changes apply to the next verification; an unknown key id is KeyNotFound", () =>
    Effect.gen(function*() {
      const keys = yield* KeyStore
      const { key, record } = yield* keys.create({ label: "", plan: "starter" })
      const updated = yield* keys.setStatus(record.keyId, "billing_issue")
      expect(updated.status).toBe("billing_issue")
      expect(Option.getOrThrow(yield* keys.verify(key)).status).toBe("billing_issue")
      const missing = yield* Effect.flip(keys.setStatus("000000000000", "inactive"))
      expect(missing._tag).toBe("KeyNotFound")
      expect((yield* keys.list).map((listed) => listed.keyId)).toContain(record.keyId)
    }))

  it.effect("add never goes below zero and the ledger records the change actually made", () =>
    Effect.gen(function*() {
      const credits = yield* Credits
      expect(yield* credits.balance("acct-add")).toBe(0)
      expect(yield* credits.add("acct-add", 5)).toBe(5)
      expect(yield* credits.add("acct-add", -8)).toBe(0)
      expect(yield* credits.add("acct-add", 2)).toBe(2)
      const sql = yield* SqlClient
      const entries = yield* sql<{ delta: number; kind: string }>`
        SELECT delta, kind FROM credit_ledger WHERE account = ${"acct-add"} ORDER BY entry_id`
      expect(entries).toEqual([{ delta: 5, kind: "added" }, { delta: -5, kind: "removed" }, {
        delta: 2,
        kind: "added"
      }])
    }))

  it.effect("spend: paid on success, refunded on failure and on interruption, refused with nothing left", () =>
    Effect.gen(function*() {
      const credits = yield* Credits
      yield* credits.add("acct-spend", 2)
      expect(yield* credits.spend("acct-spend", Effect.succeed("pdf"))).toBe("pdf")
      expect(yield* credits.balance("acct-spend")).toBe(1)
      const used = yield* credits.usage("acct-spend")
      expect(used.spent).toBe(1)
      expect(used.lastSpentAt).toMatch(/^\d{4}-\d{2}-\d{2}T/)

      const failed = yield* Effect.exit(credits.spend("acct-spend", Effect.fail("render failed")))
      expect(Exit.isFailure(failed)).toBe(true)
      expect(yield* credits.balance("acct-spend")).toBe(1)

      const fiber = yield* Effect.fork(credits.spend("acct-spend", Effect.never))
      yield* Effect.yieldNow()
      while ((yield* credits.balance("acct-spend")) !== 0) yield* Effect.sleep("5 millis")
      yield* Fiber.interrupt(fiber)
      expect(yield* credits.balance("acct-spend")).toBe(1)

      yield* credits.spend("acct-spend", Effect.void)
      const refused = yield* Effect.flip(credits.spend("acct-spend", Effect.succeed("never rendered")))
      expect(refused).toEqual(new NoCredits({ balance: 0 }))
      expect((yield* credits.usage("acct-spend")).spent).toBe(2)
      expect(yield* openHolds("acct-spend")).toBe(0)
      for (const row of yield* ledgerMatchesBalances) expect(row.total).toBe(row.balance)
    }))

  it.effect("concurrent spends never take more than the balance", () =>
    Effect.gen(function*() {
      const credits = yield* Credits
      yield* credits.add("acct-race", 7)
      const outcomes = yield* Effect.all(
        Array.from({ length: 20 }, () => Effect.either(credits.spend("acct-race", Effect.sleep("2 millis")))),
        { concurrency: "unbounded" }
      )
      expect(outcomes.filter((outcome) => outcome._tag === "Right")).toHaveLength(7)
      expect(yield* credits.balance("acct-race")).toBe(0)
      expect((yield* credits.usage("acct-race")).spent).toBe(7)
    }))

  it.effect("charge: the settlement answers the balance left; a refused charge saw 0", () =>
    Effect.gen(function*() {
      const credits = yield* Credits
      yield* credits.add("acct-charge", 6)
      expect(yield* credits.charge("acct-charge", Effect.succeed("pdf"))).toEqual({ value: "pdf", remaining: 5 })
      // a settlement answers the balance at that moment: after its own debit and those of charges in flight
      const charged = yield* Effect.all(
        Array.from({ length: 5 }, () => credits.charge("acct-charge", Effect.sleep("2 millis"))),
        { concurrency: "unbounded" }
      )
      const left = charged.map((paid) => paid.remaining)
      expect(left.every((remaining) => remaining >= 0 && remaining <= 4)).toBe(true)
      expect(left.at(-1) === 0 || left.includes(0)).toBe(true)
      expect(yield* credits.balance("acct-charge")).toBe(0)
      const refused = yield* Effect.flip(credits.charge("acct-charge", Effect.succeed("never rendered")))
      expect(refused).toEqual(new NoCredits({ balance: 0 }))
      // an account nobody ever funded is refused the same way
      expect(yield* Effect.flip(credits.charge("acct-none", Effect.void))).toEqual(new NoCredits({ balance: 0 }))
      expect((yield* credits.usage("acct-charge")).spent).toBe(6)
      // a settlement of a hold no longer open answers nothing (the caller then reads the balance)
      const ledger = yield* SqlCredits.makeLedger()
      yield* credits.add("acct-charge", 1)
      const holdId = (yield* ledger.hold("acct-charge"))!
      yield* ledger.refund(holdId)
      expect(yield* ledger.settle(holdId)).toBeUndefined()
      expect(yield* credits.balance("acct-charge")).toBe(1)
      for (const row of yield* ledgerMatchesBalances) expect(row.total).toBe(row.balance)
    }))

  it.effect("a hold its instance never closed is refunded once by the sweep, whoever runs it", () =>
    Effect.gen(function*() {
      const credits = yield* Credits
      yield* credits.add("acct-abandoned", 3)
      // an instance that died mid-render: debited, never settled or refunded
      const dying = yield* SqlCredits.makeLedger({ holdMillis: 0, sweepEvery: "1 hour" })
      expect(yield* dying.hold("acct-abandoned")).toEqual(expect.any(String))
      expect(yield* dying.hold("acct-abandoned")).toEqual(expect.any(String))
      expect(yield* credits.balance("acct-abandoned")).toBe(1)
      const sweepers = yield* Effect.all([dying.refundExpired, dying.refundExpired, dying.refundExpired], {
        concurrency: "unbounded"
      })
      expect(sweepers.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(2)
      expect(yield* credits.balance("acct-abandoned")).toBe(3)
      expect(yield* openHolds("acct-abandoned")).toBe(0)
      // a late settle or refund of a hold the sweep already closed changes nothing
      const sql = yield* SqlClient
      const [closed] = yield* sql<{ holdId: string }>`
        SELECT hold_id FROM credit_holds WHERE account = ${"acct-abandoned"} LIMIT 1`
      yield* dying.refund(closed!.holdId)
      yield* dying.settle(closed!.holdId)
      expect(yield* credits.balance("acct-abandoned")).toBe(3)
      expect((yield* credits.usage("acct-abandoned")).spent).toBe(0)
      for (const row of yield* ledgerMatchesBalances) expect(row.total).toBe(row.balance)
    }))
}, accounts)
