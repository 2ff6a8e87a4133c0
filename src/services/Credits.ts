import { Context, Data, Effect, Exit, Layer } from "effect"
import { join } from "node:path"
import type { StoreUnavailable } from "../domain/Problem.ts"
import { AppConfig } from "./AppConfig.ts"
import { fileStore, type JsonStore, memoryStore } from "./store/JsonFileStore.ts"

export class NoCredits extends Data.TaggedError("NoCredits")<{ readonly balance: number }> {}

/** What a key has paid for: final documents rendered with a credit, and when the last one was. */
export interface KeyUsage {
  readonly spent: number
  readonly lastSpentAt: string | undefined
}

export interface CreditsShape {
  readonly balance: (keyId: string) => Effect.Effect<number>
  readonly usage: (keyId: string) => Effect.Effect<KeyUsage>
  /** Adds (or with a negative amount removes, never below zero) credits; returns the new balance. */
  readonly add: (keyId: string, amount: number) => Effect.Effect<number>
  /**
   * Runs `work` paid with one credit: the credit is debited before it starts, so concurrent
   * requests can never spend the same credit twice, and given back if `work` fails or is
   * interrupted, so only delivered work is paid for. `StoreUnavailable` when the credit cannot be
   * taken (the work then never starts).
   */
  readonly spend: <A, E, R>(
    keyId: string,
    work: Effect.Effect<A, E, R>
  ) => Effect.Effect<A, E | NoCredits | StoreUnavailable, R>
  /**
   * `spend`, also answering the balance left once the credit is settled: the store reports it with
   * the settlement, so a paid render needs no separate balance read.
   */
  readonly charge: <A, E, R>(
    keyId: string,
    work: Effect.Effect<A, E, R>
  ) => Effect.Effect<Charged<A>, E | NoCredits | StoreUnavailable, R>
}

/** Paid work's result and the balance left after its credit was settled. */
export interface Charged<A> {
  readonly value: A
  readonly remaining: number
}

export class Credits extends Context.Tag("app/Credits")<Credits, CreditsShape>() {}

/** The document of the JSON credits store (`DATA_DIR/credits.json`, read by the one-time import). */
export interface Balances {
  readonly balances: Readonly<Record<string, number>>
  /** Absent in stores written before usage was kept. */
  readonly usage?: Readonly<Record<string, { readonly spent: number; readonly lastSpentAt: string }>>
}

export const make = (store: JsonStore<Balances>): CreditsShape => {
  const change = (keyId: string, amount: number) =>
    store.modify((current): readonly [number, Balances] => {
      const next = Math.max(0, (current.balances[keyId] ?? 0) + amount)
      return [next, { ...current, balances: { ...current.balances, [keyId]: next } }]
    })
  const debit = (keyId: string) =>
    Effect.flatMap(
      store.modify((current): readonly [{ readonly ok: boolean; readonly balance: number }, Balances] => {
        const balance = current.balances[keyId] ?? 0
        if (balance < 1) return [{ ok: false, balance }, current]
        return [{ ok: true, balance: balance - 1 }, {
          ...current,
          balances: { ...current.balances, [keyId]: balance - 1 }
        }]
      }),
      (result) => (result.ok ? Effect.void : Effect.fail(new NoCredits({ balance: result.balance })))
    )
  const recordUse = (keyId: string) =>
    store.modify((current): readonly [void, Balances] => {
      const spent = (current.usage?.[keyId]?.spent ?? 0) + 1
      const usage = { ...current.usage, [keyId]: { spent, lastSpentAt: new Date().toISOString() } }
      return [undefined, { ...current, usage }]
    })
  const balance = (keyId: string) => Effect.map(store.read, (current) => current.balances[keyId] ?? 0)
  const spend = <A, E, R>(keyId: string, work: Effect.Effect<A, E, R>) =>
    Effect.uninterruptibleMask((restore) =>
      Effect.zipRight(
        debit(keyId),
        Effect.onExit(restore(work), (exit) => (Exit.isSuccess(exit) ? recordUse(keyId) : change(keyId, 1)))
      )
    )
  return {
    balance,
    usage: (keyId) =>
      Effect.map(store.read, (current) => ({
        spent: current.usage?.[keyId]?.spent ?? 0,
        lastSpentAt: current.usage?.[keyId]?.lastSpentAt
      })),
    add: change,
    spend,
    charge: (keyId, work) =>
      Effect.flatMap(spend(keyId, work), (value) => Effect.map(balance(keyId), (remaining) => ({ value, remaining })))
  }
}

/**
 * Balances in `DATA_DIR/credits.json`: the store before the SQL ledger (`accounts/SqlCredits.ts`),
 * kept so the one-time import reads what it wrote and its tests can write such files.
 */
export const layerJsonFile: Layer.Layer<Credits, never, AppConfig> = Layer.effect(
  Credits,
  Effect.flatMap(
    AppConfig,
    (config) => Effect.map(fileStore<Balances>(join(config.dataDir, "credits.json"), () => ({ balances: {} })), make)
  )
)

export const layerMemory: Layer.Layer<Credits> = Layer.effect(
  Credits,
  Effect.map(memoryStore<Balances>({ balances: {} }), make)
)
