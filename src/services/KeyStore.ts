import { Context, Data, Effect, Layer, Option } from "effect"
import { createHash, randomBytes, timingSafeEqual } from "node:crypto"
import { join } from "node:path"
import type { StoreUnavailable } from "../domain/Problem.ts"
import { AppConfig } from "./AppConfig.ts"
import { fileStore, type JsonStore, memoryStore } from "./store/JsonFileStore.ts"

export type KeyStatus = "active" | "inactive" | "billing_issue"

/** What is stored about a key: never the key itself, only the SHA-256 of it. */
export interface KeyRecord {
  readonly keyId: string
  readonly hash: string
  readonly status: KeyStatus
  readonly plan: string
  readonly label: string
  readonly createdAt: string
}

export class KeyNotFound extends Data.TaggedError("KeyNotFound")<{ readonly keyId: string }> {}

export interface KeyStoreShape {
  /** A new key; the returned `key` is the only time it exists in clear. */
  readonly create: (options: { readonly label: string; readonly plan: string }) => Effect.Effect<
    { readonly key: string; readonly record: KeyRecord }
  >
  /**
   * The record of a presented key, when it is one of ours (compared in constant time). Fails with
   * `StoreUnavailable` when the key cannot be checked at all: an unknown key and an unreachable
   * store are different answers (401 against 503).
   */
  readonly verify: (key: string) => Effect.Effect<Option.Option<KeyRecord>, StoreUnavailable>
  readonly list: Effect.Effect<ReadonlyArray<KeyRecord>>
  readonly setStatus: (keyId: string, status: KeyStatus) => Effect.Effect<KeyRecord, KeyNotFound>
}

export class KeyStore extends Context.Tag("app/KeyStore")<KeyStore, KeyStoreShape>() {}

export const KeyPrefix = "svc_live_"

/** `svc_live_<12 hex: key id>_<32 base64url: secret>`; the id is not secret and finds the record. */
const keyPattern = /^svc_live_([0-9a-f]{12})_([A-Za-z0-9_-]{32})$/

const sha256 = (value: string) => createHash("sha256").update(value).digest()

/** The key id inside a presented key, or undefined when it cannot be one of ours. */
export const keyIdOf = (key: string): string | undefined => keyPattern.exec(key)?.[1]

/** Whether a presented key is the one whose SHA-256 (hex) was stored; compared in constant time. */
export const hashMatches = (storedHex: string, key: string): boolean => {
  const stored = Buffer.from(storedHex, "hex")
  const presented = sha256(key)
  return stored.length === presented.length && timingSafeEqual(stored, presented)
}

/** A new key in clear (shown once) and the record kept of it. */
export const newKey = (options: { readonly label: string; readonly plan: string }, now: Date) => {
  const keyId = randomBytes(6).toString("hex")
  const key = `${KeyPrefix}${keyId}_${randomBytes(24).toString("base64url")}`
  const record: KeyRecord = {
    keyId,
    hash: sha256(key).toString("hex"),
    status: "active",
    plan: options.plan,
    label: options.label,
    createdAt: now.toISOString()
  }
  return { key, record }
}

/** The document of the JSON key store (`DATA_DIR/keys.json`, read by the one-time import). */
export interface Keys {
  readonly keys: ReadonlyArray<KeyRecord>
}

export const make = (store: JsonStore<Keys>): KeyStoreShape => ({
  create: ({ label, plan }) =>
    Effect.suspend(() => {
      const { key, record } = newKey({ label, plan }, new Date())
      return store.modify((current) => [{ key, record }, { keys: [...current.keys, record] }])
    }),
  verify: (key) => {
    const keyId = keyIdOf(key)
    if (keyId === undefined) return Effect.succeed(Option.none())
    return Effect.map(store.read, ({ keys }) => {
      const record = keys.find((candidate) => candidate.keyId === keyId)
      return record !== undefined && hashMatches(record.hash, key) ? Option.some(record) : Option.none()
    })
  },
  list: Effect.map(store.read, ({ keys }) => keys),
  setStatus: (keyId, status) =>
    Effect.flatMap(
      store.modify((current): readonly [KeyRecord | undefined, Keys] => {
        const record = current.keys.find((candidate) => candidate.keyId === keyId)
        if (record === undefined) return [undefined, current]
        const updated = { ...record, status }
        return [updated, { keys: current.keys.map((candidate) => (candidate.keyId === keyId ? updated : candidate)) }]
      }),
      (record) => (record === undefined ? Effect.fail(new KeyNotFound({ keyId })) : Effect.succeed(record))
    )
})

/**
 * Keys in `DATA_DIR/keys.json`: the store before the SQL store (`accounts/SqlKeys.ts`), kept so the
 * one-time import reads what it wrote and its tests can write such files.
 */
export const layerJsonFile: Layer.Layer<KeyStore, never, AppConfig> = Layer.effect(
  KeyStore,
  Effect.flatMap(
    AppConfig,
    (config) => Effect.map(fileStore<Keys>(join(config.dataDir, "keys.json"), () => ({ keys: [] })), make)
  )
)

export const layerMemory: Layer.Layer<KeyStore> = Layer.effect(
  KeyStore,
  Effect.map(memoryStore<Keys>({ keys: [] }), make)
)
