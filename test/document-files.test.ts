import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Option, Redacted } from "effect"
import { createHash } from "node:crypto"
import { migrated } from "../src/layers/Store.ts"
import * as DocumentFiles from "../src/services/DocumentFiles.ts"
import * as DocumentFilesSql from "../src/services/store/DocumentFilesSql.ts"
import * as Postgres from "../src/services/store/Postgres.ts"
import { databaseConfig, forEachEngine, onServer, scratchDatabase, SqlClient } from "./support/SqlEngines.ts"

/** The token with its first character (six full bits) changed: another, unissued token. */
const tampered = (token: string) => `${token.startsWith("A") ? "B" : "A"}${token.slice(1)}`

const pdf = (size: number) => ({ fileName: "DOC-1-v1.pdf", bytes: new Uint8Array(size).fill(37), warnings: 2 })

describe("document link store (in memory, the fixture)", () => {
  it.scoped("serves a document until its TTL passes, then forgets it", () =>
    Effect.gen(function*() {
      let now = 1_000_000
      const files = yield* DocumentFiles.make(DocumentFiles.memoryBlobs(), {
        ttlSeconds: 60,
        maxBytes: 10_000,
        now: () => now
      })
      const link = yield* files.put(pdf(100))
      expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(link.expiresAt.getTime()).toBe(now + 60_000)
      expect(link.sha256).toBe(createHash("sha256").update(pdf(100).bytes).digest("hex"))
      const stored = yield* files.get(link.token)
      expect(Option.getOrThrow(stored)).toMatchObject({ fileName: "DOC-1-v1.pdf", warnings: 2 })
      expect(Option.isNone(yield* files.get(tampered(link.token)))).toBe(true)
      now += 60_000
      expect(Option.isNone(yield* files.get(link.token))).toBe(true)
    }))

  it.scoped("refuses documents beyond the byte cap until expired ones are swept", () =>
    Effect.gen(function*() {
      let now = 0
      const files = yield* DocumentFiles.make(DocumentFiles.memoryBlobs(), {
        ttlSeconds: 10,
        maxBytes: 250,
        now: () => now
      })
      const first = yield* files.put(pdf(200))
      const refused = yield* Effect.exit(files.put(pdf(100)))
      expect(Exit.isFailure(refused) && JSON.stringify(refused.cause)).toContain("DocumentStorageFull")
      expect(Option.isSome(yield* files.get(first.token))).toBe(true)
      now += 10_000
      const second = yield* files.put(pdf(100))
      expect(Option.isSome(yield* files.get(second.token))).toBe(true)
    }))
})

const failureOf = (exit: Exit.Exit<unknown, unknown>) => Exit.isFailure(exit) ? JSON.stringify(exit.cause) : "success"

// The deployment's store: the same contract on the embedded database and on PostgreSQL, where
// several instances share it.
forEachEngine("document link store (SQL)", (it) => {
  it.scoped("a link made by one instance downloads at another until its TTL passes; only the token's hash is kept", () =>
    Effect.gen(function*() {
      let now = Date.now()
      const options = { ttlSeconds: 60, maxBytes: 10_000, now: () => now }
      const a = yield* DocumentFilesSql.make(options)
      const b = yield* DocumentFilesSql.make(options)
      const link = yield* a.put(pdf(100))
      expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(link.expiresAt.getTime()).toBe(now + 60_000)
      expect(link.sha256).toBe(createHash("sha256").update(pdf(100).bytes).digest("hex"))
      const stored = Option.getOrThrow(yield* b.get(link.token))
      expect(stored).toMatchObject({ fileName: "DOC-1-v1.pdf", warnings: 2 })
      expect([...stored.bytes]).toEqual([...pdf(100).bytes])
      expect(Option.isNone(yield* b.get(tampered(link.token)))).toBe(true)

      const sql = yield* SqlClient
      const rows = yield* sql<{ tokenHash: string }>`SELECT token_hash FROM document_files`
      expect(rows.map((row) => row.tokenHash)).toContain(createHash("sha256").update(link.token).digest("hex"))
      const dump = JSON.stringify(
        yield* sql`SELECT token_hash, file_name, warnings, size, expires_at FROM document_files`
      )
      expect(dump).not.toContain(link.token)

      now += 60_000
      expect(Option.isNone(yield* b.get(link.token))).toBe(true)
      yield* sql`DELETE FROM document_files`
    }))

  it.scoped("keeps the byte cap across instances putting at once, and frees expired space", () =>
    Effect.gen(function*() {
      let now = Date.now()
      const options = { ttlSeconds: 10, maxBytes: 1_000, now: () => now }
      const instances = [yield* DocumentFilesSql.make(options), yield* DocumentFilesSql.make(options)]
      const outcomes = yield* Effect.forEach(
        Array.from({ length: 12 }, (_, i) => i),
        (i) => Effect.exit(instances[i % 2]!.put(pdf(100))),
        { concurrency: "unbounded" }
      )
      expect(outcomes.filter(Exit.isSuccess)).toHaveLength(10)
      const refused = outcomes.filter(Exit.isFailure)
      expect(refused).toHaveLength(2)
      for (const exit of refused) expect(failureOf(exit)).toContain("DocumentStorageFull")
      const sql = yield* SqlClient
      const [usage] = yield* sql<{ used: number }>`SELECT sum(size)::bigint AS used FROM document_files`
      expect(usage!.used).toBe(1_000)

      now += 10_000
      const after = yield* instances[1]!.put(pdf(400))
      expect(Option.isSome(yield* instances[0]!.get(after.token))).toBe(true)
      const [left] = yield* sql<{ used: number }>`SELECT sum(size)::bigint AS used FROM document_files`
      expect(left!.used).toBe(400)
      yield* sql`DELETE FROM document_files`
    }))

  it.scoped("an instance answers again from its own copy (documents never change); others read the store", () =>
    Effect.gen(function*() {
      const options = { ttlSeconds: 60, maxBytes: 10_000 }
      const a = yield* DocumentFilesSql.make(options)
      const b = yield* DocumentFilesSql.make(options)
      const link = yield* a.put(pdf(100))
      const sql = yield* SqlClient
      yield* sql`DELETE FROM document_files`
      expect(Option.isSome(yield* a.get(link.token))).toBe(true)
      expect(Option.isNone(yield* b.get(link.token))).toBe(true)
    }))

  it.scoped("refuses a single document larger than the cap", () =>
    Effect.gen(function*() {
      const files = yield* DocumentFilesSql.make({ ttlSeconds: 60, maxBytes: 50 })
      expect(failureOf(yield* Effect.exit(files.put(pdf(51))))).toContain("DocumentStorageFull")
    }))
}, Layer.empty)

describe("document link store when PostgreSQL goes away", () => {
  it.scoped("answers StoreUnavailable (503) for put and get, never a missing link", () =>
    Effect.gen(function*() {
      const { name, url } = yield* scratchDatabase
      const store = yield* Layer.build(migrated(Postgres.layer(Redacted.make(url), databaseConfig(url)), "postgresql"))
      const files = yield* Effect.provide(DocumentFilesSql.make({ ttlSeconds: 60, maxBytes: 10_000 }), store)
      const link = yield* files.put(pdf(10))
      yield* onServer((client) => client.query(`DROP DATABASE ${name} WITH (FORCE)`))
      const put = yield* Effect.exit(files.put(pdf(10)))
      expect(failureOf(put)).toContain("StoreUnavailable")
      expect(failureOf(put)).toContain("\"status\":503")
      // a link this instance has not served yet must be read from the store: 503, not "no such link"
      const get = yield* Effect.exit(files.get("A".repeat(43)))
      expect(failureOf(get)).toContain("StoreUnavailable")
      // one it holds a copy of is still answered
      expect(Option.isSome(yield* files.get(link.token))).toBe(true)
    }), { timeout: 120_000 })
})
